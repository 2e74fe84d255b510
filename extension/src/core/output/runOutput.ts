/** What a run needs from its output pipeline (implemented by outputCapture.ts; used by run/ and servers/). */
import type { ExitCodeSource } from '../../../../common/src/protocol';
import type { Event } from '../events';

export interface RunOutputSnapshot {
  readonly output: string;
  readonly truncated: boolean;
  readonly outputFile?: string;
  /** Why the whole output could not be saved (truncated, and the log file failed). */
  readonly outputFileError?: string;
}

export interface RunOutput {
  /** Raw terminal data as read from the execution stream; false asks the writer to flush() first. */
  write(chunk: string): boolean;
  /** Resolves once everything written so far is rendered. */
  flush(): Promise<void>;
  snapshot(): RunOutputSnapshot;
  /** The last `count` rendered lines including the live screen, oldest first. */
  lastLines(count: number): string[];
  readonly totalChars: number;
  /** An exit code the command line reported in its own output (PowerShell's $LASTEXITCODE), which wins over the end event's. */
  readonly reportedExitCode?: number;
  /** Where the command said its exit code came from (PowerShell's ladder), if it did. */
  readonly reportedExitSource?: ExitCodeSource;
  /** Fires when a write carried visible data (not for marker-only or prompt data). */
  readonly onDidWrite: Event<void>;
  /**
   * No more data: render the rest and complete the log file. Reading keeps working. A long run's
   * live log is removed when the output fit the limit (the result has it all), unless `keepLog`
   * (the run ended with its terminal or window: the log may be all that is left of it).
   */
  close(options?: { readonly keepLog?: boolean }): Promise<void>;
}
