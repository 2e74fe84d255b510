/**
 * The command line a terminal is actually sent for a run. What differs per strategy (when a file
 * is needed, what is typed) is in strategies/; the mechanism is here:
 *
 * - A command with line breaks (several commands, a heredoc, a multi-line `( … )`) is written to
 *   a private temp file that the shell sources: one command line, so shell integration reports
 *   one execution with the whole output and the exit code of the last command, while `cd` and
 *   variables still change the terminal's shell (microsoft/vscode#250764: typed as is, each line
 *   is its own execution, or none at all).
 * - The file is named through $TSHEP_R (the private folder, in every managed terminal's
 *   environment), so what is typed stays short.
 * - PowerShell always goes through a file: one line is typed whatever the command (PowerShell
 *   would sit at `>>` after a line that opens a block), and the exit code is read after it (the
 *   prompt of our integration, or the file itself with VS Code's: CommandLines.fileText).
 * - So does a command whose line starts with a backslash (`\ls`, `\rm -rf build`: the usual way
 *   past an alias): VS Code's command detection drops such a command when it finishes
 *   (PartialTerminalCommand.promoteToFullCommand ignores command lines starting with `\`), so no
 *   end would ever be reported for it. The line that sources the file starts otherwise.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Disposable } from '../events';
import type { ShellKind } from './shellKind';

export interface PreparedCommand extends Disposable {
  /** What executeCommand sends. */
  readonly line: string;
}

/** What a strategy decides about the line it types. */
export interface CommandLines {
  /** True when the command must be sourced from a file to run as one execution. */
  needsScriptFile(command: string, kind: ShellKind): boolean;
  /** The line for a command typed as is. */
  typedLine(kind: ShellKind, command: string): string;
  /** The line that sources file `name` of the private folder. */
  sourceLine(kind: ShellKind, name: string): string;
  /** What the file holds for `command` (default: the command itself). */
  fileText?(kind: ShellKind, command: string): string;
}

/** The variable naming the private folder of command files in managed terminals. */
export const RUNS_DIR_VARIABLE = 'TSHEP_R';
/** The variable naming shell/pwshCommon.ps1 (the exit-code ladder) in managed PowerShell terminals. */
export const PWSH_COMMON_VARIABLE = 'TSHEP_PWSH';
/** Longest line typed as is with our integration (a prompt of 40 columns fits on an 80-column screen). */
export const LONG_LINE_CHARS = 40;

/** The command without the line breaks it ends with (they would only add empty executions). */
export function trimCommand(command: string): string {
  return command.replace(/[\r\n]+$/, '');
}

/** VS Code never reports the end of a command line that starts with a backslash (see above). */
export function startsWithBackslash(command: string): boolean {
  return /^\s*\\/.test(command);
}

export function hasLineBreaks(command: string): boolean {
  return /[\r\n]/.test(trimCommand(command));
}

/**
 * A PowerShell command file that reports its own exit code, for terminals without our prompt
 * (VS Code's integration ends a command with `$?` only, D;0 or D;1; the extension-owned terminal
 * runs each file in a fresh PowerShell): the ladder of shell/pwshCommon.ps1 before and after the
 * command, the code and its source written as OSC 633 properties the run reads. `$status` holds
 * them for what the caller appends. A terminating error stops the file before the report: the
 * shell's own end (D;1, or the process's exit) then stands, as the failure it is.
 */
export function pwshReportingFileText(command: string, options: { readonly reportScreen?: boolean } = {}): string {
  return [
    `. $env:${PWSH_COMMON_VARIABLE}`,
    // In an editor's terminal, where the output starts on its screen (C came before the file ran).
    ...(options.reportScreen ? ['Write-Host -NoNewline (__TshepScreen)'] : []),
    '__TshepBefore',
    command,
    '$__tshepOk = $?',
    '$__tshepNative = $global:LASTEXITCODE',
    '$__tshepStatus = __TshepAfter -Ok $__tshepOk -Native $__tshepNative',
    'Write-Host -NoNewline (__TshepExitProperties $__tshepStatus)',
    '',
  ].join('\n');
}

/** How each shell sources a file of the private folder. */
export function plainSourceLine(kind: ShellKind, name: string): string {
  switch (kind) {
    case 'fish':
      return `source $${RUNS_DIR_VARIABLE}/${name}`;
    case 'pwsh':
      return `. "$env:${RUNS_DIR_VARIABLE}/${name}"`;
    default:
      return `. "$${RUNS_DIR_VARIABLE}/${name}"`;
  }
}

/**
 * The line for `command` as `lines` decide: typed as is, or written to a file under `runsDir`
 * (removed on dispose) and sourced. Without a private folder the command is typed as is.
 */
export async function prepareCommand(lines: CommandLines, command: string, kind: ShellKind, runsDir: string | undefined): Promise<PreparedCommand> {
  const trimmed = trimCommand(command);
  if (runsDir === undefined || !(kind === 'pwsh' || startsWithBackslash(trimmed) || lines.needsScriptFile(trimmed, kind))) {
    return { line: lines.typedLine(kind, trimmed), dispose: () => undefined };
  }
  const extension = kind === 'pwsh' ? '.ps1' : kind === 'fish' ? '.fish' : '.sh';
  const name = `c-${randomBytes(4).toString('hex')}${extension}`;
  const file = path.join(runsDir, name);
  const text = trimmed.replace(/\r\n?/g, '\n');
  await fs.writeFile(file, lines.fileText?.(kind, text) ?? `${text}\n`, { mode: 0o600 });
  return {
    line: lines.sourceLine(kind, name),
    dispose: () => void fs.rm(file, { force: true }).catch(() => undefined),
  };
}
