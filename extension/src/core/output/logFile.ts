/**
 * The log file that receives a run's whole rendered output once it outgrows the result limit (or
 * the run lasts), and the housekeeping around it (file names, pruning old logs). Text is batched
 * into large writes on a stream, and a batch never waits longer than FLUSH_MS, so a window that
 * dies mid-run leaves the log readable up to then; `drain()` lets a caller wait out the stream's
 * buffer, so memory stays bounded by the batch size plus what the disk has not taken yet.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { DEVTOOLS_DIR } from '../../../../common/src/bridgeDiscovery';

const BATCH_CHARS = 64 * 1024;
/** Longest a batch waits before it is handed to the disk. */
export const FLUSH_MS = 500;

export class LogFileWriter {
  private readonly stream: fs.WriteStream;
  private batch: string[] = [];
  private batchChars = 0;
  /** Newlines at the end of what was appended, held back so the file never ends in blank lines. */
  private heldNewlines = 0;
  private wroteText = false;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;

  /** Opens (truncates) the file, creating its directory. Throws if the directory cannot be made. */
  constructor(readonly path: string) {
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    this.stream = fs.createWriteStream(path, { flags: 'w', encoding: 'utf8' });
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  /** The first write error, if any: the file is then incomplete. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Characters accepted but not yet handed to the OS (batch plus the stream's buffer). */
  get bufferedChars(): number {
    return this.batchChars + this.stream.writableLength;
  }

  /** Appends finished output text. Trailing newlines are held until more text follows. */
  append(text: string): void {
    if (this.closing || text.length === 0) {
      return;
    }
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 0x0a) {
      end--;
    }
    if (end === 0) {
      this.heldNewlines += text.length;
      return;
    }
    if (this.heldNewlines > 0) {
      this.push('\n'.repeat(this.heldNewlines));
    }
    this.push(end === text.length ? text : text.slice(0, end));
    this.heldNewlines = text.length - end;
    this.wroteText = true;
  }

  /** Hands the batch to the stream and waits until the stream's buffer has drained. */
  async drain(): Promise<void> {
    this.writeBatch();
    if (this.stream.writableNeedDrain && !this.failure && !this.stream.destroyed) {
      try {
        await once(this.stream, 'drain');
      } catch {
        // the error is recorded by the 'error' listener
      }
    }
  }

  /**
   * Writes the final text (the screen at the end; it continues the appended text directly) and
   * closes the file, which then ends in exactly one newline. Resolves even if writing failed.
   */
  close(finalText = ''): Promise<void> {
    this.closing ??= (async () => {
      if (finalText.length > 0) {
        this.push('\n'.repeat(this.heldNewlines) + finalText + '\n');
      } else if (this.wroteText) {
        this.push('\n');
      }
      this.writeBatch();
      clearTimeout(this.flushTimer);
      this.stream.end();
      try {
        await finished(this.stream);
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      }
    })();
    return this.closing;
  }

  private push(text: string): void {
    this.batch.push(text);
    this.batchChars += text.length;
    if (this.batchChars >= BATCH_CHARS) {
      this.writeBatch();
    } else if (!this.flushTimer && !this.closing) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        this.writeBatch();
      }, FLUSH_MS);
    }
  }

  private writeBatch(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.batchChars === 0) {
      return;
    }
    const data = this.batch.length === 1 ? this.batch[0]! : this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    if (!this.failure && !this.stream.destroyed) {
      this.stream.write(data);
    }
  }
}

/** `<workspace>/.devtools/logs`, where run logs live. */
export function defaultLogsDir(workspaceRoot: string): string {
  return nodePath.join(workspaceRoot, DEVTOOLS_DIR, 'logs');
}

let lastStamp = '';
let stampSeq = 0;

/** A fresh log file path `<dir>/<name>-<UTC time>.log`; the name is reduced to safe characters. */
export function logFilePath(dir: string, name: string, now: Date = new Date()): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 48) || 'output';
  let stamp = now.toISOString().replace(/[:.]/g, '-');
  if (stamp === lastStamp) {
    stamp += `-${++stampSeq}`; // two logs in the same millisecond must not share a file
  } else {
    lastStamp = stamp;
    stampSeq = 0;
  }
  return nodePath.join(dir, `${safe}-${stamp}.log`);
}

/** How many run logs a logs directory keeps by default. */
export const DEFAULT_KEEP_LOG_FILES = 50;

/**
 * Deletes all but the newest `keep` `.log` files in `dir` (by modification time). Returns how
 * many were deleted; a missing directory or a file that cannot be removed is not an error.
 */
export async function pruneLogFiles(dir: string, keep = DEFAULT_KEEP_LOG_FILES): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  const files: Array<{ file: string; mtime: number }> = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.log')) {
      continue;
    }
    const file = nodePath.join(dir, entry.name);
    try {
      files.push({ file, mtime: (await fs.promises.stat(file)).mtimeMs });
    } catch {
      // vanished meanwhile
    }
  }
  files.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  let removed = 0;
  for (const { file } of files.slice(Math.max(0, keep))) {
    try {
      await fs.promises.unlink(file);
      removed++;
    } catch {
      // in use or already gone
    }
  }
  return removed;
}
