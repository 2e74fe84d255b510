/**
 * An MCP SDK client connected to createServer() (mcp-server/src/server.ts) over the SDK's
 * in-memory transport (mcp-server/src/inProcess.ts): the tools run from source, no build needed.
 * Only the MCP transport is in memory; the tools still reach the window through the real
 * BridgeClient over a real socket.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { createStreamLogger } from '../../common/src/logger';
import { connectInProcess, type ElicitHandler } from '../../mcp-server/src/inProcess';
import type { ServerOptions } from '../../mcp-server/src/server';
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

export interface InMemoryOptions extends Pick<ServerOptions, 'workspaceFolder' | 'target' | 'env' | 'clientProcess'> {
  /** The client declares elicitation and answers each request so (as VS Code's client does). */
  readonly elicit?: ElicitHandler;
  /** The client's name and version at initialize (default TEST_CLIENT_INFO). */
  readonly clientInfo?: { name: string; version: string };
}

export async function connectInMemory(options: InMemoryOptions): Promise<InMemoryMcpSession> {
  let log = '';
  const logger = createStreamLogger((line) => (log += line), { level: 'debug' });
  const { elicit, clientInfo, ...serverOptions } = options;
  // The test process's environment is no client's: deadlines come from what each test gives.
  const session = await connectInProcess({ version: IN_MEMORY_SERVER_VERSION, logger, env: {}, ...serverOptions }, clientInfo ?? TEST_CLIENT_INFO, elicit);
  return { ...session, log: () => log };
}
