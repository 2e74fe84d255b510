/**
 * Terminal Shepherd's per-user folder (~/.terminal-shepherd): the stable launcher that MCP clients
 * outside VS Code start (bin/terminal-shepherd-mcp, a .cmd beside it on Windows), which every
 * window of the extension keeps pointing at the newest installed MCP server, and one record per
 * open window (windows/<pid>.json), through which a server started by a window's own extension
 * host (Cline, Continue) finds that window, and the "no window" message names the open ones.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { processExists } from './processExists';

/** Overrides the folder (tests; people who keep their home elsewhere). */
export const SHEPHERD_HOME_ENV = 'TERMINAL_SHEPHERD_HOME';

export function shepherdHome(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  return env[SHEPHERD_HOME_ENV] || path.join(home, '.terminal-shepherd');
}

/** The launcher's name (without the .cmd Windows needs). */
export const LAUNCHER_NAME = 'terminal-shepherd-mcp';

/** The launcher an MCP client runs on this platform. */
export function launcherPath(root: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(root, 'bin', platform === 'win32' ? `${LAUNCHER_NAME}.cmd` : LAUNCHER_NAME);
}

export const windowRecordSchema = z.object({
  /** The extension host's pid (the window's bridge.json names the same one). */
  pid: z.number().int().positive(),
  workspaceFolder: z.string(),
  extensionVersion: z.string(),
  createdAt: z.string(),
});
export type WindowRecord = z.infer<typeof windowRecordSchema>;

export function windowRecordsDir(root: string): string {
  return path.join(root, 'windows');
}

export function windowRecordPath(root: string, pid: number): string {
  return path.join(windowRecordsDir(root), `${pid}.json`);
}

/** The records of windows whose extension host still runs; unreadable and stale ones are skipped. */
export async function readWindowRecords(root: string, alive: (pid: number) => boolean = processExists): Promise<WindowRecord[]> {
  const dir = windowRecordsDir(root);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const records = await Promise.all(
    names
      .filter((name) => /^\d+\.json$/.test(name))
      .map(async (name) => {
        try {
          const parsed = windowRecordSchema.safeParse(JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')));
          return parsed.success && alive(parsed.data.pid) ? parsed.data : undefined;
        } catch {
          return undefined;
        }
      }),
  );
  return records.filter((r): r is WindowRecord => r !== undefined).sort((a, b) => a.workspaceFolder.localeCompare(b.workspaceFolder));
}
