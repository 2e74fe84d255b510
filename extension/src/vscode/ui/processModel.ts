/**
 * What the views show, computed once per change from the ledger's list and the terminal list:
 * terminals with their process trees, and the orphans. Pure (no vscode): the tree view, the
 * Show Processes pick and the tests all read the same model.
 */
import type { DevServer, ListProcessesResult, TerminalInfo, TrackedProcess } from '../../../../common/src/protocol';
import { flattenProcesses } from './format';

export interface TerminalGroup {
  readonly name: string;
  readonly shellPid: number | undefined;
  /** False for a terminal the ledger still has processes of but that is no longer open. */
  readonly open: boolean;
  readonly busy: boolean;
  /** The command running (or last run) in the terminal, when known. */
  readonly command: string | undefined;
  /** Top-level processes (children nested inside). */
  readonly processes: readonly TrackedProcess[];
  /** URLs of the dev servers running there. */
  readonly urls: readonly string[];
}

export interface ProcessOverview {
  /** Open managed terminals in the terminal service's order, then closed ones that still have processes. */
  readonly terminals: readonly TerminalGroup[];
  /** Processes an earlier window left running (trees). */
  readonly orphans: readonly TrackedProcess[];
}

export function buildOverview(list: ListProcessesResult, terminals: readonly TerminalInfo[], servers: readonly DevServer[] = []): ProcessOverview {
  const urlsOf = (terminal: string): string[] => [...new Set(servers.filter((s) => s.terminal === terminal).flatMap((s) => s.urls))];
  const byTerminal = new Map<string, TrackedProcess[]>();
  for (const root of list.active) {
    const group = byTerminal.get(root.terminalName);
    if (group) group.push(root);
    else byTerminal.set(root.terminalName, [root]);
  }
  const groups: TerminalGroup[] = terminals.map((t) => ({
    name: t.name,
    shellPid: t.pid,
    open: true,
    busy: t.busy,
    command: t.command,
    processes: byTerminal.get(t.name) ?? [],
    urls: urlsOf(t.name),
  }));
  const open = new Set(terminals.map((t) => t.name));
  const closed = [...byTerminal.keys()].filter((name) => !open.has(name)).sort((a, b) => a.localeCompare(b));
  for (const name of closed) {
    groups.push({ name, shellPid: undefined, open: false, busy: false, command: undefined, processes: byTerminal.get(name)!, urls: urlsOf(name) });
  }
  return { terminals: groups, orphans: list.orphaned };
}

/** Nothing to show at all: the view shows its welcome content instead. */
export function isEmptyOverview(overview: ProcessOverview): boolean {
  return overview.terminals.length === 0 && overview.orphans.length === 0;
}

export interface ProcessRow {
  readonly process: TrackedProcess;
  /** 0 for a top-level process, 1 for its child, ... */
  readonly depth: number;
  readonly orphan: boolean;
  /** The open terminal it runs in (what "Reveal Terminal" shows); undefined for orphans. */
  readonly terminal: string | undefined;
}

export type PickRow =
  | { readonly kind: 'separator'; readonly label: string }
  | { readonly kind: 'url'; readonly url: string; readonly terminal: string }
  | ({ readonly kind: 'process' } & ProcessRow);

/** The Show Processes list: a separator per terminal that has processes, then the orphans, children under parents. */
export function pickRows(overview: ProcessOverview): PickRow[] {
  const rows: PickRow[] = [];
  for (const group of overview.terminals) {
    if (group.processes.length === 0) continue;
    rows.push({ kind: 'separator', label: terminalHeading(group) });
    for (const url of group.urls) rows.push({ kind: 'url', url, terminal: group.name });
    for (const row of processRows(group.processes, false, group.open ? group.name : undefined)) rows.push({ kind: 'process', ...row });
  }
  if (overview.orphans.length > 0) {
    rows.push({ kind: 'separator', label: 'Orphans (left running by an earlier window)' });
    for (const row of processRows(overview.orphans, true, undefined)) rows.push({ kind: 'process', ...row });
  }
  return rows;
}

/** "dev · shell pid 4242", "old (closed)". */
export function terminalHeading(group: TerminalGroup): string {
  if (!group.open) return `${group.name} (closed)`;
  return group.shellPid !== undefined ? `${group.name} · shell pid ${group.shellPid}` : group.name;
}

/** What the status bar says of servers: how many, and for each its first URL and what it is. */
export function serverFacts(servers: readonly DevServer[]): { readonly count: number; readonly servers: ReadonlyArray<{ readonly url?: string; readonly text: string }> } {
  const mine = servers.filter((s) => s.status === 'running');
  return {
    count: mine.length,
    servers: mine.map((s) => ({
      ...(s.urls[0] !== undefined ? { url: s.urls[0] } : {}),
      text: `${s.urls[0] === undefined ? (s.ports.length > 0 ? `port ${s.ports.join(', ')}: ` : 'no port yet: ') : ''}${s.command}${s.terminal ? ` in ${s.terminal}` : ''}`,
    })),
  };
}

/** Depth-first rows of process trees. */
export function processRows(roots: readonly TrackedProcess[], orphan: boolean, terminal: string | undefined): ProcessRow[] {
  const rows: ProcessRow[] = [];
  const seen = new Set<number>();
  const visit = (process: TrackedProcess, depth: number): void => {
    if (seen.has(process.pid)) return; // a malformed tree must not loop
    seen.add(process.pid);
    rows.push({ process, depth, orphan, terminal });
    for (const child of process.children ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return rows;
}

/** The row of a pid anywhere in the overview. */
export function findProcess(overview: ProcessOverview, pid: number): ProcessRow | undefined {
  for (const group of overview.terminals) {
    const row = processRows(group.processes, false, group.open ? group.name : undefined).find((r) => r.process.pid === pid);
    if (row) return row;
  }
  return processRows(overview.orphans, true, undefined).find((r) => r.process.pid === pid);
}

/** A process and its descendants: what "Kill Process Tree" ends (named in its report). */
export function treeOf(process: TrackedProcess): TrackedProcess[] {
  return flattenProcesses([process]);
}

export function allOrphans(overview: ProcessOverview): TrackedProcess[] {
  return flattenProcesses(overview.orphans);
}
