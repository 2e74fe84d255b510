/**
 * The stable launcher in ~/.terminal-shepherd/bin that MCP clients outside VS Code start: a
 * POSIX shell script (a .cmd on Windows) that runs the installed extension's dist/mcp-server.js
 * with the runtime of the VS Code that installed it (node on PATH when that runtime is gone).
 * Every window writes it at activation unless a newer version already lives there, so a client's
 * configuration survives extension updates: the extension's own folder changes with each update,
 * the launcher's path never does. The launcher passes its arguments and working directory on.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { launcherPath } from '../../../common/src/shepherdHome';
import { writeFileAtomic } from '../core/fsUtil';

export interface LauncherTarget {
  /** The extension's version (the newest installed wins). */
  readonly version: string;
  /** Executable that runs the server: VS Code's own (Electron as node, or the server's node). */
  readonly runtime: string;
  /** The extension's dist/mcp-server.js. */
  readonly serverScript: string;
}

/** The line each form carries so a later window can tell which version wrote it. */
const MARK = 'terminal-shepherd-launcher:';

/** A string in single quotes for sh (a quote inside becomes '\''). */
const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function posixLauncher(target: LauncherTarget): string {
  return [
    '#!/bin/sh',
    `# Terminal Shepherd's MCP server, for MCP clients outside VS Code. Written by the Terminal Shepherd`,
    '# extension, which keeps it pointing at the newest installed version: do not edit.',
    `# ${MARK} ${JSON.stringify(target)}`,
    `script=${shQuote(target.serverScript)}`,
    `runtime=${shQuote(target.runtime)}`,
    'if [ ! -f "$script" ]; then',
    `  echo "terminal-shepherd-mcp: $script is gone: Terminal Shepherd ${target.version} was updated or uninstalled. Open VS Code with Terminal Shepherd once; it points this launcher at the installed version." >&2`,
    '  exit 1',
    'fi',
    'if [ ! -x "$runtime" ]; then',
    '  runtime=$(command -v node) || {',
    '    echo "terminal-shepherd-mcp: the runtime that VS Code installed Terminal Shepherd with is gone and node is not on PATH. Open VS Code with Terminal Shepherd once, or install Node.js 20 or newer." >&2',
    '    exit 1',
    '  }',
    'fi',
    // VS Code's runtime is Electron: this makes it plain Node (node itself ignores it).
    'ELECTRON_RUN_AS_NODE=1 exec "$runtime" "$script" "$@"',
    '',
  ].join('\n');
}

/** A value for `set "NAME=value"` in a .cmd file: % doubled (the only character expanded there). */
const cmdValue = (s: string): string => s.replace(/%/g, '%%');

export function windowsLauncher(target: LauncherTarget): string {
  return [
    '@echo off',
    `rem Terminal Shepherd's MCP server, for MCP clients outside VS Code. Written by the Terminal Shepherd`,
    'rem extension, which keeps it pointing at the newest installed version: do not edit.',
    `rem ${MARK} ${JSON.stringify(target).replace(/%/g, '%%')}`,
    'setlocal',
    `set "TS_SCRIPT=${cmdValue(target.serverScript)}"`,
    `set "TS_RUNTIME=${cmdValue(target.runtime)}"`,
    'if not exist "%TS_SCRIPT%" goto gone',
    'if not exist "%TS_RUNTIME%" set "TS_RUNTIME=node"',
    'set ELECTRON_RUN_AS_NODE=1',
    '"%TS_RUNTIME%" "%TS_SCRIPT%" %*',
    'exit /b %ERRORLEVEL%',
    ':gone',
    `echo terminal-shepherd-mcp: %TS_SCRIPT% is gone: Terminal Shepherd ${target.version} was updated or uninstalled. Open VS Code with Terminal Shepherd once; it points this launcher at the installed version. 1>&2`,
    'exit /b 1',
    '',
  ].join('\r\n');
}

/** The target a launcher's text names, or undefined for a file that is not one of ours. */
export function readLauncherTarget(text: string): LauncherTarget | undefined {
  const line = text.split(/\r?\n/).find((l) => l.includes(MARK));
  if (!line) return undefined;
  try {
    const parsed = JSON.parse(line.slice(line.indexOf(MARK) + MARK.length).trim().replace(/%%/g, '%')) as Partial<LauncherTarget>;
    return typeof parsed.version === 'string' && typeof parsed.runtime === 'string' && typeof parsed.serverScript === 'string'
      ? { version: parsed.version, runtime: parsed.runtime, serverScript: parsed.serverScript }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Compares dotted versions numerically (1.10.0 > 1.9.3; a pre-release tag sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

export interface LauncherInstall {
  readonly path: string;
  /** written: ours now; kept: a newer installed version's stays; unchanged: already ours. */
  readonly outcome: 'written' | 'kept' | 'unchanged';
  /** The target the launcher runs now. */
  readonly target: LauncherTarget;
}

/**
 * Writes the launcher for this platform under `root` unless it already names this target, or a
 * newer version whose server still exists. Throws on a file-system failure (the caller logs it).
 */
export async function installLauncher(root: string, target: LauncherTarget, platform: NodeJS.Platform = process.platform): Promise<LauncherInstall> {
  const file = launcherPath(root, platform);
  const existing = readLauncherTarget(await fs.readFile(file, 'utf8').catch(() => ''));
  if (existing && JSON.stringify(existing) === JSON.stringify(target)) return { path: file, outcome: 'unchanged', target };
  if (existing && compareVersions(existing.version, target.version) > 0 && (await exists(existing.serverScript))) {
    return { path: file, outcome: 'kept', target: existing };
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, platform === 'win32' ? windowsLauncher(target) : posixLauncher(target), 0o755);
  return { path: file, outcome: 'written', target };
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
