/**
 * The one place a run becomes a tool result: its status (which may differ from the run's own
 * state: `timeout`, `running` in background mode, `cancelled`), output, exit code, and one
 * message composed from notes (why it failed, what the status means, caveats), never overwritten.
 */
import type { CommandSafety, NextCall, PortConflict, PreviousRun, ReadyInfo, RunStatus, StrategyName, TerminalRunResult, WatchCycle } from '../../../../common/src/protocol';
import type { CommandRun } from '../run/commandRun';
import { exitCodeOf, exitCodeSourceOf } from '../run/runState';
import { lastNonEmptyLine } from '../run/inputPromptDetector';
import { isSensitivePrompt } from '../run/sensitivePrompts';
import { portConflictMessage } from '../servers/serverReport';
import { nestedSession } from '../terminals/shellKind';
import { endedEarlyMessage, keySentMessage, nestedSessionMessage, sensitivePromptMessage, statusMessage, unsavedOutputNote } from './runMessages';

export interface ResultDetails {
  /** What the status means here, instead of the status's own note (a timeout, ready, cancelled). */
  readonly note?: string;
  /** waitMode "ready": what showed the run ready. */
  readonly ready?: ReadyInfo;
  /** The command failed on a taken port: who holds it (its note goes first). */
  readonly portConflict?: PortConflict;
  /** The command still runs: the call that waits on. */
  readonly nextCall?: NextCall;
  /** Status watching: the watcher's last cycle. */
  readonly watch?: WatchCycle;
  /** terminal_run: the terminal's earlier run ended unreported (its note goes last). */
  readonly previous?: { readonly run: PreviousRun; readonly note: string };
  /** The safety check's decision about the command, so the model and the person see why it ran. */
  readonly safety?: CommandSafety;
}

export async function runResult(run: CommandRun, status: RunStatus, details: ResultDetails = {}): Promise<TerminalRunResult> {
  const snap = await run.outputSnapshot();
  const state = run.state;
  const exitCode = exitCodeOf(state);
  const result: TerminalRunResult = {
    status,
    output: snap.output,
    name: run.terminalName,
    command: run.command,
    durationMs: run.durationMs,
    strategy: run.strategy,
  };
  if (exitCode !== undefined && (status === 'completed' || status === 'terminal_closed' || status === 'cancelled')) {
    result.exitCode = exitCode;
    result.exitCodeSource = exitCodeSourceOf(state);
  }
  // The prompt as detected, or as the screen shows it now (an OS-detected read may come before its prompt is drawn).
  const sensitive = status === 'waiting_for_input' && state.kind === 'waiting_for_input' && (isSensitivePrompt(state.prompt) || isSensitivePrompt(lastNonEmptyLine(snap.output.split('\n'))));
  if (status === 'waiting_for_input' && state.kind === 'waiting_for_input') {
    result.prompt = state.prompt;
    if (sensitive) result.sensitive = true;
  }
  if (run.shellPid !== undefined) {
    result.pid = run.shellPid;
  }
  if (snap.truncated) {
    result.truncated = true;
  }
  if (snap.outputFile) {
    result.outputFile = snap.outputFile;
  }
  if (details.ready) {
    result.ready = details.ready;
  }
  if (details.portConflict) {
    result.portConflict = details.portConflict;
  }
  if (details.nextCall && run.active) {
    result.nextCall = details.nextCall;
  }
  if (details.watch) {
    result.watch = details.watch;
  }
  if (details.previous) {
    result.previous = details.previous.run;
  }
  if (details.safety) {
    result.safety = details.safety;
  }
  const nested = status === 'waiting_for_input' ? nestedSession(run.foregroundCommand) : undefined;
  const notes = [
    details.portConflict && portConflictMessage(details.portConflict),
    details.note ??
      (state.kind === 'completed' && state.endedEarly
        ? endedEarlyMessage(run.terminalName)
        : sensitive
          ? sensitivePromptMessage(run.terminalName)
          : nested
            ? nestedSessionMessage(run.terminalName, nested)
            : statusMessage(run.terminalName, state, status, exitCode)),
    snap.truncated && snap.outputFileError !== undefined ? unsavedOutputNote(snap.outputFileError) : undefined,
    details.previous?.note,
  ].filter((note): note is string => typeof note === 'string' && note.length > 0);
  if (notes.length > 0) {
    result.message = notes.join(' ');
  }
  return result;
}

/** terminal_input sent a key to a terminal where no run of ours ever started: the key went in, there is nothing to wait on. */
export function keySentResult(terminal: string, strategy: StrategyName): TerminalRunResult {
  return { status: 'completed', output: '', name: terminal, durationMs: 0, strategy, message: keySentMessage(terminal) };
}
