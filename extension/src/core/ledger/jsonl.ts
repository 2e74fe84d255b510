/**
 * JSON Lines that survive crashes and concurrent writers. Appends open the file by path for every
 * batch (so a rotation by another window sends the next batch to the new file) with O_APPEND and
 * hand the whole batch to ONE write, which the OS places atomically at the end. A reader skips and
 * counts what does not parse: a line torn by a crash mid-write costs that line only.
 */
import { promises as fs } from 'node:fs';

export interface JsonlReadResult<T> {
  readonly items: T[];
  /** Lines that were not JSON or not a record of the expected shape (torn, garbage). */
  readonly skipped: number;
}

const NEWLINE = 0x0a;

/**
 * Appends `lines` (each one JSON text without newline) and returns the file's size afterwards.
 * A file that ends mid-line (a writer crashed) first gets a newline, so the torn tail does not
 * swallow the first new line.
 */
export async function appendLines(filePath: string, lines: readonly string[]): Promise<number> {
  const handle = await fs.open(filePath, 'a+', 0o644);
  try {
    const { size } = await handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      prefix = last[0] === NEWLINE ? '' : '\n';
    }
    const data = Buffer.from(`${prefix}${lines.join('\n')}\n`, 'utf8');
    let offset = 0;
    while (offset < data.length) {
      // One call in practice; a short write (disk full) is finished, the reader tolerates the rest.
      const { bytesWritten } = await handle.write(data, offset, data.length - offset);
      if (bytesWritten <= 0) {
        throw new Error(`could not append to ${filePath}: nothing written`);
      }
      offset += bytesWritten;
    }
    return size + data.length;
  } finally {
    await handle.close();
  }
}

/** Every record of a JSONL file, oldest first; a missing file has none. */
export async function readJsonl<T>(filePath: string, parse: (value: unknown) => T | undefined): Promise<JsonlReadResult<T>> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { items: [], skipped: 0 };
    }
    throw error;
  }
  return parseJsonl(text, parse);
}

function parseJsonl<T>(text: string, parse: (value: unknown) => T | undefined): JsonlReadResult<T> {
  const items: T[] = [];
  let skipped = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length === 0) {
      continue;
    }
    let item: T | undefined;
    try {
      item = parse(JSON.parse(line));
    } catch {
      item = undefined;
    }
    if (item === undefined) {
      skipped++;
    } else {
      items.push(item);
    }
  }
  return { items, skipped };
}
