/**
 * The command line a terminal is actually sent for a run, per shell and strategy:
 *
 * - A command with line breaks (several commands, a heredoc, a multi-line `( … )`) is written to
 *   a private temp file that the shell sources: one command line, so shell integration reports
 *   one execution with the whole output and the exit code of the last command, while `cd` and
 *   variables still change the terminal's shell (microsoft/vscode#250764: typed as is, each line
 *   is its own execution, or none at all).
 * - sh-family shells with our integration have no pre-execution hook, so the line prints the C
 *   mark itself before the command runs; the command goes through `eval` so that even a syntax
 *   error is reported after C, with its message and exit code.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { StrategyName } from '../../../../common/src/protocol';
import type { Disposable } from '../events';
import { fishQuote } from './integration/integrationLaunch';
import type { ShellKind } from './shellKind';

export interface PreparedCommand extends Disposable {
  /** What executeCommand sends. */
  readonly line: string;
}

const posixQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
const pwshQuote = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** True when the command must be sourced from a file to run as one execution. */
export function needsScriptFile(command: string): boolean {
  return /[\r\n]/.test(command.replace(/[\r\n]+$/, ''));
}

/** The line that sources `file` in the shell (with the C mark first where the shell has no hook). */
export function sourceLine(kind: ShellKind, strategy: StrategyName, file: string): string {
  switch (kind) {
    case 'fish':
      return `source ${fishQuote(file)}`;
    case 'pwsh':
      return `. ${pwshQuote(file)}`;
    case 'sh':
      return strategy === 'shepherd' ? `__tshep_c; . ${posixQuote(file)}` : `. ${posixQuote(file)}`;
    default:
      return `. ${posixQuote(file)}`;
  }
}

/** The line for a single-line command. */
export function singleLine(kind: ShellKind, strategy: StrategyName, command: string): string {
  return kind === 'sh' && strategy === 'shepherd' ? `__tshep_c; eval ${posixQuote(command)}` : command;
}

/** Writes a multi-line command to a file under `runsDir` (removed on dispose) or returns the line as is. */
export async function prepareCommand(command: string, kind: ShellKind, strategy: StrategyName, runsDir: string | undefined): Promise<PreparedCommand> {
  const trimmed = command.replace(/[\r\n]+$/, '');
  if (!needsScriptFile(trimmed) || runsDir === undefined) {
    return { line: singleLine(kind, strategy, trimmed), dispose: () => undefined };
  }
  const extension = kind === 'pwsh' ? '.ps1' : kind === 'fish' ? '.fish' : '.sh';
  const file = path.join(runsDir, `cmd-${randomBytes(6).toString('hex')}${extension}`);
  await fs.writeFile(file, `${trimmed.replace(/\r\n?/g, '\n')}\n`, { mode: 0o600 });
  return {
    line: sourceLine(kind, strategy, file),
    dispose: () => void fs.rm(file, { force: true }).catch(() => undefined),
  };
}
