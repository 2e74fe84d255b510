/**
 * One look at terminals' process trees through the OS layer, written into the session's records:
 * new descendants are tracked, changed ones updated, tracked processes missing from their tree
 * checked by identity, ports refreshed. When to look is pollCadence's business, the lock the
 * tracker's.
 */
import type { Logger } from '../../../../common/src/logger';
import type { AgentSession, ClientTools } from '../../../../common/src/protocol';
import type { AppliedCaps } from '../processes/processLimits';
import type { ProcessIdentity, ProcessInfo, ProcessMonitor } from '../processes/types';
import { identityKey, type RunSandbox } from './formats';
import { aliveKeys } from './processChecks';
import { recordFromInfo, type TrackedRecord } from './records';
import type { SessionRecords } from './sessionRecords';
import { diffSnapshot } from './snapshotDiff';
import { UsageSampler } from './usageSampler';

/** A managed terminal as the ledger watches it. */
export interface TerminalWatch {
  readonly id: number;
  readonly name: string;
  readonly shellPid: number | undefined;
  /** The shell's identity once looked up; 'gone' when it exited or never had a pid. */
  shell: ProcessIdentity | 'unresolved' | 'gone';
  runActive: boolean;
  /** The agent session of the terminal's last run: what appears there from then on is recorded as its. */
  agentSession?: AgentSession;
  /** The terminal's last run ran in the sandbox: what appears there from then on is recorded so. */
  sandbox?: RunSandbox;
  /** The caps set on its shell (and its tree), once they are. */
  caps?: AppliedCaps;
  /** An MCP client watched instead of a terminal (ledger.watchClient): its processes are recorded as its own tools'. */
  readonly clientTools?: ClientTools;
  /** Which processes of one snapshot of the machine are the watch's (a client's tree without its MCP servers); default: the root's descendants. */
  readonly select?: (table: readonly ProcessInfo[]) => ProcessInfo[];
}

/** What a poll checks besides the watched trees. */
export interface PollScope {
  /** Every other live process too (other terminals' escaped processes, orphans). */
  readonly checkAll: boolean;
  /** Ports of the live processes seen. */
  readonly ports: boolean;
}

export class TreePoller {
  private readonly usage = new UsageSampler();

  constructor(
    private readonly monitor: ProcessMonitor,
    private readonly logger: Logger,
    private readonly records: SessionRecords,
  ) {}

  /**
   * New descendants of `watches` are recorded, tracked processes missing from their tree are
   * checked by identity (one that escaped its tree, e.g. by daemonizing, is still alive and stays
   * tracked), and the scope's extra checks run.
   */
  async poll(watches: readonly TerminalWatch[], scope: PollScope): Promise<void> {
    const seen = new Set<string>();
    for (const watch of watches) {
      await this.pollTree(watch, seen);
    }
    const polled = new Set(watches.map((w) => w.id));
    const live = this.records.live();
    const toCheck = live.filter((r) => !seen.has(identityKey(r)) && (scope.checkAll || (r.watchId !== undefined && polled.has(r.watchId))));
    const alive = await aliveKeys(this.monitor, toCheck);
    for (const record of toCheck) {
      if (!alive.has(identityKey(record))) {
        this.records.end(record, 'completed');
      }
    }
    const measured = live.filter((r) => seen.has(identityKey(r)) || alive.has(identityKey(r)));
    if (scope.ports) {
      await this.refreshPorts(measured);
    }
    await this.measure(measured);
  }

  /** CPU, memory and terminal waits of `records` where the OS tells; best effort, like ports. */
  private async measure(records: readonly TrackedRecord[]): Promise<void> {
    if (!this.monitor.usage || records.length === 0) return;
    try {
      const usages = await this.monitor.usage(records);
      this.usage.sample(records, usages, Date.now(), new Set(this.records.live().map(identityKey)));
      this.records.measured();
    } catch (error) {
      this.logger.debug('ledger: process usage unavailable', error);
    }
  }

  /** Ports are best effort: a failure leaves the last known ones. */
  async refreshPorts(records: readonly TrackedRecord[]): Promise<void> {
    if (records.length === 0) {
      return;
    }
    let ports: Map<number, number[]>;
    try {
      ports = await this.monitor.listeningPorts(records.map((r) => r.pid));
    } catch (error) {
      this.logger.debug('ledger: listening ports unavailable', error);
      return;
    }
    const ts = this.records.timestamp();
    for (const record of records) {
      const found = ports.get(record.pid) ?? [];
      if (found.length !== record.ports.length || found.some((p, i) => p !== record.ports[i])) {
        record.ports = found;
        this.records.log('ports', record, ts);
        this.records.changed();
      }
    }
  }

  private async pollTree(watch: TerminalWatch, seen: Set<string>): Promise<void> {
    const shell = await this.shellOf(watch);
    if (!shell) {
      return;
    }
    const descendants = watch.select ? watch.select(await this.monitor.listAll()) : await this.monitor.descendants(shell.pid);
    // Checked after the walk: if the shell is still the same process, the walk saw its children.
    if (!(await this.monitor.isAlive(shell))) {
      watch.shell = 'gone';
      return;
    }
    const diff = diffSnapshot(descendants, (key) => this.records.get(key));
    diff.seen.forEach((key) => seen.add(key));
    for (const { record, info } of diff.changed) {
      record.name = info.name;
      record.commandLine = info.commandLine;
      record.parentPid = info.ppid;
      this.records.changed();
    }
    if (watch.clientTools) this.reclaimOrphans(watch, diff.seen);
    const ts = this.records.timestamp();
    for (const info of diff.added) {
      const record = recordFromInfo(info, watch.name, watch.id, watch.agentSession, watch.clientTools);
      this.records.track(watch.sandbox ? { ...record, sandbox: watch.sandbox } : record, info.ppid === shell.pid ? 'started' : 'spawned', ts);
    }
  }

  /**
   * Orphans an earlier window adopted from a client that still lives and attached again (the window
   * reloaded) are that client's running processes again: never offered to kill_orphans.
   */
  private reclaimOrphans(watch: TerminalWatch, seen: ReadonlySet<string>): void {
    for (const key of seen) {
      const record = this.records.get(key);
      if (record?.status === 'orphaned' && record.clientTools?.pid === watch.clientTools?.pid) this.records.reclaim(record, watch.id);
    }
  }

  /** The shell's identity, looked up once per terminal: a pid alone could be reused by a stranger. */
  private async shellOf(watch: TerminalWatch): Promise<ProcessIdentity | undefined> {
    if (watch.shell === 'unresolved') {
      const info = (await this.monitor.listAll()).find((p) => p.pid === watch.shellPid);
      watch.shell = info ? { pid: info.pid, startTime: info.startTime } : 'gone';
      if (info) this.records.logShell(info, watch.name);
    }
    return watch.shell === 'gone' ? undefined : watch.shell;
  }
}
