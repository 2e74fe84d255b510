import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** The same directory, however spelled (trailing separators, `.` segments); undefined equals only undefined. */
export function samePath(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return path.resolve(a) === path.resolve(b);
}

/** `file` is `folder` or lies somewhere below it. */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Replaces a file in one step (temp file + rename in the same directory), so a reader or a crash
 * never sees half a file. The temp file is created with `mode` before any content is written.
 */
export async function writeFileAtomic(filePath: string, content: string, mode = 0o644): Promise<void> {
  const temp = `${filePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, content, { mode, flag: 'wx' });
    await fs.rename(temp, filePath);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
