/**
 * The OS questions and actions the tracker applies to many records at once: which are still
 * alive (by identity), and ending their trees. Identities, never bare pids, go to the monitor.
 */
import type { ProcessMonitor, TreeKillResult } from '../processes/types';
import { identityKey } from './formats';
import { identityOf, type TrackedRecord } from './records';

/** Up to this many checks go one by one; more use one snapshot (cheaper on macOS and Windows). */
const SINGLE_CHECKS_MAX = 4;

/** Identity keys of the records whose process is alive with the same identity. */
export async function aliveKeys(monitor: ProcessMonitor, records: readonly TrackedRecord[]): Promise<Set<string>> {
  const alive = new Set<string>();
  if (records.length > SINGLE_CHECKS_MAX) {
    const table = new Set((await monitor.listAll()).map(identityKey));
    records.filter((r) => table.has(identityKey(r))).forEach((r) => alive.add(identityKey(r)));
    return alive;
  }
  for (const record of records) {
    if (await monitor.isAlive(identityOf(record))) {
      alive.add(identityKey(record));
    }
  }
  return alive;
}

/** One target's tree kill: the tracked record it started from, and the monitor's answer. */
export interface TreeKill {
  readonly target: TrackedRecord;
  readonly result: TreeKillResult;
}

/**
 * Kills each target's tree, oldest first so a child usually goes down with its parent (a target
 * already killed that way, same identity, is skipped).
 */
export async function killTrees(monitor: ProcessMonitor, targets: readonly TrackedRecord[]): Promise<TreeKill[]> {
  const killed = new Set<string>();
  const kills: TreeKill[] = [];
  const ordered = [...targets].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
  for (const target of ordered) {
    if (killed.has(identityKey(target))) {
      continue;
    }
    const result = await monitor.killTree(identityOf(target));
    const byPid = new Map(result.targets.map((p) => [p.pid, p]));
    for (const pid of result.killed) {
      const info = byPid.get(pid);
      if (info) killed.add(identityKey(info));
    }
    kills.push({ target, result });
  }
  return kills;
}
