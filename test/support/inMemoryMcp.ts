/**
 * An MCP SDK client connected to createServer() (mcp-server/src/server.ts) over the SDK's
 * in-memory transport: the tools run from source, no build needed. Only the MCP transport is in
 * memory; the tools still reach the window through the real BridgeClient over a real socket.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { createStreamLogger } from '../../common/src/logger';
import { createServer, type ServerOptions } from '../../mcp-server/src/server';
import { TEST_CLIENT_INFO } from './mcpClient';

export const IN_MEMORY_SERVER_VERSION = '0.0.0-test';

export interface InMemoryMcpSession {
  readonly client: Client;
  /** tools/call with the SDK's own result validation; `options` carries onprogress and signal. */
  call(name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>;
  /** What the server logged (debug and up). */
  log(): string;
  /** Closes the client and disposes the server with its bridge connection. */
  close(): Promise<void>;
}

export interface InMemoryOptions extends Pick<ServerOptions, 'workspaceFolder' | 'target'> {
  /** The client declares elicitation and answers each request so (as VS Code's client does). */
  readonly elicit?: (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
}

export async function connectInMemory(options: InMemoryOptions): Promise<InMemoryMcpSession> {
  let log = '';
  const logger = createStreamLogger((line) => (log += line), { level: 'debug' });
  const { elicit, ...serverOptions } = options;
  const { server, dispose } = createServer({ version: IN_MEMORY_SERVER_VERSION, logger, ...serverOptions });
  const client = new Client(TEST_CLIENT_INFO, elicit ? { capabilities: { elicitation: { form: {} } } } : {});
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  const close = async (): Promise<void> => {
    await client.close();
    await dispose();
  };
  try {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    // Caches every tool's output schema: from now on callTool checks each structuredContent
    // against the schema the server advertised, as VS Code's client does.
    await client.listTools();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client,
    call: async (name, args, callOptions) => (await client.callTool({ name, arguments: args }, CallToolResultSchema, callOptions)) as CallToolResult,
    log: () => log,
    close,
  };
}
