/**
 * An MCP client wired to createServer() in the same process over the SDK's in-memory transport:
 * the tools' own handlers, their result composition and the real bridge socket behind them, with
 * only the stdio pipe left out. The extension's "Run a Command" calls terminal_run through it, so
 * a person sees exactly what a model gets; the integration tests drive the tools with it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type ServerOptions } from './server';

/** The environment variable that sets the client's deadline (ms): Run a Command sets the longest call, as a person waits as long as the run does. */
export { OVERRIDE_ENV } from './bridge/clientDeadlines';

export interface InProcessSession {
  readonly client: Client;
  /** tools/call with the SDK's own result validation; `options` carries onprogress and signal. */
  call(name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult>;
  /** Closes the client and disposes the server with its bridge connection. */
  close(): Promise<void>;
}

/** Answers the server's elicitation requests; given, the client declares elicitation (as VS Code's does). */
export type ElicitHandler = (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

export async function connectInProcess(options: ServerOptions, clientInfo: { name: string; version: string }, elicit?: ElicitHandler): Promise<InProcessSession> {
  const { server, dispose } = createServer(options);
  const client = new Client(clientInfo, elicit ? { capabilities: { elicitation: { form: {} } } } : {});
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  const close = async (): Promise<void> => {
    await client.close();
    await dispose();
  };
  try {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    // Caches every tool's output schema: from then on callTool checks each structuredContent
    // against the schema the server advertised, as VS Code's client does.
    await client.listTools();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client,
    call: async (name, args, callOptions) => (await client.callTool({ name, arguments: args }, CallToolResultSchema, callOptions)) as CallToolResult,
    close,
  };
}
