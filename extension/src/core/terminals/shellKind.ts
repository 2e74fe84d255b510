/**
 * Which family a shell belongs to, from its path: it decides which integration can be used
 * (VS Code injects into bash, zsh, fish and pwsh; Terminal Shepherd's scripts cover bash, zsh,
 * fish and the sh family) and how command lines are written for it.
 */

export type ShellKind = 'bash' | 'zsh' | 'fish' | 'sh' | 'pwsh' | 'cmd' | 'unknown';

export interface ShellInfo {
  readonly kind: ShellKind;
  /** The executable's name without directory or .exe (dash, mksh, pwsh, ...). */
  readonly name: string;
  /** The path the terminal starts, when known (the setting or the editor's default). */
  readonly path: string | undefined;
}

/** sh-family shells without a pre-execution hook: POSIX syntax, $ENV read at interactive start. */
const SH_FAMILY = new Set(['sh', 'dash', 'ash', 'ksh', 'ksh93', 'mksh', 'lksh', 'pdksh', 'oksh', 'yash', 'posh', 'busybox']);

export function shellInfo(shellPath: string | undefined): ShellInfo {
  if (!shellPath) {
    return { kind: 'unknown', name: 'unknown', path: undefined };
  }
  const base = shellPath.split(/[\\/]/).pop() ?? shellPath;
  const name = base.replace(/\.exe$/i, '').toLowerCase();
  return { kind: kindOf(name), name, path: shellPath };
}

function kindOf(name: string): ShellKind {
  if (name === 'bash' || name === 'zsh' || name === 'fish' || name === 'cmd') return name;
  if (name === 'pwsh' || name === 'powershell' || name === 'pwsh-preview') return 'pwsh';
  if (SH_FAMILY.has(name)) return 'sh';
  return 'unknown';
}

/** A name for the shell in results and lists: its kind, or the executable's name for an unknown one. */
export function shellLabel(info: ShellInfo): string {
  return info.kind === 'sh' || info.kind === 'unknown' ? info.name : info.kind;
}
