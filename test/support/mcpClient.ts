/** An MCP SDK client talking to the built dist/mcp-server.js over stdio, as any MCP client would. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const serverScript = path.join(repoRoot, 'dist', 'mcp-server.js');

export const TEST_CLIENT_INFO = { name: 'terminal-shepherd-tests', version: '1.0.0' };

/** A tool result's text content, as a model reads it. */
export function toolText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface McpSession {
  readonly client: Client;
  /** What the server wrote to stderr (its log). */
  stderr(): string;
  /** Transport and protocol errors the client saw, such as a stdout line that is not MCP. */
  protocolErrors(): readonly Error[];
  close(): Promise<void>;
}

/** Answers an elicitation the server sends (the client then declares the capability). */
export type ElicitHandler = (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

export async function connectMcpServer(options: { workspace: string; env?: Record<string, string>; args?: string[]; elicit?: ElicitHandler }): Promise<McpSession> {
  if (!existsSync(serverScript)) {
    throw new Error(`${serverScript} is missing: run "npm run build" first (npm test does it).`);
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript, '--workspace', options.workspace, ...(options.args ?? [])],
    // No window records of the machine's real windows (~/.terminal-shepherd): this folder never exists.
    env: { PATH: process.env.PATH ?? '', TERMINAL_SHEPHERD_HOME: path.join(options.workspace, '.devtools', 'no-shepherd-home'), ...options.env },
    cwd: options.workspace,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const errors: Error[] = [];
  const client = new Client(TEST_CLIENT_INFO, options.elicit ? { capabilities: { elicitation: { form: {} } } } : {});
  const { elicit } = options;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params, extra.signal));
  // Set before connecting, so that even a stray line written at startup is caught.
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    protocolErrors: () => errors,
    close: () => client.close(),
  };
}
