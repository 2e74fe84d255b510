/** Reading .devtools/bridge.json, shared by the extension (which writes it) and the MCP server. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BRIDGE_FILE, DEVTOOLS_DIR, bridgeFileSchema, type BridgeFile } from './protocol';

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
