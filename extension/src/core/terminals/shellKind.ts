import { existsSync } from 'node:fs';
import path from 'node:path';

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

/** The first of `names` found in a directory of `pathValue` (Windows: with .exe), or undefined. */
export function findOnPath(
  names: readonly string[],
  platform: NodeJS.Platform,
  pathValue: string,
  exists: (file: string) => boolean = existsSync,
): string | undefined {
  const separator = platform === 'win32' ? ';' : ':';
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  for (const name of names) {
    for (const dir of pathValue.split(separator)) {
      if (dir.length === 0) continue;
      const file = join(dir, platform === 'win32' && !name.endsWith('.exe') ? `${name}.exe` : name);
      if (exists(file)) return file;
    }
  }
  return undefined;
}

/**
 * The shell a new managed terminal starts: the setting, else the editor's default profile;
 * where that is cmd.exe (no shell integration of any kind), PowerShell 7 or Windows PowerShell
 * when installed.
 */
export function chooseShell(
  setting: string | undefined,
  editorDefault: string | undefined,
  platform: NodeJS.Platform,
  pathValue: string,
  exists?: (file: string) => boolean,
): string | undefined {
  if (setting) return setting;
  if (platform === 'win32' && shellInfo(editorDefault ?? 'cmd.exe').kind === 'cmd') {
    return findOnPath(['pwsh', 'powershell'], platform, pathValue, exists) ?? editorDefault;
  }
  return editorDefault;
}

/** A name for the shell in results and lists: its kind, or the executable's name for an unknown one. */
export function shellLabel(info: ShellInfo): string {
  return info.kind === 'sh' || info.kind === 'unknown' ? info.name : info.kind;
}

/** The program name when the foreground job is a shell or remote session of its own (no shell integration inside). */
export function nestedSession(foregroundCommand: string | undefined): string | undefined {
  const program = foregroundCommand?.trim().split(/\s+/)[0]?.split('/').pop()?.replace(/^-/, '');
  return program && /^((ba|z|fi|da|k|mk|tc|c|a)?sh|ssh|mosh|telnet|docker|podman|kubectl|su|sudo|nsenter|chroot|tmux|screen)$/.test(program) ? program : undefined;
}
