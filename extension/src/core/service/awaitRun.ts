/**
 * Waits on a started run as its call asks, and maps how the wait ended to the call's result, once
 * for every mode: completion (until it truly finished, asks for input, finished a watch cycle, or
 * the call's timeout), ready (until a server or watcher answers, or it fails fast) and background
 * (a short glance). Whatever the mode, the wait ends before the client's deadline (the result is
 * then `running`, with the call that waits on), and a cancelled call stops the waiting, never the
 * command (unless the person opted in to Ctrl+C).
 */
import type { Logger } from '../../../../common/src/logger';
import type { TerminalRunResult } from '../../../../common/src/protocol';
import { windowClosingError } from '../errors';
import type { Disposable } from '../events';
import type { CommandRun, RunProgress } from '../run/commandRun';
import type { WaitOutcome } from '../run/runWait';
import type { ReadySeen } from '../servers/readiness';
import { notReadyMessage, readyMessage } from '../servers/serverReport';
import type { TerminalSession } from '../terminals/terminalSession';
import type { CallContext } from './callContext';
import { cancelledKeepMessage, cancelledMessage, deadlineMessage, timeoutMessage } from './runMessages';
import { runResult, type ResultDetails } from './runResult';
import type { WaitHow } from './runPlan';
import type { StartedRun } from './runStart';
import { waitNext, watchInfo, watchingMessage } from './watchReport';

/** What a wait reads of its call: a cancelled call also sends Ctrl+C when settings.cancelInterrupts says so. */
type WaitContext = Pick<CallContext, 'signal' | 'onProgress' | 'servers' | 'logger' | 'deadline' | 'now' | 'settings'>;

/** What this wait adds to the call: the watch cycle its caller last saw, and what every result of it carries. */
export interface AwaitDetails {
  /** A later watch cycle ends a completion wait (status watching). */
  readonly afterCycle?: number;
  /** The safety check's decision, so the model and the person see why it ran. */
  readonly safety?: ResultDetails['safety'];
  /** terminal_run: the terminal's earlier run ended unreported. */
  readonly previous?: ResultDetails['previous'];
}

/** A wait in progress: its call, and what every result of it carries. */
interface Waiting {
  readonly call: WaitContext;
  readonly afterCycle: number;
  readonly details: Pick<ResultDetails, 'safety' | 'previous'>;
}

/** How a wait ended, whatever the mode. */
type Outcome =
  | { readonly kind: 'completed' | 'waiting_for_input' | 'terminal_closed' | 'ended' | 'cancelled' | 'disposed' | 'watching' }
  /** `deadline`: the client's deadline came first (not the call's own timeout). */
  | { readonly kind: 'timeout' | 'deadline'; readonly waitedMs: number; readonly seen?: ReadySeen }
  | { readonly kind: 'ready'; readonly info: NonNullable<ResultDetails['ready']> };

/** A background run gets this long to fail at once (a typo, a port taken) before the call returns. */
const BACKGROUND_GLANCE_MS = 300;
/**
 * How long a background call waits, at most, for the shell to report that it took the line (a
 * fresh shell under load still reading its rc files): "running" before that is not durable, since a
 * crash of the window then takes the terminal, and the line no shell read, with it.
 */
const BACKGROUND_TAKEN_MS = 5000;
/** After Ctrl+C for a call its client gave up on (opt-in): how long the shell gets to report the end. */
const CANCEL_WAIT_MS = 3000;
/** Before a Ctrl+C: how long a shell still reading its rc files gets to take the command's line. */
const LINE_TAKEN_WAIT_MS = 3000;
const PROGRESS_INTERVAL_MS = 1000;

export async function awaitRun({ session, run }: StartedRun, how: WaitHow, call: WaitContext, details: AwaitDetails = {}): Promise<TerminalRunResult> {
  const { afterCycle = 0, ...carried } = details;
  const waiting: Waiting = { call, afterCycle, details: carried };
  const progress = call.onProgress ? reportProgress(run, call.onProgress, call.logger) : undefined;
  try {
    return await report(session, run, how, await waitOn(run, how, waiting), waiting);
  } finally {
    progress?.dispose();
  }
}

/** The run as it stands, reported without waiting (terminal_state without wait). */
export function reportNow(run: CommandRun): Promise<TerminalRunResult> {
  if (run.watching) return watchingResult(run);
  // A watcher in the middle of its next cycle: still its last completed one.
  return runResult(run, run.state.kind, run.watchCycle && run.active ? { watch: watchInfo(run.terminalName, run.watchCycle), nextCall: waitNext(run.terminalName) } : {});
}

async function waitOn(run: CommandRun, how: WaitHow, { call, afterCycle }: Waiting): Promise<Outcome> {
  const { signal, deadline } = call;
  const started = call.now();
  // The shorter of the call's own timeout and what is left before the client's deadline.
  const bound = (timeoutMs: number): { ms: number; byDeadline: boolean } => {
    const left = deadline ? Math.max(0, deadline.returnBy - started) : Number.POSITIVE_INFINITY;
    return left < timeoutMs ? { ms: left, byDeadline: true } : { ms: timeoutMs, byDeadline: false };
  };
  const waited = (): number => Math.round(call.now() - started);
  switch (how.mode) {
    case 'completion': {
      const { ms, byDeadline } = bound(how.timeoutMs);
      const kind = await run.wait({ timeoutMs: ms, afterCycle, ...(signal ? { signal } : {}) });
      return kind === 'timeout' ? { kind: byDeadline ? 'deadline' : 'timeout', waitedMs: waited() } : { kind };
    }
    case 'background': {
      const glance = await run.wait({ timeoutMs: BACKGROUND_GLANCE_MS, ...(signal ? { signal } : {}) });
      // ownExecutionSeen is true at once where nothing reports executions (no shell integration).
      const left = started + bound(BACKGROUND_TAKEN_MS).ms - call.now();
      const kind = glance === 'timeout' && !run.ownExecutionSeen && left > 0 ? await untilLineTaken(run, left, signal) : glance;
      return kind === 'timeout' ? { kind, waitedMs: waited() } : { kind };
    }
    case 'ready': {
      // The second place a call enters servers/ (the first is the plan).
      const { ms, byDeadline } = bound(how.timeoutMs);
      const outcome = await call.servers.waitReady(run, {
        timeoutMs: ms,
        ...(signal ? { signal } : {}),
        ...(how.readyPattern !== undefined ? { readyPattern: new RegExp(how.readyPattern) } : {}),
      });
      return outcome.kind === 'timeout' ? { kind: byDeadline ? 'deadline' : 'timeout', waitedMs: waited(), seen: outcome.seen } : outcome;
    }
  }
}

/**
 * A run's wait, up to `ms`, for the shell to take its line (a background call's, a Ctrl+C's):
 * `timeout` once it did (or at the bound), or how the run ended first. The wait and the listener end together.
 */
async function untilLineTaken(run: CommandRun, ms: number, signal: AbortSignal | undefined): Promise<WaitOutcome> {
  const taken = new AbortController();
  const stop = (): void => taken.abort();
  const seen = run.onDidSeeOwnExecution(stop);
  signal?.addEventListener('abort', stop);
  try {
    const kind = await run.wait({ timeoutMs: ms, signal: taken.signal });
    // Cancelled by the line taken, not by the call: the glance's answer stands.
    return kind === 'cancelled' && !signal?.aborted ? 'timeout' : kind;
  } finally {
    seen.dispose();
    signal?.removeEventListener('abort', stop);
  }
}

async function report(session: TerminalSession, run: CommandRun, how: WaitHow, outcome: Outcome, waiting: Waiting): Promise<TerminalRunResult> {
  const name = session.name;
  const { call, details } = waiting;
  switch (outcome.kind) {
    case 'disposed':
      throw windowClosingError(name, run.command);
    case 'cancelled':
      return call.settings.cancelInterrupts
        ? interrupt(session, run, details)
        : runResult(run, 'cancelled', { ...details, note: cancelledKeepMessage(name, run.active), nextCall: waitNext(name) });
    case 'ready':
      return runResult(run, 'running', { ...details, note: readyMessage(name, outcome.info), ready: outcome.info });
    case 'watching':
      return watchingResult(run, details);
    case 'deadline':
    case 'timeout': {
      if (how.mode === 'background') return withPortConflict(run, waiting);
      // An idle watcher that saw no new cycle: its last one, and how long nothing changed.
      if (run.watching) return watchingResult(run, details, outcome.waitedMs);
      const note =
        outcome.kind === 'deadline'
          ? deadlineMessage(name, run.durationMs, call.deadline!.deadlineMs, call.deadline!.source)
          : outcome.seen && how.mode === 'ready'
            ? notReadyMessage(name, how.timeoutMs, outcome.seen)
            : timeoutMessage(name, how.timeoutMs);
      return runResult(run, outcome.kind === 'deadline' ? 'running' : 'timeout', { ...details, note, nextCall: waitNext(name) });
    }
    case 'waiting_for_input':
      // jest --watch reads keys once its cycle is done: a watcher, not a question.
      if (run.cycles > waiting.afterCycle) return watchingResult(run, details);
      return runResult(run, 'waiting_for_input', details);
    default:
      // completed, terminal_closed, or (ready mode) ended before it was ready.
      return withPortConflict(run, waiting);
  }
}

/** Status watching: the last cycle, and what to call next. */
function watchingResult(run: CommandRun, details: ResultDetails = {}, quietForMs?: number): Promise<TerminalRunResult> {
  const watch = watchInfo(run.terminalName, run.watchCycle!);
  return runResult(run, 'watching', { ...details, watch, note: watchingMessage(run.terminalName, watch, quietForMs), nextCall: waitNext(run.terminalName) });
}

/** The run as it stands; a command that failed because a port was taken also says who holds the port. */
async function withPortConflict(run: CommandRun, { call, details }: Waiting): Promise<TerminalRunResult> {
  const result = await runResult(run, run.state.kind, details);
  if (result.status !== 'completed' || result.exitCode === 0) return result;
  const portConflict = await call.servers.portConflict(result.output, run.command);
  return portConflict ? runResult(run, result.status, { ...details, portConflict }) : result;
}

/** Opt-in: Ctrl+C for a run whose caller gave up, then a bounded wait for the shell to report the end. */
/**
 * Before a Ctrl+C to a run: a bounded wait for the shell to take its line. A Ctrl+C that comes
 * first goes to the shell, not the command: bash then cancels the line (an end with no exit code)
 * or starts the job regardless (it runs on). Resolves false when the window closes meanwhile.
 */
export async function lineTakenBeforeInterrupt(run: CommandRun): Promise<boolean> {
  return !run.active || run.ownExecutionSeen || (await untilLineTaken(run, LINE_TAKEN_WAIT_MS, undefined)) !== 'disposed';
}

async function interrupt(session: TerminalSession, run: CommandRun, details: ResultDetails): Promise<TerminalRunResult> {
  // A call cancelled right after its start.
  if (!(await lineTakenBeforeInterrupt(run))) throw windowClosingError(session.name, run.command);
  if (run.active && !session.closed) {
    session.interrupt();
    if ((await run.wait({ timeoutMs: CANCEL_WAIT_MS, stopAtInput: false })) === 'disposed') {
      throw windowClosingError(session.name, run.command);
    }
  }
  return runResult(run, 'cancelled', { ...details, note: cancelledMessage(session.name, run.active, CANCEL_WAIT_MS) });
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
