/**
 * The processes above this one (parent, grandparent, ...): a server started by a VS Code
 * window's own extension host (Cline, Continue, an extension-owned terminal) finds that window
 * by its pid among them. Linux reads /proc; macOS asks `ps`; Windows asks CIM through PowerShell.
 * Any failure gives the list found so far: the caller then looks by folder only.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';

const MAX_DEPTH = 64;
const COMMAND_TIMEOUT_MS = 5000;

/** "pid ppid" lines (ps -A -o pid=,ppid=; the PowerShell query prints the same) to a parent map. */
export function parseParentTable(text: string): Map<number, number> {
  const parents = new Map<number, number>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (m) parents.set(Number(m[1]), Number(m[2]));
  }
  return parents;
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

/** This process's ancestors, nearest first. */
export async function processAncestors(platform: NodeJS.Platform = process.platform, pid: number = process.pid): Promise<number[]> {
  try {
    if (platform === 'linux') {
      return await walkUp(pid, async (p) => parseProcStatParent(await fs.readFile(`/proc/${p}/stat`, 'utf8').catch(() => '')));
    }
    const table =
      platform === 'win32'
        ? await runQuery('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)" }'])
        : await runQuery('ps', ['-A', '-o', 'pid=,ppid=']);
    const parents = parseParentTable(table);
    return await walkUp(pid, (p) => parents.get(p));
  } catch {
    return [];
  }
}
