/** Shell-specific command text the service types for the user (quoting differs per shell). */
import type { ShellKind } from './shellKind';

/** One word for sh-family shells (and fish): single quotes, a quote inside closed and escaped. */
export const posixQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;
/** One PowerShell word: single quotes, a quote inside doubled. */
export const pwshQuote = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** A command that changes the shell's working directory to `dir`, quoted for `shellType`. */
export function changeDirectoryCommand(kind: ShellKind, dir: string): string {
  switch (kind) {
    case 'pwsh':
      return `Set-Location -LiteralPath ${pwshQuote(dir)}`;
    case 'cmd':
      return `cd /d "${dir.replace(/"/g, '')}"`;
    default:
      return `cd -- ${posixQuote(dir)}`;
  }
}

/** Control characters sent alone (Ctrl+C, Ctrl+D, Ctrl+Z, Esc) are keys: no Enter follows them. */
export function isControlKey(text: string): boolean {
  return /^[\u0000-\u001f\u007f]+$/.test(text) && !/^[\r\n]+$/.test(text);
}
