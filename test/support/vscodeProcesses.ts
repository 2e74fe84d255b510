// The processes of one launch, read from Linux's /proc: found by the run id every one of them
// inherits (so also shells and daemons that left code-server's process tree), and killed with a bound.
import * as fs from 'node:fs';
import { sleep } from './boundedWaits';
import { procAlive as alive, procStatFields } from './procStat';

/** Environment variable set on code-server and so inherited by everything it starts: how stop()
 * finds processes that left code-server's process tree (reparented shells, daemons). */
export const RUN_ID_ENV = 'TS_HARNESS_RUN_ID';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  cmdline: string;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** All processes, or those whose environment holds `RUN_ID_ENV=runId` (set on code-server, inherited). */
export function listProcesses(runId?: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const marker = runId ? `${RUN_ID_ENV}=${runId}\0` : undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const fields = procStatFields(pid);
    if (!fields || fields[0] === 'Z') continue; // zombies are dead already
    if (marker) {
      const environ = readProc(pid, 'environ');
      if (!environ || !(environ + '\0').includes(marker)) continue;
    }
    out.push({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline: (readProc(pid, 'cmdline') ?? '').split('\0').join(' ').trim() });
  }
  return out;
}

/** Processes started by one launch (and its restarts): those carrying its run id, plus descendants of `rootPid`. */
export function launchProcesses(runId: string, rootPid?: number): ProcessInfo[] {
  const all = listProcesses();
  const marked = new Set(listProcesses(runId).map((p) => p.pid));
  if (rootPid) {
    const children = new Map<number, number[]>();
    for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
    const stack = [rootPid];
    while (stack.length) {
      const pid = stack.pop()!;
      if (all.some((p) => p.pid === pid)) marked.add(pid);
      stack.push(...(children.get(pid) ?? []));
    }
  }
  return all.filter((p) => marked.has(p.pid) && p.pid !== process.pid);
}

/** Sends a signal to a pid (negative: a process group) that may be gone already. */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
}

/** SIGTERM, then SIGKILL to what is alive after `graceMs`; returns the pids that outlived even that (5 s more). */
export async function killAll(pids: number[], graceMs: number): Promise<number[]> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(alive)) await sleep(100);
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
  const deadline2 = Date.now() + 5000;
  while (Date.now() < deadline2 && pids.some(alive)) await sleep(100);
  return pids.filter(alive);
}
