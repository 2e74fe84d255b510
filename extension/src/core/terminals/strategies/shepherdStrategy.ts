/**
 * Terminal Shepherd's own shell integration (bash, zsh, fish and the sh family), emitting VS
 * Code's sequences where VS Code's did not activate.
 *
 * - VS Code cannot trust the command line the shell reports (it has no nonce of VS Code's), so it
 *   reads the line from the screen and pairs it with executeCommand's execution only if they are
 *   equal; a line that wraps or has a right prompt after it becomes another execution whose first
 *   output is lost. Long lines are therefore sourced from a file, so what is typed stays short.
 * - sh-family shells have no pre-execution hook, so the line prints the C mark itself before the
 *   command runs; the command goes through `eval` so that even a syntax error is reported after C,
 *   with its message and exit code.
 * - PowerShell likewise (C without PSReadLine): `__TshepC` also clears $LASTEXITCODE for the
 *   ladder our prompt reports (shell/pwsh.ps1); the command is always a file, which records its
 *   own `$?` for the prompt.
 */
import { hasLineBreaks, LONG_LINE_CHARS, plainSourceLine, prepareCommand, type CommandLines } from '../commandText';
import { shepherdLaunch } from '../integration/integrationLaunch';
import { posixQuote } from '../shellCommands';
import type { ShellKind } from '../shellKind';
import { baseTerminalOptions, filesOrFailure, openIntegratedTerminal, type ExecutionStrategy } from './executionStrategy';

/** The integration's function that prints the C mark, for shells without a pre-execution hook we use. */
const C_MARK: Partial<Record<ShellKind, string>> = { sh: '__tshep_c', pwsh: '__TshepC' };

export const shepherdCommandLines: CommandLines = {
  needsScriptFile: (command) => hasLineBreaks(command) || command.length > LONG_LINE_CHARS,
  typedLine: (kind, command) => (kind === 'sh' ? `${C_MARK.sh}; eval ${posixQuote(command)}` : kind === 'pwsh' ? `${C_MARK.pwsh}; ${command}` : command),
  sourceLine: (kind, name) => (C_MARK[kind] !== undefined ? `${C_MARK[kind]}; ${plainSourceLine(kind, name)}` : plainSourceLine(kind, name)),
  // PowerShell: the file records the command's own $? for our prompt (shell/pwsh.ps1); after `. file`
  // $? is true even when its last cmdlet failed.
  fileText: (kind, command) => (kind === 'pwsh' ? `${command}\n$global:__TshepFileOk = $?\n` : `${command}\n`),
};

export const shepherdStrategy: ExecutionStrategy = {
  name: 'shepherd',
  stripsPromptAndEcho: true,
  ownsProcesses: false,
  lateExecutions: false,
  async open(request, context) {
    const files = await filesOrFailure(context, 'its scripts could not be written');
    if ('failure' in files) return files;
    const { shell } = request;
    const launch = shepherdLaunch(shell.kind, files, process.env, process.platform, request.marks);
    if (!launch) return { failure: `no integration script for ${shell.name}` };
    // The shell is named explicitly so that its arguments apply to it, not to the default profile.
    const options = {
      ...baseTerminalOptions(request, context.host),
      shellPath: shell.path ?? shell.name,
      ...(launch.shellArgs ? { shellArgs: launch.shellArgs } : {}),
      env: launch.env,
    };
    return openIntegratedTerminal(options, request, context);
  },
  prepareCommand: (command, kind, runsDir) => prepareCommand(shepherdCommandLines, command, kind, runsDir),
};
