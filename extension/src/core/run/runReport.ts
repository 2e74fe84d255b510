/**
 * Everything a user or an agent reads about a run, in one place: the result of a run as a tool
 * reports it, the status texts with their next step, and every expected failure of the terminal
 * tools (busy, not found, closed, nothing running, no shell integration, bad cwd), each saying
 * what to do next.
 */
import { formatDuration } from '../../../../common/src/format';
import type { RunStatus, TerminalRunResult } from '../../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../errors';
import type { CommandRun } from './commandRun';

/** The status a tool reports for a run as it stands (a run that is not active has ended). */
export function statusOf(run: CommandRun): RunStatus {
  return run.state.kind;
}

/** The exit code of an ended run, when the shell reported one. */
export function exitCodeOf(run: CommandRun): number | undefined {
  const state = run.state;
  return state.kind === 'completed' || state.kind === 'terminal_closed' ? state.exitCode : undefined;
}

/**
 * The tool result for a run, reported with `status` (which may differ from the run's own state:
 * `timeout`, `running` in background mode, `cancelled`). `message` replaces the status's own
 * next step.
 */
export async function runResult(run: CommandRun, status: RunStatus, message?: string): Promise<TerminalRunResult> {
  const snap = await run.outputSnapshot();
  const exitCode = exitCodeOf(run);
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
  }
  const state = run.state;
  if (status === 'waiting_for_input' && state.kind === 'waiting_for_input') {
    result.prompt = state.prompt;
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
  const nested = status === 'waiting_for_input' ? nestedSession(run.foregroundCommand) : undefined;
  const note =
    message ??
    (state.kind === 'completed' && state.endedEarly
      ? endedEarlyMessage(run.terminalName)
      : nested
        ? nestedSessionMessage(run.terminalName, nested)
        : statusMessage(run.terminalName, status, exitCode));
  if (note) {
    result.message = note;
  }
  return result;
}

/** The next step for a status that is not final (structured clients read only this), or a caveat. */
function statusMessage(terminal: string, status: RunStatus, exitCode: number | undefined): string | undefined {
  const name = JSON.stringify(terminal);
  switch (status) {
    case 'terminal_closed':
      return `Terminal ${name} was closed (by the user or because its shell exited) before the command finished.`;
    case 'waiting_for_input':
      return `The command waits for input. Answer with terminal_input {name: ${name}, text: "..."}, or stop it with terminal_input {name: ${name}, text: "\\u0003"}.`;
    case 'running':
      return `It keeps running. Check on it with terminal_state {name: ${name}} (wait: true blocks until it ends), stop it with terminal_input {name: ${name}, text: "\\u0003"}.`;
    case 'completed':
      return exitCode === undefined
        ? 'The shell did not report an exit code (the command was interrupted, or the shell integration script did not report it).'
        : undefined;
    default:
      return undefined;
  }
}

/** The program name when the foreground job is a shell or remote session of its own (no shell integration inside). */
export function nestedSession(foregroundCommand: string | undefined): string | undefined {
  const program = foregroundCommand?.trim().split(/\s+/)[0]?.split('/').pop()?.replace(/^-/, '');
  return program && /^((ba|z|fi|da|k|mk|tc|c|a)?sh|ssh|mosh|telnet|docker|podman|kubectl|su|sudo|nsenter|chroot|tmux|screen)$/.test(program) ? program : undefined;
}

/** What an agent can and cannot know inside a nested shell or remote session, and what to do. */
export function nestedSessionMessage(terminal: string, program: string): string {
  const name = JSON.stringify(terminal);
  return (
    `\`${program}\` waits for input: a shell or session of its own, where Terminal Shepherd's shell integration does not reach. ` +
    'Commands typed there with terminal_input return when their output goes quiet at a prompt, without an exit code (none is invented). ' +
    `Type \`exit\` (terminal_input {name: ${name}, text: "exit"}) to leave it; the run then completes with its exit code. ` +
    'To run a command remotely with an exit code, pass it as an argument (ssh host \'cmd\', docker exec ctr cmd).'
  );
}

/** The shell integration reported the end while the command still ran (a program printed an end marker). */
export function endedEarlyMessage(terminal: string): string {
  return (
    `The shell integration reported this command's end while it was still running (most likely the program printed an end marker, ESC ] 633 ; D, of its own), ` +
    `so output after that point is missing here (terminal "${terminal}" shows it) and the exit code is unknown. ` +
    'To capture everything, filter escape sequences out of the output (for example `... | cat -v`), or run it in a terminal with the setting terminalShepherd.terminal.strategy "pseudoterminal".'
  );
}

export function timeoutMessage(terminal: string, timeoutMs: number): string {
  return (
    `Still running after ${formatDuration(timeoutMs)}; the command keeps running in terminal "${terminal}". ` +
    `Wait more with terminal_state {name: "${terminal}", wait: true}, or stop it with terminal_input {name: "${terminal}", text: "\\u0003"}.`
  );
}

export function cancelledMessage(terminal: string, stillRunning: boolean, waitedMs: number): string {
  const still = stillRunning
    ? ` The command did not stop within ${formatDuration(waitedMs)} of Ctrl+C and may still be running; check with terminal_state.`
    : '';
  return `Cancelled by the client: Ctrl+C was sent to terminal "${terminal}".${still}`;
}

/** How a finished run ended, for sentences such as "its last command `x` has completed with exit code 2". */
function describeEnd(run: CommandRun): string {
  const state = run.state;
  if (state.kind === 'completed') {
    return state.exitCode === undefined ? 'completed' : `completed with exit code ${state.exitCode}`;
  }
  return state.kind === 'terminal_closed' ? 'ended with the terminal' : state.kind.replace(/_/g, ' ');
}

// ---- why a terminal is busy (the `what` of busyError) -----------------------------------------

export const busyReasons = {
  starting: 'another call is starting a command there right now',
  run: (run: CommandRun): string =>
    `\`${run.command}\` ${run.state.kind === 'waiting_for_input' ? 'is waiting for input' : 'is running'} (started ${formatDuration(run.durationMs)} ago)`,
  typed: (commandLine: string): string => `\`${commandLine}\` is running (typed in the terminal, not started by Terminal Shepherd)`,
  foreground: (command: string | undefined): string => `${command ? `\`${command}\`` : 'a program'} holds the terminal's foreground`,
} as const;

// ---- expected failures ------------------------------------------------------------------------

export function busyError(terminal: string, what: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalBusy,
    `Terminal "${terminal}" is busy: ${what}. Use another name (for example "${terminal}-2"), ` +
      `wait for it with terminal_state {name: "${terminal}", wait: true}, or stop it with terminal_input {name: "${terminal}", text: "\\u0003"}.`,
  );
}

export function cancelledBeforeStartError(): ShepherdError {
  return new ShepherdError(BridgeErrorCode.Cancelled, 'The call was cancelled before the command was sent; nothing was started.');
}

export function terminalNotFoundError(terminal: string, known: readonly string[]): ShepherdError {
  const hint = known.length > 0 ? `Managed terminals: ${known.map((n) => `"${n}"`).join(', ')}.` : 'No managed terminal exists yet.';
  return new ShepherdError(BridgeErrorCode.TerminalNotFound, `No terminal named "${terminal}". ${hint} terminal_run creates a terminal for a new name.`);
}

export function noRunYetError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.NoActiveRun,
    `Terminal "${terminal}" has not run a command yet. Start one with terminal_run {name: "${terminal}", command}.`,
  );
}

export function nothingRunningError(terminal: string, lastRun: CommandRun | undefined): ShepherdError {
  const last = lastRun ? ` (its last command \`${lastRun.command}\` has ${describeEnd(lastRun)})` : '';
  return new ShepherdError(
    BridgeErrorCode.NoActiveRun,
    `Nothing is running in terminal "${terminal}"${last}, so there is no prompt to answer. To run a command use terminal_run.`,
  );
}

export function keySentWithoutRunError(terminal: string): ShepherdError {
  return new ShepherdError(BridgeErrorCode.NoActiveRun, `Sent the key to terminal "${terminal}", which has not run a command yet.`);
}

export function terminalClosedError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalClosed,
    `Terminal "${terminal}" was closed. Start a new one with terminal_run {name: "${terminal}", command}.`,
  );
}

export function closedAtStartError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalClosed,
    `Terminal "${terminal}" closed right after it started; check the shell setting terminalShepherd.terminal.shellPath.`,
  );
}

export function noStrategyError(terminal: string, shell: string, failures: readonly string[]): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.ShellIntegrationUnavailable,
    `Terminal "${terminal}" could not be opened in a way that shows when commands end (shell ${shell}): ${failures.join('; ')}. ` +
      'Choose another shell with terminalShepherd.terminal.shellPath, or set terminalShepherd.terminal.strategy to "pseudoterminal", then retry.',
  );
}

export function changeDirectoryError(terminal: string, cwd: string, outcome: string, result: TerminalRunResult): ShepherdError {
  const code = result.exitCode !== undefined ? `, exit code ${result.exitCode}` : '';
  return new ShepherdError(
    BridgeErrorCode.InvalidInput,
    `Could not change terminal "${terminal}" to cwd "${cwd}" (${outcome}${code}): ${result.output.trim() || 'no output'}`,
  );
}

export function relativeCwdError(cwd: string): ShepherdError {
  return new ShepherdError(BridgeErrorCode.InvalidInput, `cwd "${cwd}" is relative but no workspace folder is open; give an absolute path.`);
}

export function cwdNotADirectoryError(cwd: string, resolved: string, exists: boolean): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.InvalidInput,
    `cwd "${cwd}" (${resolved}) ${exists ? 'is not a directory' : 'does not exist'}. Give an existing directory, absolute or relative to the workspace folder.`,
  );
}
