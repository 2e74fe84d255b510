/**
 * How the extension-owned terminal runs one command (pure, so every platform's form is unit
 * tested): the command goes into a private file run by the configured shell, under `script` where
 * the OS has it so the program gets a real TTY (colours, prompts, line-buffered output, Ctrl+C as
 * SIGINT), with a trailer that records the final working directory so `cd` carries over to the
 * next command, and the shell's exit status as the run's exit code.
 */
import { pwshReportingFileText } from '../commandText';
import { posixQuote, pwshQuote } from '../shellCommands';
import type { ShellKind } from '../shellKind';

export interface PtyCommandInput {
  readonly command: string;
  readonly kind: ShellKind;
  /** The shell that runs the command file. */
  readonly shellPath: string;
  readonly file: string;
  /** Where the shell writes its final working directory. */
  readonly cwdFile: string;
  readonly cwd: string | undefined;
  readonly columns: number;
  readonly rows: number;
  readonly platform: NodeJS.Platform;
  /** util-linux or BSD `script` is on PATH. */
  readonly hasScript: boolean;
}

/** The text of the command file: terminal size, the command, then the cwd trailer keeping the exit status. */
export function commandFileText(input: PtyCommandInput): string {
  const command = input.command.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const size = input.hasScript ? `stty cols ${input.columns} rows ${input.rows} 2>/dev/null\n` : '';
  switch (input.kind) {
    case 'bash':
    case 'zsh':
    case 'sh':
      // Git Bash (MSYS) prints /c/... from pwd; the next command starts in the Windows form (pwd -W).
      return `${size}${command}\n__tshep_rc=$?; ${input.platform === 'win32' ? '{ pwd -W || pwd; }' : 'pwd'} > ${posixQuote(input.cwdFile)} 2>/dev/null; exit $__tshep_rc\n`;
    case 'fish':
      return `${size}${command}\nset -l __tshep_rc $status; pwd > ${posixQuote(input.cwdFile)} 2>/dev/null; exit $__tshep_rc\n`;
    case 'cmd':
      // UTF-8 output in this command's own console (chcp 65001), never the user's.
      return `@echo off\r\n@chcp 65001 >nul\r\n${command.replace(/\n/g, '\r\n')}\r\n@set __tshep_rc=%ERRORLEVEL%\r\n@cd > "${input.cwdFile}"\r\n@exit /b %__tshep_rc%\r\n`;
    case 'pwsh':
      // The exit code and its source reported (commandText.ts), then the cwd, then exit with the code.
      return `${pwshReportingFileText(command)}(Get-Location).Path | Set-Content -LiteralPath ${pwshQuote(input.cwdFile)}\nexit $__tshepStatus.Code\n`;
    default:
      return `${size}${command}\n`;
  }
}

/** File name extension the shell needs to run the file (cmd.exe and PowerShell go by it). */
export function commandFileExtension(kind: ShellKind): string {
  return kind === 'cmd' ? '.cmd' : kind === 'pwsh' ? '.ps1' : kind === 'fish' ? '.fish' : '.sh';
}

/** How the shell runs a command file: argv after the executable. */
export function shellFileArgs(kind: ShellKind, file: string): string[] {
  switch (kind) {
    case 'cmd':
      return ['/d', '/c', file];
    case 'pwsh':
      return ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file];
    default:
      return [file];
  }
}

/**
 * The line the keeper shell evaluates for one command (Unix): change to the cwd, then run the
 * file with the shell under `script` when available (util-linux: -q quiet, -e child's exit status,
 * -f flush every write, -c command; BSD: script -q /dev/null argv...).
 */
export function keeperRequest(input: PtyCommandInput): string {
  const argv = [input.shellPath, ...shellFileArgs(input.kind, input.file)].map(posixQuote).join(' ');
  const cd = input.cwd !== undefined ? `cd -- ${posixQuote(input.cwd)} 2>/dev/null; ` : '';
  if (!input.hasScript) {
    return `${cd}${argv}`;
  }
  if (input.platform === 'darwin' || input.platform === 'freebsd' || input.platform === 'openbsd') {
    return `${cd}script -q /dev/null ${argv}`;
  }
  return `${cd}SHELL=/bin/sh script -qefc ${posixQuote(`exec ${argv}`)} /dev/null`;
}

/**
 * The keeper: a small sh that outlives the commands, so the terminal has one root process for
 * the ledger (its pid is the terminal's pid) and every command is its descendant. It reads one
 * request per line on fd 3 and answers each with the exit status on fd 4; the command's terminal
 * input comes through the keeper's stdin, its output through the keeper's stdout.
 */
export const KEEPER_SCRIPT = 'while IFS= read -r __tshep_req <&3; do eval "$__tshep_req"; printf \'%s\\n\' "$?" >&4; done';
