/**
 * This window's record in ~/.terminal-shepherd/windows/<extension host pid>.json, removed when the
 * window closes: an MCP server started by this extension host (Cline's, Continue's) finds the
 * window by its pid, and a server that finds no window for its folder names the open ones.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { windowRecordPath, type WindowRecord } from '../../../common/src/shepherdHome';
import { writeFileAtomic } from '../core/fsUtil';

export interface PublishedWindowRecord {
  readonly filePath: string;
  dispose(): Promise<void>;
}

export async function publishWindowRecord(root: string, record: Omit<WindowRecord, 'createdAt'>): Promise<PublishedWindowRecord> {
  const filePath = windowRecordPath(root, record.pid);
  await fs.mkdir(path.dirname(filePath), { recursive: true });
  await writeFileAtomic(filePath, `${JSON.stringify({ ...record, createdAt: new Date().toISOString() }, null, 2)}\n`);
  return {
    filePath,
    dispose: () => fs.rm(filePath, { force: true }),
  };
}
