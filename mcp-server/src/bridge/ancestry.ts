/**
 * The processes above this one (parent, grandparent, ...): a server started by a VS Code
 * window's own extension host (Cline, Continue, an extension-owned terminal) finds that window
 * by its pid among them. Linux reads /proc; macOS asks `ps`; Windows asks CIM through PowerShell
 * (processLookup, which clientProcess.ts shares, with command lines). Any failure gives the list
 * found so far: the caller then looks by folder only.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';

const MAX_DEPTH = 64;
const COMMAND_TIMEOUT_MS = 5000;

/** One process as the walks up the tree see it: its parent, and what it runs ('' when not asked). */
export interface ProcessRow {
  readonly ppid: number;
  readonly commandLine: string;
}

/** A process's row by pid; undefined when it is gone or cannot be read. */
export type ProcessLookup = (pid: number) => Promise<ProcessRow | undefined> | ProcessRow | undefined;

/** "pid ppid [command line]" rows (ps -A -o pid=,ppid=[,args=]; the PowerShell query prints the same). */
export function parseProcessRows(text: string): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(\d+)(?:\s(.*))?$/.exec(line);
    if (m) rows.set(Number(m[1]), { ppid: Number(m[2]), commandLine: (m[3] ?? '').trim() });
  }
  return rows;
}

/** The ppid in /proc/<pid>/stat (the field after the state, past the parenthesised name). */
export function parseProcStatParent(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

/** Walks a parent lookup up from `pid` (excluded), stopping at pid 0/1, a loop or the depth bound. */
export async function walkUp(pid: number, parentOf: (pid: number) => Promise<number | undefined> | number | undefined): Promise<number[]> {
  const chain: number[] = [];
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const parent = await parentOf(current);
    if (parent === undefined || parent <= 1 || chain.includes(parent) || parent === pid) break;
    chain.push(parent);
    current = parent;
  }
  return chain;
}

/** A bounded query's stdout (ps, PowerShell); rejects on failure or after 5 s. */
export function runQuery(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: COMMAND_TIMEOUT_MS, windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

/**
 * How this OS tells a process's parent (and, with `commandLines`, what it runs): Linux reads /proc
 * per pid, macOS asks `ps` and Windows CIM through PowerShell once for the whole table. Rejects
 * when the table cannot be asked.
 */
export async function processLookup(platform: NodeJS.Platform, commandLines: boolean): Promise<ProcessLookup> {
  if (platform === 'linux') return (pid) => linuxRow(pid, commandLines);
  const table =
    platform === 'win32'
      ? await runQuery('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)${commandLines ? ' $($_.CommandLine)' : ''}" }`])
      : await runQuery('ps', ['-A', '-o', commandLines ? 'pid=,ppid=,args=' : 'pid=,ppid=']);
  const rows = parseProcessRows(table);
  return (pid) => rows.get(pid);
}

async function linuxRow(pid: number, commandLine: boolean): Promise<ProcessRow | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([fs.readFile(`/proc/${pid}/stat`, 'utf8'), commandLine ? fs.readFile(`/proc/${pid}/cmdline`, 'utf8') : '']);
    const ppid = parseProcStatParent(stat);
    return ppid === undefined ? undefined : { ppid, commandLine: cmdline.split('\0').filter(Boolean).join(' ') };
  } catch {
    return undefined;
  }
}

/** This process's ancestors, nearest first. */
export async function processAncestors(platform: NodeJS.Platform = process.platform, pid: number = process.pid): Promise<number[]> {
  try {
    const lookup = await processLookup(platform, false);
    return await walkUp(pid, async (p) => (await lookup(p))?.ppid);
  } catch {
    return [];
  }
}
