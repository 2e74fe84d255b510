/** An MCP SDK client talking to the built dist/mcp-server.js over stdio, as any MCP client would. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const serverScript = path.join(repoRoot, 'dist', 'mcp-server.js');

export interface McpSession {
  readonly client: Client;
  /** What the server wrote to stderr (its log). */
  stderr(): string;
  close(): Promise<void>;
}

export async function connectMcpServer(options: { workspace: string; env?: Record<string, string>; args?: string[] }): Promise<McpSession> {
  if (!existsSync(serverScript)) {
    throw new Error(`${serverScript} is missing: run "npm run build" first (npm test does it).`);
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript, '--workspace', options.workspace, ...(options.args ?? [])],
    env: { PATH: process.env.PATH ?? '', ...options.env },
    cwd: options.workspace,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'terminal-shepherd-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: () => client.close(),
  };
}
