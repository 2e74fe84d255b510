/**
 * The notes a run's result carries: what its status means and the next step (structured clients
 * read only this), and the caveats of an honest result (ended early, a nested shell, a timeout,
 * a cancellation).
 */
import { formatDuration } from '../../../../common/src/format';
import type { RunStatus } from '../../../../common/src/protocol';
import { quoteName, stopCall, waitCall } from '../nextSteps';
import type { RunState } from '../run/runState';

/** The next step for a status that is not final, or a caveat; undefined when the result speaks for itself. */
export function statusMessage(terminal: string, state: RunState, status: RunStatus, exitCode: number | undefined): string | undefined {
  const name = quoteName(terminal);
  switch (status) {
    case 'terminal_closed':
      return terminalEndMessage(name, state);
    case 'waiting_for_input':
      return `The command waits for input. Answer with terminal_input {name: ${name}, text: "..."}, or stop it with ${stopCall(terminal)}.`;
    case 'running':
      return `It keeps running. Check on it with terminal_state {name: ${name}} (wait: true blocks until it ends), stop it with ${stopCall(terminal)}.`;
    case 'completed':
      return exitCode === undefined
        ? 'The shell did not report an exit code (the command was interrupted, or the shell integration script did not report it).'
        : undefined;
    default:
      return undefined;
  }
}

/** A prompt asks for a secret: the person types it, the model waits (or cancels). */
export function sensitivePromptMessage(terminal: string): string {
  return (
    `The command waits for sensitive input (a password, passphrase or token). The user must type it in terminal ${quoteName(terminal)} themselves; ` +
    'secrets must not pass through the model, so terminal_input refuses to type there. Tell the user, then wait with ' +
    `${waitCall(terminal)} (the run continues once they have typed it), or cancel the command with ${stopCall(terminal)}.`
  );
}

/** Under VS Code's global auto-approve nobody is asked to type a secret: the command is cancelled instead. */
export function sensitiveCancelledMessage(terminal: string): string {
  return (
    `The command asked for sensitive input in terminal ${quoteName(terminal)} while VS Code's global auto-approve (chat.tools.global.autoApprove) is on, ` +
    'so it was cancelled (Ctrl+C): a secret cannot be supplied safely without the user. Ask the user to run it themselves, or to turn auto-approve off.'
  );
}

/** What an agent can and cannot know inside a nested shell or remote session, and what to do. */
export function nestedSessionMessage(terminal: string, program: string): string {
  const name = quoteName(terminal);
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
    `so output after that point is missing here (terminal ${quoteName(terminal)} shows it) and the exit code is unknown. ` +
    'To capture everything, filter escape sequences out of the output (for example `... | cat -v`), or run it in a terminal with the setting terminalShepherd.terminal.strategy "pseudoterminal".'
  );
}

function terminalEndMessage(name: string, state: RunState): string {
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
    `Still running after ${formatDuration(timeoutMs)}; the command keeps running in terminal ${quoteName(terminal)}. ` +
    `Wait more with ${waitCall(terminal)}, or stop it with ${stopCall(terminal)}.`
  );
}

/** The client's deadline came before the command's end: the call returns, the command goes on. */
export function deadlineMessage(terminal: string, waitedMs: number, deadlineMs: number, source: string): string {
  return (
    `Still running after ${formatDuration(waitedMs)}: this call returns before the client's own ${formatDuration(deadlineMs)} limit for a tool call (${source}), ` +
    `and the command keeps running in terminal ${quoteName(terminal)}. Continue with ${waitCall(terminal)}: it waits as long again and returns as soon as ` +
    `the command ends, asks for input or is ready (no need to poll in between). Stop it with ${stopCall(terminal)}.`
  );
}

/** Opt-in (run.cancelInterrupts): the client cancelled and Ctrl+C was sent. */
export function cancelledMessage(terminal: string, stillRunning: boolean, waitedMs: number): string {
  const still = stillRunning
    ? ` The command did not stop within ${formatDuration(waitedMs)} of Ctrl+C and may still be running; check with terminal_state.`
    : '';
  return `Cancelled by the client: Ctrl+C was sent to terminal ${quoteName(terminal)} (setting terminalShepherd.run.cancelInterrupts).${still}`;
}

/** The client cancelled: the waiting stopped, never the command. */
export function cancelledKeepMessage(terminal: string, stillRunning: boolean): string {
  return stillRunning
    ? `The client cancelled the call: Terminal Shepherd stopped waiting, and the command keeps running in terminal ${quoteName(terminal)} (a cancel never stops it). ` +
        `Check on it with ${waitCall(terminal)}; stop it with ${stopCall(terminal)} or kill_process.`
    : `The client cancelled the call after the command had ended in terminal ${quoteName(terminal)}.`;
}

/** terminal_run: the terminal's earlier command ended while no call waited on it. */
export function previousRunNote(terminal: string, command: string, end: string): string {
  return `Before this command, \`${command}\` in terminal ${quoteName(terminal)} ${end} while no call was waiting on it (its output tail is in \`previous\`).`;
}

/** terminal_input: a key sent to a terminal that never ran a command of ours. */
export function keySentMessage(terminal: string): string {
  return `Sent the key to terminal ${quoteName(terminal)}, which has not run a command yet: nothing of Terminal Shepherd's runs there to wait on.`;
}

/** The full output of a truncated result could not be written to its log file. */
export function unsavedOutputNote(reason: string): string {
  return `The full output could not be saved under .devtools/logs (${reason}); only its head and tail are here.`;
}
