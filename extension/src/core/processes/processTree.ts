/**
 * Process trees from a flat snapshot, shared by every platform. Pure: no I/O.
 *
 * A parent pid is trusted only when the child did not start before that parent: Windows keeps a
 * dead parent's pid in ParentProcessId, so once the pid is reused a naive walk would adopt
 * unrelated older processes (and can even loop). On Linux and macOS the check never rejects a
 * real edge, since a child always starts at or after its parent.
 */
import type { ProcessInfo } from './types';

export interface ProcessTreeNode {
  readonly info: ProcessInfo;
  readonly children: ProcessTreeNode[];
}

/** Children per parent pid, with edges that fail the start-order check left out. */
export function indexChildren(table: readonly ProcessInfo[]): Map<number, ProcessInfo[]> {
  const byPid = new Map<number, ProcessInfo>();
  for (const p of table) {
    byPid.set(p.pid, p);
  }
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) {
    if (p.ppid === p.pid) {
      continue; // pid 0 on Windows (Idle) is its own parent
    }
    const parent = byPid.get(p.ppid);
    if (parent && startedBefore(p, parent)) {
      continue; // the "parent" is a newer process that reused the real parent's pid
    }
    let list = children.get(p.ppid);
    if (!list) {
      list = [];
      children.set(p.ppid, list);
    }
    list.push(p);
  }
  return children;
}

/** Every descendant of `rootPid` in breadth-first order (parents before children), root excluded. */
export function descendantsFromTable(table: readonly ProcessInfo[], rootPid: number): ProcessInfo[] {
  const children = indexChildren(table);
  const out: ProcessInfo[] = [];
  const seen = new Set<number>([rootPid]);
  const queue: number[] = [rootPid];
  for (let i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i]!) ?? []) {
      if (seen.has(child.pid)) {
        continue; // a pid cycle from stale parent ids: visit each process once
      }
      seen.add(child.pid);
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/** The tree under `rootPid` as nested nodes, or undefined when the root is not in the table. */
export function buildTree(table: readonly ProcessInfo[], rootPid: number): ProcessTreeNode | undefined {
  const root = table.find((p) => p.pid === rootPid);
  if (!root) {
    return undefined;
  }
  const children = indexChildren(table);
  const seen = new Set<number>();
  const build = (info: ProcessInfo): ProcessTreeNode => {
    seen.add(info.pid);
    const kids = (children.get(info.pid) ?? []).filter((c) => !seen.has(c.pid));
    return { info, children: kids.map(build) };
  };
  return build(root);
}

function startedBefore(a: ProcessInfo, b: ProcessInfo): boolean {
  const ta = Date.parse(a.startedAt);
  const tb = Date.parse(b.startedAt);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta < tb;
}
