/**
 * The command line a terminal is actually sent for a run, per shell and strategy:
 *
 * - A command with line breaks (several commands, a heredoc, a multi-line `( … )`) is written to
 *   a private temp file that the shell sources: one command line, so shell integration reports
 *   one execution with the whole output and the exit code of the last command, while `cd` and
 *   variables still change the terminal's shell (microsoft/vscode#250764: typed as is, each line
 *   is its own execution, or none at all).
 * - With our integration VS Code cannot trust the command line the shell reports (it has no
 *   nonce of VS Code's), so it reads the line from the screen and pairs it with executeCommand's
 *   execution only if they are equal; a line that wraps or has a right prompt after it becomes
 *   another execution whose first output is lost. Long lines are therefore sourced from a file
 *   too, and the file is named through $TSHEP_R (the private folder, in every managed terminal's
 *   environment), so what is typed stays short.
 * - sh-family shells with our integration have no pre-execution hook, so the line prints the C
 *   mark itself before the command runs; the command goes through `eval` so that even a syntax
 *   error is reported after C, with its message and exit code.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { StrategyName } from '../../../../common/src/protocol';
import type { Disposable } from '../events';
import { EXIT_CODE_PROPERTY } from '../output/outputCapture';
import type { ShellKind } from './shellKind';

export interface PreparedCommand extends Disposable {
  /** What executeCommand sends. */
  readonly line: string;
}

const posixQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** The variable naming the private folder of command files in managed terminals. */
export const RUNS_DIR_VARIABLE = 'TSHEP_R';
/** Longest line typed as is with our integration (a prompt of 40 columns fits on an 80-column screen). */
export const LONG_LINE_CHARS = 40;

/** True when the command must be sourced from a file to run as one execution. */
export function needsScriptFile(command: string, strategy: StrategyName = 'vscode', kind: ShellKind = 'unknown'): boolean {
  const trimmed = command.replace(/[\r\n]+$/, '');
  if (kind === 'pwsh') return true; // the file reports $LASTEXITCODE (pwshFileText)
  return /[\r\n]/.test(trimmed) || (strategy === 'shepherd' && singleLine('unknown', strategy, trimmed).length > LONG_LINE_CHARS);
}

/**
 * PowerShell's shell integration ends a command with `$?` only (D;0 or D;1), so the real exit
 * code of a native program would be lost, and `$LASTEXITCODE` may still hold an earlier
 * program's code. The file clears it, runs the command, and reports the code itself through an
 * OSC 633 property the run reads (the same rule as the pseudoterminal's pwsh files).
 */
export function pwshFileText(command: string): string {
  return [
    '$global:LASTEXITCODE = $null',
    command,
    '$__tshepOk = $?',
    '$__tshepCode = if ($__tshepOk) { 0 } elseif ($null -ne $global:LASTEXITCODE -and $global:LASTEXITCODE -ne 0) { $global:LASTEXITCODE } else { 1 }',
    `[Console]::Write("$([char]27)]633;P;${EXIT_CODE_PROPERTY}=$__tshepCode$([char]7)")`,
    '',
  ].join('\n');
}

/** The line that sources file `name` of the private folder (with the C mark first where the shell has no hook). */
export function sourceLine(kind: ShellKind, strategy: StrategyName, name: string): string {
  switch (kind) {
    case 'fish':
      return `source $${RUNS_DIR_VARIABLE}/${name}`;
    case 'pwsh':
      return `. "$env:${RUNS_DIR_VARIABLE}/${name}"`;
    case 'sh':
      return strategy === 'shepherd' ? `__tshep_c; . "$${RUNS_DIR_VARIABLE}/${name}"` : `. "$${RUNS_DIR_VARIABLE}/${name}"`;
    default:
      return `. "$${RUNS_DIR_VARIABLE}/${name}"`;
  }
}

/** The line for a single-line command. */
export function singleLine(kind: ShellKind, strategy: StrategyName, command: string): string {
  return kind === 'sh' && strategy === 'shepherd' ? `__tshep_c; eval ${posixQuote(command)}` : command;
}

/** Writes a multi-line command to a file under `runsDir` (removed on dispose) or returns the line as is. */
export async function prepareCommand(command: string, kind: ShellKind, strategy: StrategyName, runsDir: string | undefined): Promise<PreparedCommand> {
  const trimmed = command.replace(/[\r\n]+$/, '');
  if (!needsScriptFile(trimmed, strategy, kind) || runsDir === undefined) {
    return { line: singleLine(kind, strategy, trimmed), dispose: () => undefined };
  }
  const extension = kind === 'pwsh' ? '.ps1' : kind === 'fish' ? '.fish' : '.sh';
  const name = `c-${randomBytes(4).toString('hex')}${extension}`;
  const file = path.join(runsDir, name);
  const text = trimmed.replace(/\r\n?/g, '\n');
  await fs.writeFile(file, kind === 'pwsh' ? pwshFileText(text) : `${text}\n`, { mode: 0o600 });
  return {
    line: sourceLine(kind, strategy, name),
    dispose: () => void fs.rm(file, { force: true }).catch(() => undefined),
  };
}
