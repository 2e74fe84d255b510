/**
 * How a managed terminal's shell is started: the environment every managed terminal gets (pagers
 * that print instead of waiting for a key, no zsh end-of-line mark), and for Terminal Shepherd's
 * own integration the arguments and variables that load our script after the user's rc files.
 */
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

/** The environment of every managed terminal, whatever its strategy. */
export function managedEnv(kind: ShellKind): Record<string, string> {
  // zsh imports PROMPT_EOL_MARK from the environment; empty means no mark after output without a
  // trailing newline (VS Code's own integration leaves it on).
  return kind === 'zsh' ? { ...PAGER_ENV, PROMPT_EOL_MARK: '' } : { ...PAGER_ENV };
}

/** Start-up of a shell with Terminal Shepherd's integration; undefined for shells we have no script for. */
export function shepherdLaunch(kind: ShellKind, files: IntegrationFiles, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ShellLaunch | undefined {
  const base = managedEnv(kind);
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
    default:
      return undefined;
  }
}

/** A fish single-quoted string: only `\` and `'` are special inside. */
export function fishQuote(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}
