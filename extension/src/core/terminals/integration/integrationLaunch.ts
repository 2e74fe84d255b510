/**
 * How a managed terminal's shell is started: the environment every managed terminal gets (pagers
 * that print instead of waiting for a key, no zsh end-of-line mark), and for Terminal Shepherd's
 * own integration the arguments and variables that load our script after the user's rc files.
 */
import { agentEnv, DEFAULT_MARKS, type AgentMarks } from '../agentMarks';
import { PWSH_COMMON_VARIABLE, RUNS_DIR_VARIABLE } from '../commandText';
import { pwshQuote } from '../shellCommands';
import type { ShellKind } from '../shellKind';
import type { IntegrationFiles } from './integrationFiles';

export interface ShellLaunch {
  readonly shellArgs?: string[];
  readonly env: Record<string, string>;
}

/**
 * Pagers would stop `git log`, `man`, `systemctl status`... at a `:` prompt. Commands print and
 * return instead; a pager a command names explicitly (`less file`, `git log | less`) still runs
 * and is reported as waiting for input.
 */
export const PAGER_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  GH_PAGER: 'cat',
  AWS_PAGER: '',
  PSQL_PAGER: 'cat',
  BAT_PAGER: 'cat',
};

/**
 * The environment of every managed terminal, whatever its strategy: the agent's marks
 * (agentMarks.ts), and the private folder and (for PowerShell) the shared script for commandText.ts.
 */
export function managedEnv(kind: ShellKind, files?: Pick<IntegrationFiles, 'runsDir' | 'pwshCommon'>, marks: AgentMarks = DEFAULT_MARKS): Record<string, string> {
  const env: Record<string, string> = { ...PAGER_ENV, ...agentEnv(marks) };
  if (files !== undefined) env[RUNS_DIR_VARIABLE] = files.runsDir;
  if (files !== undefined && kind === 'pwsh') env[PWSH_COMMON_VARIABLE] = files.pwshCommon;
  // zsh imports PROMPT_EOL_MARK from the environment; empty means no mark after output without a
  // trailing newline (VS Code's own integration leaves it on).
  if (kind === 'zsh') env.PROMPT_EOL_MARK = '';
  return env;
}

/** Start-up of a shell with Terminal Shepherd's integration; undefined for shells we have no script for. */
export function shepherdLaunch(
  kind: ShellKind,
  files: IntegrationFiles,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  marks: AgentMarks = DEFAULT_MARKS,
): ShellLaunch | undefined {
  const base = managedEnv(kind, files, marks);
  // Explicit arguments also keep VS Code from injecting its own script on top of ours (it injects
  // only into a shell started with no arguments or just a login flag).
  switch (kind) {
    case 'bash':
      return { shellArgs: ['--init-file', files.bash], env: base };
    case 'zsh':
      // A login shell on macOS, as VS Code starts it there (PATH from .zprofile); `-o login`
      // rather than `-l`, which VS Code would take for its own.
      return {
        shellArgs: platform === 'darwin' ? ['-i', '-o', 'login'] : ['-i'],
        env: { ...base, ZDOTDIR: files.zshDir, TSHEP_USER_ZDOTDIR: env.ZDOTDIR ?? '' },
      };
    case 'fish':
      return { shellArgs: ['--init-command', `source ${fishQuote(files.fish)}`], env: base };
    case 'sh':
      return { env: { ...base, ENV: files.posix, TSHEP_USER_ENV: env.ENV ?? '' } };
    case 'pwsh':
      // After the user's profile. The process-scope execution policy lets this session run our
      // script and command files where the machine's default (Restricted on Windows clients)
      // would refuse them; the user's own policy and other sessions are untouched, and a policy
      // set by Group Policy still wins.
      return { shellArgs: ['-NoLogo', '-NoExit', '-ExecutionPolicy', 'Bypass', '-Command', `. ${pwshQuote(files.pwsh)}`], env: base };
    default:
      return undefined;
  }
}

/** A fish single-quoted string: only `\` and `'` are special inside. */
export function fishQuote(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}
