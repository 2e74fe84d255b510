import type { Logger } from '../../../../common/src/logger';
import type { Redactor } from '../secrets/redaction';
import { DEFAULT_KEEP_LOG_FILES, logFilePath, pruneLogFiles } from './logFile';
import { OutputCapture } from './outputCapture';
import { runOutputLimit } from './outputLimit';
import type { ScreenReport } from './outputStart';
import type { RunOutput } from './runOutput';

export interface RunOutputFactoryOptions {
  /** Where full logs of truncated outputs go (.devtools/logs in the workspace). */
  readonly logsDir: string;
  /** The person's own output.limitChars (undefined: none set), read per run, so a settings change applies to the next run. */
  readonly limitChars: () => number | undefined;
  readonly logger: Logger;
  /** How many log files to keep (default DEFAULT_KEEP_LOG_FILES); older ones are deleted when a new one is opened. */
  readonly keepLogFiles?: number;
  /** A log file could not be created or written (the run says so; the user is told once). */
  readonly onLogFileFailure?: (path: string, error: Error) => void;
  /** Read per run: what takes secrets out of its log file (the terminal's own variables too). */
  readonly redactor?: (terminalName: string) => Redactor;
}

/** What a run's output depends on besides its terminal. */
export interface RunOutputOptions {
  readonly stripPromptAndEcho?: boolean;
  /** The output limit the calling MCP client takes (the MCP server's table); the person's setting wins. */
  readonly clientOutputLimitChars?: number;
}

/** Terminals whose screen size is remembered; the oldest is forgotten past this. */
const MAX_SCREENS = 64;

/**
 * Creates each run's output pipeline: rendered, bounded, with its full log under logsDir. A
 * terminal whose shell reports its screen (PowerShell) gets its next run's renderer at the size
 * it last reported, so that run renders on it from the start (outputCapture.ts useScreen).
 */
export function createRunOutputFactory(options: RunOutputFactoryOptions): (terminalName: string, run?: RunOutputOptions) => RunOutput {
  const screens = new Map<string, Pick<ScreenReport, 'cols' | 'rows'>>();
  const remember = (terminalName: string, { cols, rows }: ScreenReport): void => {
    screens.delete(terminalName);
    screens.set(terminalName, { cols, rows });
    if (screens.size > MAX_SCREENS) screens.delete(screens.keys().next().value!);
  };
  return (terminalName, run) =>
    new OutputCapture({
      limitChars: runOutputLimit(options.limitChars(), run?.clientOutputLimitChars),
      ...screens.get(terminalName),
      onScreen: (report) => remember(terminalName, report),
      ...(run?.stripPromptAndEcho !== undefined ? { stripPromptAndEcho: run.stripPromptAndEcho } : {}),
      logger: options.logger,
      ...(options.onLogFileFailure ? { onLogFileFailure: options.onLogFileFailure } : {}),
      ...(options.redactor ? { redactor: options.redactor(terminalName) } : {}),
      logFilePath: () => {
        void pruneLogFiles(options.logsDir, (options.keepLogFiles ?? DEFAULT_KEEP_LOG_FILES) - 1).catch((error: unknown) => options.logger.debug('pruning logs failed', error));
        return logFilePath(options.logsDir, terminalName);
      },
    });
}
