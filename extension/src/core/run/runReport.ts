/**
 * Everything a user or an agent reads about a run, in one place: the result of a run as a tool
 * reports it, the status texts with their next step, and every expected failure of the terminal
 * tools (busy, not found, closed, nothing running, no shell integration, bad cwd), each saying
 * what to do next.
 */
import { formatDuration } from '../../../../common/src/format';
import type { DevServer, PortConflict, ReadyInfo, RunStatus, StrategyName, TerminalRunResult } from '../../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../errors';
import { isAcceptedStatus } from '../servers/probe';
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
  const notes = [
    message ??
      (state.kind === 'completed' && state.endedEarly
        ? endedEarlyMessage(run.terminalName)
        : nested
          ? nestedSessionMessage(run.terminalName, nested)
          : statusMessage(run, status, exitCode)),
  ];
  if (snap.truncated && snap.outputFileError !== undefined) {
    notes.push(`The full output could not be saved under .devtools/logs (${snap.outputFileError}); only its head and tail are here.`);
  }
  const note = notes.filter((n) => n !== undefined).join(' ');
  if (note) {
    result.message = note;
  }
  return result;
}

/** The next step for a status that is not final (structured clients read only this), or a caveat. */
function statusMessage(run: CommandRun, status: RunStatus, exitCode: number | undefined): string | undefined {
  const name = JSON.stringify(run.terminalName);
  switch (status) {
    case 'terminal_closed':
      return terminalEndMessage(name, run.state);
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

function terminalEndMessage(name: string, state: CommandRun['state']): string {
  const again = `terminal_run with the name ${name} starts a new terminal.`;
  switch (state.kind === 'terminal_closed' ? state.end : 'closed') {
    case 'shell_exit':
      return `The shell of terminal ${name} exited before the command finished (the exit code is the shell's). ${again}`;
    case 'user':
      return `Terminal ${name} was closed by the user before the command finished. ${again}`;
    case 'window':
      return (
        `Terminal ${name} closed because the VS Code window is closing or reloading; the command ended with it. ` +
        'Once the window is back, check with terminal_list and list_processes, and run the command again if it is still needed.'
      );
    case 'shell_gone':
      return (
        `The shell of terminal ${name} is gone (it exited or was killed) before the command finished. VS Code kept the terminal ` +
        `without reporting the shell's exit, so no exit code is given; the terminal was closed. ${again}`
      );
    case 'unreported_exit':
      return (
        `Terminal ${name} closed because its shell ended before the command finished. VS Code reported exit code 0, which it also ` +
        `reports for a shell killed by a signal, so no exit code is given. ${again}`
      );
    default:
      return `Terminal ${name} was closed before the command finished. ${again}`;
  }
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

export function windowClosingError(terminal: string, command: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.WindowClosing,
    `The VS Code window is closing or reloading, so the wait on \`${command}\` in terminal "${terminal}" ended; the terminal closes with the window. ` +
      'Once the window is back, check with terminal_list and list_processes, and run the command again if it is still needed.',
  );
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

// ---- dev servers: ready, already running, port taken (waitMode "ready" and "background") --------

/** Status running with `ready`: what answered, and how to use and stop it. */
export function readyMessage(terminal: string, info: ReadyInfo): string {
  const where = info.urls.length > 0 ? info.urls.join(', ') : info.ports.length > 0 ? `port ${info.ports.join(', ')}` : undefined;
  const how =
    info.via === 'http' && info.http
      ? `${info.http.url} answered HTTP ${info.http.status}${isAcceptedStatus(info.http.status) ? '' : ' (not a success status: the page may be broken, the server is up)'}`
      : info.via === 'tcp'
        ? `port ${info.ports.join(', ')} accepts connections${info.urls.length > 0 ? ' but gave no HTTP answer in time (it may still be compiling)' : ' (not HTTP)'}`
        : info.via === 'pattern'
          ? `the output matched readyPattern: ${JSON.stringify(info.line ?? '')}`
          : `it printed its ready line ${JSON.stringify(info.line ?? '')} and listens on no port`;
  return (
    `Ready after ${formatDuration(info.waitedMs)}: ${how}.${where && info.via !== 'tcp' ? ` Use ${where}.` : ''} ` +
    `It keeps running in terminal "${terminal}": terminal_state {name: "${terminal}"} shows its output, terminal_input {name: "${terminal}", text: "\\u0003"} stops it.`
  );
}

export interface NotReadySeen {
  readonly ports: readonly number[];
  readonly urls: readonly string[];
  readonly line?: string;
}

/** Timeout in ready mode: what was and was not seen, and that the command keeps running. */
export function notReadyMessage(terminal: string, timeoutMs: number, seen: NotReadySeen): string {
  const facts: string[] = [];
  if (seen.line !== undefined) facts.push(`it printed ${JSON.stringify(seen.line)}`);
  facts.push(seen.ports.length > 0 ? `its processes listen on ${seen.ports.join(', ')} but no probe got an answer` : 'none of its processes listens on a TCP port');
  const hint =
    seen.ports.length === 0 && seen.line !== undefined
      ? ' If it serves from elsewhere (a container) or is a watcher, pass readyPattern with the line that means ready.'
      : seen.ports.length === 0
        ? ' If it is a watcher without a port, pass readyPattern with the line that means ready.'
        : '';
  return (
    `Not ready after ${formatDuration(timeoutMs)}: ${facts.join('; ')}.${hint} The command keeps running in terminal "${terminal}": ` +
    `wait more with terminal_state {name: "${terminal}", wait: true}, look at its processes with list_processes, stop it with terminal_input {name: "${terminal}", text: "\\u0003"} or kill_process.`
  );
}

/** Status already_running: the tail of the running server's output, and what to do instead of a second copy. */
export function alreadyRunningResult(server: DevServer, tail: string, strategy: StrategyName): TerminalRunResult {
  const terminal = server.terminal ?? 'default';
  const where = server.urls.length > 0 ? ` at ${server.urls.join(', ')}` : server.ports.length > 0 ? ` on port ${server.ports.join(', ')}` : '';
  const result: TerminalRunResult = {
    status: 'already_running',
    output: tail,
    name: terminal,
    command: server.command,
    durationMs: server.uptimeMs,
    strategy,
    server,
    message:
      `Not started again: \`${server.command}\` already runs in terminal "${terminal}"${server.pid !== undefined ? ` (pid ${server.pid})` : ''}${where}, ` +
      `started ${formatDuration(server.uptimeMs)} ago${server.cwd ? ` in ${server.cwd}` : ''}. Use it as it is; ` +
      `terminal_state {name: "${terminal}"} shows its output. To replace it, call terminal_run again with restart: true ` +
      `(its process tree is killed first), or stop it with terminal_input {name: "${terminal}", text: "\\u0003"}.`,
  };
  return result;
}

/** Why a start failed on a taken port, naming who holds it and what to do. */
export function portConflictMessage(conflict: PortConflict): string {
  const port = conflict.port;
  if (conflict.holders.length === 0) {
    return `Port ${port} is taken, by a process this user cannot see (another user's, or a system service). Run it on another port, or free ${port} first.`;
  }
  const lines = conflict.holders.map((h) => {
    const who = `${h.name || 'process'} (pid ${h.pid}${h.commandLine ? `: ${h.commandLine}` : ''})`;
    switch (h.owner) {
      case 'ledger':
        return `${who} holds it, started from Terminal Shepherd terminal "${h.terminal ?? ''}". Use that server, or stop it (kill_process {pid: ${h.pid}}, or terminal_run with restart: true for the same command) and retry.`;
      case 'orphan':
        return `${who} holds it, left running by an earlier VS Code window (terminal "${h.terminal ?? ''}"). End it with kill_process {pid: ${h.pid}} (or kill_orphans) and retry.`;
      default:
        return `${who} holds it; Terminal Shepherd did not start it and will not kill it. Stop it yourself (or ask the user to), or run this on another port.`;
    }
  });
  return `Port ${port} is already in use. ${lines.join(' ')}`;
}

export function restartFailedError(server: RunningServerFacts): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalBusy,
    `Could not stop \`${server.command}\` in terminal "${server.terminal}" for the restart: it still runs after its processes were killed and Ctrl+C was sent. ` +
      `Look at it with list_processes and stop it with kill_process, then retry.`,
  );
}

export interface RunningServerFacts {
  readonly command: string;
  readonly terminal: string;
}

export function readyPatternModeError(waitMode: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.InvalidInput,
    `readyPattern applies to waitMode "ready" only, not "${waitMode}". Use waitMode "ready" (or leave waitMode out), or drop readyPattern.`,
  );
}

export function serversUnavailableError(): ShepherdError {
  return new ShepherdError(BridgeErrorCode.Internal, 'waitMode "ready" is not available in this window (dev-server support did not start; see the log).');
}
