/**
 * An in-memory ProcessMonitor: a process table the test edits (spawn, exit, reuse a pid, open
 * ports), so the ledger's logic runs on every OS and meets what real processes cannot be made to
 * do on demand: a pid reused by a stranger, a kill the OS refuses, the OS not answering.
 *
 * Pids are allocated from 5,000,001 up: above Linux's pid_max (2^22) and any macOS pid, so a
 * fake pid is never the test runner's own (which the tracker treats as the extension host).
 */
import { identityKey } from '../../../extension/src/core/ledger/formats';
import { descendantsFromTable } from '../../../extension/src/core/processes/processTree';
import {
  UNKNOWN_ACTIVITY,
  type ProcessIdentity,
  type ProcessInfo,
  type ProcessMonitor,
  type ShellActivity,
  type TreeKillResult,
} from '../../../extension/src/core/processes/types';

const FIRST_PID = 5_000_001;
/** Start times one second apart from here: increasing, so the tree walk's start-order check holds. */
const EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');

type FailingQuery = 'listAll' | 'listeningPorts';

export class FakeProcessMonitor implements ProcessMonitor {
  /** Every monitor method called, in order (queries and kills). */
  readonly calls: string[] = [];
  /** The identities killTree was asked to end. */
  readonly killRequests: ProcessIdentity[] = [];
  /** Every pid killTree signalled, whether it died or not. */
  readonly signalled: number[] = [];
  /** What probeShell answers per shell pid (UNKNOWN_ACTIVITY when absent). */
  readonly shellActivity = new Map<number, ShellActivity>();
  private readonly table = new Map<number, ProcessInfo>();
  private readonly ports = new Map<number, number[]>();
  private readonly cwds = new Map<number, string>();
  private readonly unkillable = new Set<string>();
  private readonly failures = new Map<FailingQuery, number>();
  private nextPid = FIRST_PID;
  private started = 0;

  constructor() {
    this.add(1, 0, 'init', '/sbin/init');
  }

  /**
   * A new process under `ppid`, with a start time no earlier process had. Pass `pid` to reuse the
   * pid of a process that exited: the same number, another identity.
   */
  spawn(ppid: number, name: string, commandLine: string, pid?: number): ProcessInfo {
    if (pid !== undefined && this.table.has(pid)) {
      throw new Error(`fake: pid ${pid} is still in use`);
    }
    return this.add(pid ?? this.nextPid++, ppid, name, commandLine);
  }

  /** The process exits; like Unix, its children are re-parented to init (`reparent` false: like Windows, they keep its pid as their parent's). */
  exit(pid: number, reparent = true): void {
    this.live(pid);
    this.table.delete(pid);
    this.ports.delete(pid);
    this.cwds.delete(pid);
    for (const p of reparent ? this.table.values() : []) {
      if (p.ppid === pid) {
        this.table.set(p.pid, { ...p, ppid: 1 });
      }
    }
  }

  /** The TCP ports the process listens on from now on. */
  setPorts(pid: number, ports: number[]): void {
    this.live(pid);
    this.ports.set(pid, ports);
  }

  /** The process's working directory from now on. */
  setCwd(pid: number, cwd: string): void {
    this.live(pid);
    this.cwds.set(pid, cwd);
  }

  async workingDirectory(pid: number): Promise<string | undefined> {
    this.calls.push('workingDirectory');
    return this.table.has(pid) ? this.cwds.get(pid) : undefined;
  }

  /** killTree cannot end this process (EPERM, or stuck in D state): it stays alive, reported failed. */
  failKill(pid: number): void {
    this.unkillable.add(identityKey(this.live(pid)));
  }

  /** The next call of `query` rejects, as when procfs, ps or PowerShell does not answer. */
  failNext(query: FailingQuery): void {
    this.failures.set(query, (this.failures.get(query) ?? 0) + 1);
  }

  async listAll(): Promise<ProcessInfo[]> {
    this.call('listAll');
    return [...this.table.values()];
  }

  async descendants(rootPid: number, table?: readonly ProcessInfo[]): Promise<ProcessInfo[]> {
    this.calls.push('descendants');
    return descendantsFromTable(table ?? (await this.listAll()), rootPid);
  }

  async isAlive(id: ProcessIdentity): Promise<boolean> {
    this.calls.push('isAlive');
    return this.table.get(id.pid)?.startTime === id.startTime;
  }

  /**
   * The real contract: nothing when the root is not the same process any more; otherwise the
   * root's whole tree, from one look at the table. Nothing runs between that look and the
   * signals here, so every signalled pid still has the identity it was seen with.
   */
  async killTree(id: ProcessIdentity): Promise<TreeKillResult> {
    this.calls.push('killTree');
    this.killRequests.push(id);
    const root = this.table.get(id.pid);
    if (root?.startTime !== id.startTime) {
      return { killed: [], failed: [], targets: [] };
    }
    const killed: number[] = [];
    const failed: number[] = [];
    const targets = [root, ...descendantsFromTable([...this.table.values()], root.pid)];
    for (const p of targets) {
      this.signalled.push(p.pid);
      if (this.unkillable.has(identityKey(p))) {
        failed.push(p.pid);
      } else {
        this.exit(p.pid);
        killed.push(p.pid);
      }
    }
    const ascending = (a: number, b: number): number => a - b;
    return { killed: killed.sort(ascending), failed: failed.sort(ascending), targets };
  }

  async listeningPorts(pids: number[]): Promise<Map<number, number[]>> {
    this.call('listeningPorts');
    const found = new Map<number, number[]>();
    for (const pid of pids) {
      const ports = this.ports.get(pid);
      if (ports && ports.length > 0) {
        found.set(pid, [...ports]);
      }
    }
    return found;
  }

  async portHolders(port: number): Promise<number[]> {
    this.calls.push('portHolders');
    return [...this.ports].filter(([pid, ports]) => ports.includes(port) && this.table.has(pid)).map(([pid]) => pid);
  }

  async probeShell(shellPid: number): Promise<ShellActivity> {
    this.calls.push('probeShell');
    return this.shellActivity.get(shellPid) ?? UNKNOWN_ACTIVITY;
  }

  dispose(): void {
    this.calls.push('dispose');
  }

  private add(pid: number, ppid: number, name: string, commandLine: string): ProcessInfo {
    const n = this.started++;
    // Zero-padded: ordered as text too, as Windows' CreationDate keys are (processes/shellLineage.ts compares them so).
    const info: ProcessInfo = { pid, ppid, name, commandLine, startTime: `fake-${String(n).padStart(6, '0')}`, startedAt: new Date(EPOCH_MS + n * 1000).toISOString() };
    this.table.set(pid, info);
    return info;
  }

  private live(pid: number): ProcessInfo {
    const info = this.table.get(pid);
    if (!info) {
      throw new Error(`fake: no live process ${pid}`);
    }
    return info;
  }

  /** Records a query that the test may have made fail. */
  private call(query: FailingQuery): void {
    this.calls.push(query);
    const pending = this.failures.get(query) ?? 0;
    if (pending > 0) {
      this.failures.set(query, pending - 1);
      throw new Error(`fake: ${query} did not answer`);
    }
  }
}
