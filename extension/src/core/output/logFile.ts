/**
 * The log file that receives a run's whole rendered output once it outgrows the result limit (or
 * the run lasts), and the housekeeping around it (file names, pruning old logs). Finished text is
 * batched into large writes, and a batch never waits longer than FLUSH_MS; after each, the file
 * ends with the lines still on the terminal's screen (a tail rewritten in place until they are
 * final), so a window that dies mid-run leaves a log that reads as the terminal did up to then.
 * Memory stays bounded by the batch size plus what the disk has not taken yet (`drain()`).
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { promisify } from 'node:util';
import { DEVTOOLS_DIR } from '../../../../common/src/bridgeDiscovery';
import type { RedactionStream } from '../secrets/redaction';

const BATCH_CHARS = 64 * 1024;
/** Longest a batch (or a changed screen) waits before it is handed to the disk. */
export const FLUSH_MS = 500;

const write = promisify(fs.write);
const ftruncate = promisify(fs.ftruncate);
const close = promisify(fs.close);

export class LogFileWriter {
  private readonly fd: number;
  private batch: string[] = [];
  private batchChars = 0;
  /** Newlines at the end of what was appended, held back so the file never ends in blank lines. */
  private heldNewlines = 0;
  private wroteText = false;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Writes in order, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** Bytes of final text on disk (where the screen tail starts). */
  private finalBytes = 0;
  /** Characters handed to the queue and not written yet. */
  private queuedChars = 0;
  private lastTail = '';

  /**
   * Opens (truncates) the file, creating its directory; throws when either fails. `screen`, when
   * given, is the text still on the terminal's screen: the file's tail between batches.
   */
  constructor(
    readonly path: string,
    private readonly screen?: () => string,
    /** Secrets out of everything written (the screen tail too); none when redaction is off. */
    private readonly redaction?: RedactionStream,
  ) {
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    this.fd = fs.openSync(path, 'w', 0o644);
    if (screen) this.armFlush();
  }

  /** The first write error, if any: the file is then incomplete. */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Characters accepted but not yet handed to the OS. */
  get bufferedChars(): number {
    return this.batchChars + this.queuedChars;
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

  /** Hands the batch to the disk and waits until everything queued is written. */
  async drain(): Promise<void> {
    this.writeBatch(false);
    await this.queue;
  }

  /**
   * Writes the final text (the screen at the end; it continues the appended text directly) and
   * closes the file, which then ends in exactly one newline. Resolves even if writing failed.
   */
  close(finalText = ''): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.flushTimer);
      this.writeBatch(false);
      if (this.redaction) finalText = this.redaction.push(finalText);
      const tail = finalText.length > 0 ? `${'\n'.repeat(this.heldNewlines)}${finalText}\n` : this.wroteText ? '\n' : '';
      this.enqueue(() => this.writeTail(tail));
      await this.queue;
      await close(this.fd).catch((error: unknown) => this.fail(error));
    })();
    return this.closing;
  }

  private push(text: string): void {
    this.batch.push(text);
    this.batchChars += text.length;
    // A full batch goes now (without the screen: the renderer is mid-parse); the screen follows at the tick.
    if (this.batchChars >= BATCH_CHARS) this.writeBatch(false);
    this.armFlush();
  }

  private armFlush(): void {
    if (!this.flushTimer && !this.closing) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        this.writeBatch();
      }, FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Queues the batch as final text, then (at a tick) the screen as the file's new tail. */
  private writeBatch(withScreen = true): void {
    if (withScreen) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    const wroteBatch = this.batchChars > 0;
    if (wroteBatch) {
      // Redacted a batch at a time: one scan per 64 KiB, not one per line.
      const text = this.batch.length === 1 ? this.batch[0]! : this.batch.join('');
      const data = Buffer.from(this.redaction ? this.redaction.push(text) : text, 'utf8');
      const chars = this.batchChars;
      this.batch = [];
      this.batchChars = 0;
      this.queuedChars += chars;
      this.enqueue(async () => {
        this.queuedChars -= chars;
        await this.writeAt(data, this.finalBytes);
        this.finalBytes += data.length;
      });
    }
    if (withScreen && this.screen) {
      const screen = this.redaction ? this.redaction.peek(this.screen()) : this.screen();
      const tail = screen.length > 0 ? `${'\n'.repeat(this.heldNewlines)}${screen}` : '';
      if (wroteBatch || tail !== this.lastTail) this.enqueue(() => this.writeTail(tail));
      // The screen changes without new final text (a progress bar, a prompt): look again later.
      this.armFlush();
    }
  }

  /** The file becomes the final text followed by `tail`. */
  private async writeTail(tail: string): Promise<void> {
    const data = Buffer.from(tail, 'utf8');
    if (data.length > 0) await this.writeAt(data, this.finalBytes);
    if (this.failure) return;
    await ftruncate(this.fd, this.finalBytes + data.length).catch((error: unknown) => this.fail(error));
    this.lastTail = tail;
  }

  private async writeAt(data: Buffer, position: number): Promise<void> {
    let offset = 0;
    while (offset < data.length && !this.failure) {
      try {
        const { bytesWritten } = await write(this.fd, data, offset, data.length - offset, position + offset);
        if (bytesWritten <= 0) throw new Error(`could not write to ${this.path}: nothing written`);
        offset += bytesWritten;
      } catch (error) {
        this.fail(error);
      }
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(() => (this.failure ? undefined : work())).catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
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
