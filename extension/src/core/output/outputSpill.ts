/**
 * Spilling to the log file: once the output outgrows the limit, the whole rendered stream goes to
 * a file (what came before, everything after, and the final screen at close) while memory keeps
 * only head and tail. A file that cannot be created or written is reported once, and its short
 * reason is kept for the truncation marker; the output carries on without it.
 */
import * as fs from 'node:fs';
import type { Logger } from '../../../../common/src/logger';
import { LogFileWriter } from './logFile';
import type { Redactor } from '../secrets/redaction';

export interface OutputSpillOptions {
  /** Path of the log file, asked for once, when the output first exceeds the limit (or the run lasts). */
  readonly logFilePath?: () => string;
  /** The text still on the terminal's screen: the log file's tail while the run goes on. */
  readonly screen?: () => string;
  readonly logger?: Logger;
  /** Called once when the log file cannot be created or written (the user is told elsewhere). */
  readonly onLogFileFailure?: (path: string, error: Error) => void;
  /** Takes secrets out of the log file (secrets/redaction.ts); absent: written as rendered. */
  readonly redactor?: Redactor;
}

export class OutputSpill {
  private file: LogFileWriter | undefined;
  private failure: string | undefined;

  constructor(private readonly options: OutputSpillOptions) {}

  /** Opens the log file with the stream so far, which is the whole stream: it was under the limit. */
  open(streamSoFar: string): void {
    if (!this.options.logFilePath || this.failure) {
      return;
    }
    const path = this.options.logFilePath();
    try {
      this.file = new LogFileWriter(path, this.options.screen, this.options.redactor?.stream());
      this.file.append(streamSoFar);
    } catch (error) {
      this.fail(path, error instanceof Error ? error : new Error(String(error)));
    }
  }

  append(text: string): void {
    this.file?.append(text);
  }

  /** Characters accepted but not yet taken by the disk. */
  get bufferedChars(): number {
    return this.file?.bufferedChars ?? 0;
  }

  /** Waits until the disk has taken what is buffered. */
  async drain(): Promise<void> {
    await this.file?.drain();
  }

  /** The log file path once the output exceeded the limit, while the file is being written fine. */
  get path(): string | undefined {
    return this.file && this.error === undefined ? this.file.path : undefined;
  }

  /** Why the log file failed (it could not be created, or a write failed), as soon as it is known. */
  get error(): string | undefined {
    if (this.failure === undefined && this.file?.error) {
      this.fail(this.file.path, this.file.error);
    }
    return this.failure;
  }

  /** Writes the final screen and closes the file, if one was opened; removes it unless `keep`. */
  async close(screen: string, keep = true): Promise<void> {
    if (!this.file) {
      return;
    }
    await this.file.close(screen);
    if (!keep) {
      // It only kept a long run's output safe while it ran; the result holds all of it.
      const removed = this.file.path;
      this.file = undefined;
      await fs.promises.rm(removed, { force: true }).catch((error: unknown) => this.options.logger?.debug(`could not remove ${removed}`, error));
      return;
    }
    if (this.file.error && !this.failure) {
      this.fail(this.file.path, this.file.error);
    }
  }

  private fail(path: string, error: Error): void {
    // "ENOSPC: no space left on device", without the path that follows the comma.
    this.failure = error.message.split(', ')[0] ?? error.message;
    this.options.logger?.warn(`cannot write the output log file ${path}`, error);
    this.options.onLogFileFailure?.(path, error);
  }
}
