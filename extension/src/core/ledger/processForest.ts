/**
 * Nests flat process records into trees for list_processes: a record sits under its parent when
 * the parent is in the same list, otherwise it is a top-level entry (a direct child of a shell,
 * or a process whose parent is gone). Pure.
 */
import type { TrackedProcess } from '../../../../common/src/protocol';
import { toTrackedProcess, type TrackedRecord } from './records';

export function buildForest(records: readonly TrackedRecord[]): TrackedProcess[] {
  const ordered = [...records].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
  const nodes = new Map<number, TrackedProcess>();
  const parentOf = new Map<number, number>();
  for (const r of ordered) {
    nodes.set(r.pid, toTrackedProcess(r));
    parentOf.set(r.pid, r.parentPid);
  }
  const roots: TrackedProcess[] = [];
  for (const r of ordered) {
    const node = nodes.get(r.pid)!;
    const parent = nodes.get(r.parentPid);
    if (parent && !inCycle(r.pid, parentOf)) {
      (parent.children ??= []).push(node);
    } else {
      roots.push(node);
    }
  }
  return roots;
}

/** Stale parent pids can form a loop; a process on one becomes a root instead of vanishing. */
function inCycle(pid: number, parentOf: Map<number, number>): boolean {
  const seen = new Set<number>();
  for (let p = parentOf.get(pid); p !== undefined && !seen.has(p); p = parentOf.get(p)) {
    if (p === pid) {
      return true;
    }
    seen.add(p);
  }
  return false;
}

/** Every process of trees, parents before children, each pid once. */
export function flattenProcesses(roots: readonly TrackedProcess[]): TrackedProcess[] {
  const out: TrackedProcess[] = [];
  const seen = new Set<number>();
  const visit = (p: TrackedProcess): void => {
    if (seen.has(p.pid)) return;
    seen.add(p.pid);
    out.push(p);
    for (const child of p.children ?? []) visit(child);
  };
  for (const root of roots) visit(root);
  return out;
}
