/**
 * Every expected failure of the tool calls, one factory each (the model: vscode-js-debug's
 * src/dap/errors.ts). Each message says what happened and what to do next; factories take plain
 * values, so any floor can raise them without importing the one that knows the details.
 */
import { formatDuration } from '../../../common/src/format';
import { BridgeErrorCode } from '../../../common/src/protocol';
import { quoteName, stopCall, waitCall } from './nextSteps';

/**
 * An expected failure with a named code and a message that says what to do next. The bridge turns
 * it into a ResponseError with the same code; the MCP server into an isError tool result.
 */
export class ShepherdError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ShepherdError';
  }
}

export { BridgeErrorCode };

// ---- the call itself --------------------------------------------------------------------------

export function noAgentSessionError(client: string | undefined): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.InvalidInput,
    `${client ? `The client "${client}"` : 'This client'} names no agent session (no conversation or session id in the call or the server's environment), ` +
      'so nothing can be told apart as this session\'s. Call again without session (or with session "all") to see everything.',
  );
}

export function workspaceUntrustedError(): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.WorkspaceUntrusted,
    'This workspace is not trusted in VS Code, so Terminal Shepherd runs no commands in it. ' +
      'Ask the user to trust the folder (command "Workspaces: Manage Workspace Trust") and retry.',
  );
}

export function cancelledBeforeStartError(): ShepherdError {
  return new ShepherdError(BridgeErrorCode.Cancelled, 'The call was cancelled before the command was sent; nothing was started.');
}

export function readyPatternModeError(waitMode: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.InvalidInput,
    `readyPattern applies to waitMode "ready" only, not "${waitMode}". Use waitMode "ready" (or leave waitMode out), or drop readyPattern.`,
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

export function windowClosingError(terminal: string, command: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.WindowClosing,
    `The VS Code window is closing or reloading, so the wait on \`${command}\` in terminal ${quoteName(terminal)} ended; the terminal closes with the window. ` +
      'Once the window is back, check with terminal_list and list_processes, and run the command again if it is still needed.',
  );
}

// ---- terminals --------------------------------------------------------------------------------

/** Why a terminal is busy: the `what` of busyError. */
export const busyReasons = {
  starting: 'another call is starting a command there right now',
  run: (command: string, waiting: boolean, runningForMs: number): string =>
    `\`${command}\` ${waiting ? 'is waiting for input' : 'is running'} (started ${formatDuration(runningForMs)} ago)`,
  typed: (commandLine: string): string => `\`${commandLine}\` is running (typed in the terminal, not started by Terminal Shepherd)`,
  foreground: (command: string | undefined): string => `${command ? `\`${command}\`` : 'a program'} holds the terminal's foreground`,
} as const;

export function busyError(terminal: string, what: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalBusy,
    `Terminal ${quoteName(terminal)} is busy: ${what}. Use another name (for example ${quoteName(`${terminal}-2`)}), ` +
      `wait for it with ${waitCall(terminal)}, or stop it with ${stopCall(terminal)}.`,
  );
}

export function terminalNotFoundError(terminal: string, known: readonly string[]): ShepherdError {
  const hint = known.length > 0 ? `Managed terminals: ${known.map(quoteName).join(', ')}.` : 'No managed terminal exists yet.';
  return new ShepherdError(BridgeErrorCode.TerminalNotFound, `No terminal named ${quoteName(terminal)}. ${hint} terminal_run creates a terminal for a new name.`);
}

export function noRunYetError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.NoActiveRun,
    `Terminal ${quoteName(terminal)} has not run a command yet. Start one with terminal_run {name: ${quoteName(terminal)}, command}.`,
  );
}

/** `last`: the terminal's last command and how it ended ("completed with exit code 2"). */
export function nothingRunningError(terminal: string, last?: { readonly command: string; readonly end: string }): ShepherdError {
  const lastRun = last ? ` (its last command \`${last.command}\` has ${last.end})` : '';
  return new ShepherdError(
    BridgeErrorCode.NoActiveRun,
    `Nothing is running in terminal ${quoteName(terminal)}${lastRun}, so there is no prompt to answer. To run a command use terminal_run.`,
  );
}

/** terminal_input into a prompt that asks for a secret: the person types it in the terminal; the model may only cancel. */
export function sensitivePromptError(terminal: string, prompt: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.SensitivePrompt,
    `The command in terminal ${quoteName(terminal)} asks for a secret (${JSON.stringify(prompt.trim())}), so Terminal Shepherd types nothing into it: ` +
      'secrets must not pass through the model. Tell the user to type it in the terminal themselves (it is shown in VS Code), then wait with ' +
      `${waitCall(terminal)}; or cancel the command with terminal_input {name: ${quoteName(terminal)}, text: "\u0003"}.`,
  );
}

export function terminalClosedError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalClosed,
    `Terminal ${quoteName(terminal)} was closed. Start a new one with terminal_run {name: ${quoteName(terminal)}, command}.`,
  );
}

export function closedAtStartError(terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalClosed,
    `Terminal ${quoteName(terminal)} closed right after it started; check the shell setting terminalShepherd.terminal.shellPath.`,
  );
}

export function noStrategyError(terminal: string, shell: string, failures: readonly string[]): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.ShellIntegrationUnavailable,
    `Terminal ${quoteName(terminal)} could not be opened in a way that shows when commands end (shell ${shell}): ${failures.join('; ')}. ` +
      'Choose another shell with terminalShepherd.terminal.shellPath, or set terminalShepherd.terminal.strategy to "pseudoterminal", then retry.',
  );
}

/** `how`: the cd's outcome with its exit code ("completed, exit code 1"); `output`: what it printed. */
export function changeDirectoryError(terminal: string, cwd: string, how: string, output: string): ShepherdError {
  return new ShepherdError(BridgeErrorCode.InvalidInput, `Could not change terminal ${quoteName(terminal)} to cwd "${cwd}" (${how}): ${output.trim() || 'no output'}`);
}

// ---- dev servers ------------------------------------------------------------------------------

export function restartFailedError(command: string, terminal: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalBusy,
    `Could not stop \`${command}\` in terminal ${quoteName(terminal)} for the restart: it still runs after its processes were killed and Ctrl+C was sent. ` +
      `Look at it with list_processes and stop it with kill_process, then retry.`,
  );
}

export function serversUnavailableError(): ShepherdError {
  return new ShepherdError(BridgeErrorCode.Internal, 'waitMode "ready" is not available in this window (dev-server support did not start; see the log).');
}

// ---- the sandbox (VS Code's messages, core/sandbox/) ------------------------------------------

/** `setting`: what turned the sandbox on (chat.agent.sandbox.enabled, or terminalShepherd.sandbox.confineAutoApproved). */
export function sandboxUnsupportedError(setting: string, platform: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.SandboxUnavailable,
    `Sandboxing is not supported in this environment (${platform}). To disable sandboxing, set \`${setting}\` to \`off\`. The command was not executed.`,
  );
}

export function sandboxDependenciesError(setting: string, missing: readonly string[]): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.SandboxUnavailable,
    `The following dependencies required for sandboxed execution are not installed: ${missing.join(', ')}. Install them using your system package manager ` +
      `(Debian/Ubuntu: \`sudo apt-get install ${missing.join(' ')}\`), then run the command again. The command was not executed. ` +
      `Ask the user to install them, or to turn \`${setting}\` off.`,
  );
}

export function sandboxNamespaceError(setting: string, detail: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.SandboxUnavailable,
    `Bubblewrap is installed but cannot create the required sandbox namespace on this system (${detail}). The command was not executed. ` +
      `Ask the user to allow unprivileged user namespaces (for example \`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\`), or to turn \`${setting}\` off.`,
  );
}

/** terminal_input would end a command at the prompt of a shell started outside the sandbox, while the sandbox is on. */
export function sandboxedInputError(terminal: string, shell: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.SandboxUnavailable,
    `The sandbox is on, and the ${shell} waiting in terminal ${quoteName(terminal)} was started outside it, so a command typed there would run unconfined. The command was not executed. ` +
      'Stop that session (terminal_input "\\u0004" or Ctrl+C) and run the command with terminal_run, which runs it in the sandbox.',
  );
}
