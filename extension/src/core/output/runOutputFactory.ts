import type { Logger } from '../../../../common/src/logger';
import { DEFAULT_KEEP_LOG_FILES, logFilePath, pruneLogFiles } from './logFile';
import { OutputCapture } from './outputCapture';
import type { RunOutput } from './runOutput';

export interface RunOutputFactoryOptions {
  /** Where full logs of truncated outputs go (.devtools/logs in the workspace). */
  readonly logsDir: string;
  /** Read per run, so a settings change applies to the next run. */
  readonly limitChars: () => number;
  readonly logger: Logger;
  /** How many log files to keep (default DEFAULT_KEEP_LOG_FILES); older ones are deleted when a new one is opened. */
  readonly keepLogFiles?: number;
  /** A log file could not be created or written (the run says so; the user is told once). */
  readonly onLogFileFailure?: (path: string, error: Error) => void;
}

/** Creates each run's output pipeline: rendered, bounded, with its full log under logsDir. */
export function createRunOutputFactory(options: RunOutputFactoryOptions): (terminalName: string, run?: { readonly stripPromptAndEcho?: boolean }) => RunOutput {
  return (terminalName, run) =>
    new OutputCapture({
      limitChars: options.limitChars(),
      ...(run?.stripPromptAndEcho !== undefined ? { stripPromptAndEcho: run.stripPromptAndEcho } : {}),
      logger: options.logger,
      ...(options.onLogFileFailure ? { onLogFileFailure: options.onLogFileFailure } : {}),
      logFilePath: () => {
        void pruneLogFiles(options.logsDir, (options.keepLogFiles ?? DEFAULT_KEEP_LOG_FILES) - 1).catch((error: unknown) => options.logger.debug('pruning logs failed', error));
        return logFilePath(options.logsDir, terminalName);
      },
    });
}
