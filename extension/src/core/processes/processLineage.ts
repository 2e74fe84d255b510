/**
 * Who descends from whom on Windows, remembered across snapshots. Windows never re-parents: a
 * process keeps its dead parent's pid in ParentProcessId, so once a middle process exits (npm.cmd's
 * cmd.exe, a launcher) a walk of one fresh snapshot loses everything below it, and `taskkill /T`
 * misses it too. Every snapshot is remembered here (pid + CreationDate, with its parent pid), so a
 * grandchild whose parent exited still links to that parent as it was, and through it to the
 * tree; a pid reused since by a newer process is told apart by start time. Pure and bounded.
 */
import type { ProcessInfo } from './types';

const identity = (p: ProcessInfo): string => `${p.pid}@${p.startTime}`;
const startMs = (p: ProcessInfo): number => Date.parse(p.startedAt);

export class ProcessLineage {
  private readonly seen = new Map<string, { info: ProcessInfo; lastSnapshot: number }>();
  private snapshots = 0;

  /** @param keepSnapshots how many snapshots a process no longer seen is remembered for. */
  constructor(
    private readonly keepSnapshots = 120,
    private readonly maxRemembered = 20_000,
  ) {}

  /** Takes in one snapshot of every process. */
  remember(table: readonly ProcessInfo[]): void {
    this.snapshots++;
    for (const p of table) {
      if (p.startTime !== '') this.seen.set(identity(p), { info: p, lastSnapshot: this.snapshots });
    }
    for (const [key, entry] of this.seen) {
      if (this.snapshots - entry.lastSnapshot > this.keepSnapshots) this.seen.delete(key);
    }
    // Oldest first out when a machine churns through more processes than the bound.
    for (const key of this.seen.keys()) {
      if (this.seen.size <= this.maxRemembered) break;
      this.seen.delete(key);
    }
  }

  /**
   * Every live process of `table` below `rootPid` (the live process with that pid), any depth,
   * parents before children: links through remembered parents that have exited included.
   */
  descendants(table: readonly ProcessInfo[], rootPid: number): ProcessInfo[] {
    const root = table.find((p) => p.pid === rootPid);
    if (!root) return [];
    const live = new Set(table.map(identity));
    const all = new Map<string, ProcessInfo>();
    for (const { info } of this.seen.values()) all.set(identity(info), info);
    for (const p of table) all.set(identity(p), p);
    const byPid = new Map<number, ProcessInfo[]>();
    for (const p of all.values()) byPid.set(p.pid, [...(byPid.get(p.pid) ?? []), p]);
    // A process's parent: the newest process with its ParentProcessId that started no later than it.
    const children = new Map<string, ProcessInfo[]>();
    for (const p of all.values()) {
      if (p.ppid === p.pid) continue;
      const parent = (byPid.get(p.ppid) ?? [])
        .filter((c) => !(startMs(p) < startMs(c)))
        .sort((a, b) => startMs(b) - startMs(a))[0];
      if (!parent) continue;
      const key = identity(parent);
      children.set(key, [...(children.get(key) ?? []), p]);
    }
    const out: ProcessInfo[] = [];
    const visited = new Set<string>([identity(root)]);
    const queue = [root];
    for (let i = 0; i < queue.length; i++) {
      for (const child of children.get(identity(queue[i]!)) ?? []) {
        const key = identity(child);
        if (visited.has(key)) continue;
        visited.add(key);
        queue.push(child);
        if (live.has(key)) out.push(child);
      }
    }
    return out;
  }
}
