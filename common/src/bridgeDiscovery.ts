/**
 * How an MCP server finds the VS Code window's bridge: the environment VS Code sets for a server it
 * starts, or else .devtools/bridge.json, which the extension writes and a client started outside
 * VS Code reads.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Environment variables through which VS Code hands the bridge to the MCP server it starts. */
export const BRIDGE_ENV = {
  endpoint: 'TERMINAL_SHEPHERD_BRIDGE',
  token: 'TERMINAL_SHEPHERD_TOKEN',
  workspace: 'TERMINAL_SHEPHERD_WORKSPACE',
} as const;

/** The extension's folder in the first workspace folder: its data (logs, the process ledger) and bridge.json. */
export const DEVTOOLS_DIR = '.devtools';
export const BRIDGE_FILE = 'bridge.json';

export const bridgeFileSchema = z.object({
  endpoint: z.string().min(1),
  token: z.string().min(16),
  protocolVersion: z.number().int(),
  pid: z.number().int(),
  extensionVersion: z.string(),
  workspaceFolder: z.string(),
  createdAt: z.string(),
});
export type BridgeFile = z.infer<typeof bridgeFileSchema>;

export function bridgeFilePath(workspaceFolder: string): string {
  return path.join(workspaceFolder, DEVTOOLS_DIR, BRIDGE_FILE);
}

/** The advertised bridge, or undefined when the file is missing or is not a valid bridge file. */
export async function readBridgeFile(filePath: string): Promise<BridgeFile | undefined> {
  try {
    const parsed = bridgeFileSchema.safeParse(JSON.parse(await fs.readFile(filePath, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
