/**
 * Waits on a started run as its call asks, and maps how the wait ended to the call's result, once
 * for every mode: completion (until it truly finished, asks for input, or the call's timeout),
 * ready (until a server or watcher answers, or it fails fast) and background (a short glance).
 */
import type { Logger } from '../../../../common/src/logger';
import type { TerminalRunResult } from '../../../../common/src/protocol';
import { serversUnavailableError, windowClosingError } from '../errors';
import type { Disposable } from '../events';
import type { CommandRun, RunProgress } from '../run/commandRun';
import type { DevServers } from '../servers/devServers';
import type { ReadySeen } from '../servers/readiness';
import { notReadyMessage, readyMessage } from '../servers/serverReport';
import type { TerminalSession } from '../terminals/terminalSession';
import { cancelledMessage, timeoutMessage } from './runMessages';
import { runResult, type ResultDetails } from './runResult';

export type WaitHow =
  | { readonly mode: 'completion'; readonly timeoutMs: number }
  | { readonly mode: 'ready'; readonly timeoutMs: number; readonly readyPattern: string | undefined }
  | { readonly mode: 'background' };

export interface AwaitOptions {
  readonly signal?: AbortSignal;
  /** Called about once a second while the call waits. */
  readonly onProgress?: (progress: RunProgress) => void;
  /** Dev-server support: readiness, and who holds a port a command failed on (terminal_run only). */
  readonly servers?: DevServers;
  readonly logger: Logger;
}

/** How a wait ended, whatever the mode. */
type Outcome =
  | { readonly kind: 'completed' | 'waiting_for_input' | 'terminal_closed' | 'ended' | 'cancelled' | 'disposed' }
  | { readonly kind: 'timeout'; readonly seen?: ReadySeen }
  | { readonly kind: 'ready'; readonly info: NonNullable<ResultDetails['ready']> };

/** A background run gets this long to fail at once (a typo, a port taken) before the call returns. */
const BACKGROUND_GLANCE_MS = 300;
/** After Ctrl+C for a call its client gave up on: how long the shell gets to report the end. */
const CANCEL_WAIT_MS = 3000;
const PROGRESS_INTERVAL_MS = 1000;

export async function awaitRun(session: TerminalSession, run: CommandRun, how: WaitHow, options: AwaitOptions): Promise<TerminalRunResult> {
  const progress = options.onProgress ? reportProgress(run, options.onProgress, options.logger) : undefined;
  try {
    return await report(session, run, how, await waitOn(run, how, options), options);
  } finally {
    progress?.dispose();
  }
}

async function waitOn(run: CommandRun, how: WaitHow, options: AwaitOptions): Promise<Outcome> {
  const { signal } = options;
  switch (how.mode) {
    case 'completion':
      return { kind: await run.wait({ timeoutMs: how.timeoutMs, ...(signal ? { signal } : {}) }) };
    case 'background':
      return { kind: await run.wait({ timeoutMs: BACKGROUND_GLANCE_MS, ...(signal ? { signal } : {}) }) };
    case 'ready': {
      if (!options.servers) throw serversUnavailableError();
      return options.servers.waitReady(run, {
        timeoutMs: how.timeoutMs,
        ...(signal ? { signal } : {}),
        ...(how.readyPattern !== undefined ? { readyPattern: new RegExp(how.readyPattern) } : {}),
      });
    }
  }
}

async function report(session: TerminalSession, run: CommandRun, how: WaitHow, outcome: Outcome, options: AwaitOptions): Promise<TerminalRunResult> {
  switch (outcome.kind) {
    case 'disposed':
      throw windowClosingError(session.name, run.command);
    case 'cancelled':
      return cancel(session, run);
    case 'ready':
      return runResult(run, 'running', { note: readyMessage(session.name, outcome.info), ready: outcome.info });
    case 'timeout':
      if (how.mode === 'background') return withPortConflict(run, options);
      return runResult(run, 'timeout', {
        note: outcome.seen && how.mode === 'ready' ? notReadyMessage(session.name, how.timeoutMs, outcome.seen) : timeoutMessage(session.name, how.timeoutMs),
      });
    case 'waiting_for_input':
      return runResult(run, 'waiting_for_input');
    default:
      // completed, terminal_closed, or (ready mode) ended before it was ready.
      return withPortConflict(run, options);
  }
}

/** The run as it stands; a command that failed because a port was taken also says who holds the port. */
async function withPortConflict(run: CommandRun, options: AwaitOptions): Promise<TerminalRunResult> {
  const result = await runResult(run, run.state.kind);
  const { servers } = options;
  if (!servers || result.status !== 'completed' || result.exitCode === 0) return result;
  const portConflict = await servers.portConflict(result.output, run.command);
  return portConflict ? runResult(run, result.status, { portConflict }) : result;
}

/** Ctrl+C for a run whose caller gave up, then a bounded wait for the shell to report the end. */
async function cancel(session: TerminalSession, run: CommandRun): Promise<TerminalRunResult> {
  if (run.active && !session.closed) {
    session.interrupt();
    if ((await run.wait({ timeoutMs: CANCEL_WAIT_MS, stopAtInput: false })) === 'disposed') {
      throw windowClosingError(session.name, run.command);
    }
  }
  return runResult(run, 'cancelled', { note: cancelledMessage(session.name, run.active, CANCEL_WAIT_MS) });
}

/** Calls `onProgress` about once a second with the run's figures until disposed; a failing callback is logged. */
function reportProgress(run: CommandRun, onProgress: (p: RunProgress) => void, logger: Logger): Disposable {
  const interval = setInterval(() => {
    try {
      onProgress(run.progress());
    } catch (error) {
      logger.warn('progress listener failed', error);
    }
  }, PROGRESS_INTERVAL_MS);
  return { dispose: () => clearInterval(interval) };
}
