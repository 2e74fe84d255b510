/**
 * The line a sandboxed command is typed as: the sandbox runtime's launcher (sandboxRunner.ts) run
 * by the extension host's own Node (VS Code runs its copy of the runtime with its own executable
 * the same way), given the policy file and the command with its `cd`, as VS Code's terminal
 * sandbox does (`cd '<cwd>' && <command>` inside, so a `cd` or `export` there ends with it).
 */
import { posixQuote, pwshQuote } from '../terminals/shellCommands';
import type { ShellKind } from '../terminals/shellKind';

export interface RunnerCommand {
  /** The Node that runs the launcher (the extension host's; ELECTRON_RUN_AS_NODE makes an Electron host one). */
  readonly execPath: string;
  /** dist/sandboxRunner.mjs. */
  readonly runnerPath: string;
}

/** fish keeps a backslash inside single quotes only when doubled. */
const fishQuote = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The command as the sandbox's shell (bash) runs it; PowerShell's own syntax runs in a sandboxed pwsh, the terminal's own when its path is known (it need not be on PATH). */
export function innerCommand(command: string, cwd: string | undefined, kind: ShellKind, shellPath?: string): string {
  const body = kind === 'pwsh' ? `${shellPath ? posixQuote(shellPath) : 'pwsh'} -NoLogo -NoProfile -Command ${posixQuote(command)}` : command;
  return cwd ? `cd ${posixQuote(cwd)} && ${body}` : body;
}

export function sandboxedLine(runner: RunnerCommand, policyPath: string, command: string, cwd: string | undefined, kind: ShellKind, shellPath?: string): string {
  const quote = kind === 'pwsh' ? pwshQuote : kind === 'fish' ? fishQuote : posixQuote;
  const words = [runner.execPath, runner.runnerPath, policyPath, innerCommand(command, cwd, kind, shellPath)].map(quote);
  // `env` is a program in every shell, so one spelling sets the variable for bash, zsh, fish, sh and pwsh alike.
  return `env ELECTRON_RUN_AS_NODE=1 ${words.join(' ')}`;
}
