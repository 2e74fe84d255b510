/**
 * Windows after a crash: what a dead window's terminal shells started, found by lineage, where
 * Linux reads the mark in each process's environment (linuxMarks.ts) and Windows cannot read
 * another process's environment cheaply. The ledger logged each shell's identity (pid + CIM
 * CreationDate) when it first saw it; one Win32_Process snapshot then gives every live process
 * whose ParentProcessId chain reaches such a shell.
 *
 * Windows never re-parents and reuses pids, so each link is checked by time: a child is only the
 * child of a process that started no later than it, and the link to the dead shell holds only for
 * a child created after the shell and while no other live process (older than the child) holds the
 * shell's pid. A chain through a middle process that has exited (cmd.exe of `npm run`) breaks: no
 * lineage survives a restart (processLineage.ts remembers only within one window). Pure.
 */
import type { LoggedShell, MarkedProcess, ProcessInfo } from './types';
import { isConsoleHost } from './windowsParsers';

/** How deep a chain is followed (a loop in a bad table cannot hang the walk). */
const MAX_DEPTH = 64;

/**
 * The live processes of `table` that descend from one of `shells`, each with that shell's marks;
 * a shell still alive (same identity) is not among them, nor are console hosts.
 */
export function shellDescendants(table: readonly ProcessInfo[], shells: readonly LoggedShell[]): MarkedProcess[] {
  if (shells.length === 0) return [];
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const shellsByPid = new Map<number, LoggedShell[]>();
  for (const shell of shells) shellsByPid.set(shell.pid, [...(shellsByPid.get(shell.pid) ?? []), shell]);
  const memo = new Map<ProcessInfo, LoggedShell | null>();

  /** The shell `p`'s chain reaches, or null. */
  const shellOf = (p: ProcessInfo, depth: number): LoggedShell | null => {
    const known = memo.get(p);
    if (known !== undefined) return known;
    let found: LoggedShell | null = null;
    const holder = byPid.get(p.ppid);
    // The live holder of the parent pid is p's parent only if it started no later than p.
    const liveParent = holder && holder.pid !== p.pid && !(holder.startTime > p.startTime) ? holder : undefined;
    // The newest logged shell with that pid that started no later than p (pids repeat across sessions).
    const shell = (shellsByPid.get(p.ppid) ?? []).filter((s) => !(s.startTime > p.startTime)).sort((a, b) => (a.startTime < b.startTime ? 1 : -1))[0];
    if (shell && (!liveParent || liveParent.startTime === shell.startTime)) {
      found = shell; // the shell: dead (its pid free, or reused since p started), or alive as itself
    } else if (liveParent && depth < MAX_DEPTH) {
      memo.set(p, null); // a loop ends here
      found = shellOf(liveParent, depth + 1);
    }
    memo.set(p, found);
    return found;
  };

  const out: MarkedProcess[] = [];
  for (const p of table) {
    if (isConsoleHost(p.name) || shells.some((s) => s.pid === p.pid && s.startTime === p.startTime)) continue;
    const shell = shellOf(p, 0);
    if (shell) out.push({ info: p, marks: shell.marks, terminalShell: false });
  }
  return out;
}
