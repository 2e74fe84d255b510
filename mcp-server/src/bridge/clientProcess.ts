/**
 * The MCP client's own process: the nearest ancestor of this server that is not a launcher (the
 * shell of `sh -c`, npx, cmd running the launcher script). The window watches what that client's
 * own tools start (client/attach); the launchers and this server are its path, never recorded.
 * Linux reads /proc; macOS asks `ps`; Windows asks CIM through PowerShell. Any failure: unknown.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseProcStatParent, runQuery } from './ancestry';

/** How many launchers may sit between the server and its client. */
const MAX_LAUNCHERS = 8;

export interface ClientProcess {
  readonly pid: number;
  /** This server's pid, then each launcher's, nearest first. */
  readonly serverPath: number[];
}

interface ProcessRow {
  readonly ppid: number;
  readonly commandLine: string;
}

type Lookup = (pid: number) => Promise<ProcessRow | undefined> | ProcessRow | undefined;

/** Programs that only start another: shells, env, package runners. A client is none of these. */
const LAUNCHERS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'cmd', 'powershell', 'pwsh', 'env', 'npx', 'npm', 'pnpm', 'yarn', 'bunx', 'uvx', 'nohup', 'timeout']);

/** Whether the command line is a launcher's (`/bin/sh -c ...`, `node .../npx-cli.js ...`, `cmd.exe /c ...`). */
export function isLauncher(commandLine: string): boolean {
  const words = commandLine.trim().split(/\s+/);
  const program = (word: string | undefined): string => path.basename((word ?? '').replace(/\\/g, '/')).replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
  if (LAUNCHERS.has(program(words[0]))) return true;
  // npx and npm are node scripts: `node /usr/lib/node_modules/npm/bin/npx-cli.js`.
  return program(words[0]) === 'node' && /^(npx|npm)-cli\.js$/.test(program(words[1]));
}

/** Walks up from `pid` past the launchers; undefined when the chain ends (pid 1, unreadable) before a client. */
export async function findClient(pid: number, lookup: Lookup): Promise<ClientProcess | undefined> {
  const serverPath = [pid];
  let row = await lookup(pid);
  for (let hops = 0; row && row.ppid > 1 && hops <= MAX_LAUNCHERS; hops++) {
    const parent = await lookup(row.ppid);
    if (!parent) return undefined;
    if (!isLauncher(parent.commandLine)) return { pid: row.ppid, serverPath };
    serverPath.push(row.ppid);
    row = parent;
  }
  return undefined;
}

/** "pid ppid command line" rows (ps -A -o pid=,ppid=,args=; the PowerShell query prints the same). */
export function parseProcessRows(text: string): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    if (m) rows.set(Number(m[1]), { ppid: Number(m[2]), commandLine: m[3]!.trim() });
  }
  return rows;
}

async function linuxRow(pid: number): Promise<ProcessRow | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([fs.readFile(`/proc/${pid}/stat`, 'utf8'), fs.readFile(`/proc/${pid}/cmdline`, 'utf8')]);
    const ppid = parseProcStatParent(stat);
    return ppid === undefined ? undefined : { ppid, commandLine: cmdline.split('\0').filter(Boolean).join(' ') };
  } catch {
    return undefined;
  }
}

/** This server's client process, or undefined when it cannot be told. */
export async function clientProcess(platform: NodeJS.Platform = process.platform, pid: number = process.pid): Promise<ClientProcess | undefined> {
  try {
    if (platform === 'linux') return await findClient(pid, linuxRow);
    const table =
      platform === 'win32'
        ? await runQuery('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId) $($_.CommandLine)" }'])
        : await runQuery('ps', ['-A', '-o', 'pid=,ppid=,args=']);
    const rows = parseProcessRows(table);
    return await findClient(pid, (p) => rows.get(p));
  } catch {
    return undefined;
  }
}
