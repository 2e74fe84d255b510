/**
 * The process ledger's coordinator: which processes the managed terminals spawned, what became of
 * them, and what may be killed. Terminal events and requests come in here; the jobs live next
 * door: when to poll (pollCadence), one look at the trees (treePoller), killing by identity
 * (recordKills), adopting orphans of gone windows at startup (orphanAdoption), and the session's
 * records with the commit that persists them (sessionRecords: events appended at once; the active
 * file and session summary debounced, bounded).
 *
 * All work that reads or changes records runs one operation at a time (`exclusive`), so a poll
 * never interleaves with a kill. Timer and event callbacks never throw: failures are logged.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../../common/src/logger';
import type { AgentSession, KillResult, LedgerSummary, ListProcessesResult } from '../../../../common/src/protocol';
import type { Disposable, Event } from '../events';
import { applyCaps, type AppliedCaps } from '../processes/processLimits';
import { detectTreeCap, linuxCgroupFacts, sweepEmptyCgroups, type TreeCapSupport } from '../processes/treeMemoryCap';
import { isActionablePid, type ProcessMonitor } from '../processes/types';
import type { ClientWatch, LedgerSettings, LedgerStartup, ProcessLedger } from './api';
import type { DecisionEvent, OwnerIdentity, RunSandbox } from './formats';
import { closingError, notOwnedError, type RefusalContext } from './killRefusal';
import type { LedgerStore } from './ledgerStore';
import { DEFAULT_TIMING, LedgerWriter, type PersistenceTiming } from './ledgerWriter';
import { adoptOrphans } from './orphanAdoption';
import { PollCadence, type PollActivity } from './pollCadence';
import { buildForest } from './processForest';
import { killRecords } from './recordKills';
import { identityOf, isLive, type TrackedRecord } from './records';
import { SessionRecords } from './sessionRecords';
import { TreePoller, type TerminalWatch } from './treePoller';
import { treeUsage, type TreeUsage } from './usageSampler';

export interface ProcessTrackerDeps {
  readonly monitor: ProcessMonitor;
  readonly store: LedgerStore;
  readonly settings: () => LedgerSettings;
  readonly logger: Logger;
  /** Wall clock in ms since the epoch (timestamps and cadence). Default Date.now. */
  readonly now?: () => number;
  /** This window, as other windows will check it. Default: this process, start time from the monitor. */
  readonly owner?: OwnerIdentity;
  readonly sessionId?: string;
  readonly persistence?: Partial<PersistenceTiming>;
  /** Every failure to write the data dir (the log has each; the user is told once). */
  readonly onWriteFailure?: (path: string, error: unknown) => void;
}

const DISPOSE_WAIT_MS = 5000;
const NO_KILLS: KillResult = { killed: [], failed: [] };

export class ProcessTracker implements ProcessLedger {
  readonly sessionId: string;
  readonly onDidChange: Event<LedgerSummary>;
  private readonly records: SessionRecords;
  private readonly writer: LedgerWriter;
  private readonly poller: TreePoller;
  private readonly cadence: PollCadence;
  private readonly watches = new Map<string, TerminalWatch>();
  /** MCP clients watched (watchClient), apart from terminals: their names are no terminal's. */
  private readonly clients = new Set<TerminalWatch>();
  private nextWatchId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private startup: Promise<LedgerStartup> | undefined;
  /** Where a per-tree memory cap can go (found at the first capped terminal, once per window). */
  private treeCaps: Promise<TreeCapSupport> | undefined;
  private disposing: Promise<void> | undefined;

  constructor(private readonly deps: ProcessTrackerDeps) {
    const now = deps.now ?? Date.now;
    this.sessionId = deps.sessionId ?? newSessionId(now());
    const sources = {
      activeEntries: async () => {
        await this.start(); // orphans are claimed before the first write
        return this.records.activeEntries();
      },
      sessionSummary: () => this.records.sessionSummary(),
    };
    this.writer = new LedgerWriter(deps.store, this.sessionId, sources, { ...DEFAULT_TIMING, ...deps.persistence }, deps.logger, deps.onWriteFailure);
    this.records = new SessionRecords({ sessionId: this.sessionId, owner: deps.owner, now, writer: this.writer });
    this.onDidChange = this.records.onDidChange;
    this.poller = new TreePoller(deps.monitor, deps.logger, this.records);
    this.cadence = new PollCadence({
      now,
      settings: deps.settings,
      logger: deps.logger,
      activity: () => this.activity(),
      poll: () => this.pollDue(),
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  start(): Promise<LedgerStartup> {
    this.startup ??= this.exclusive(() => adoptOrphans(this.deps, this.records, this.poller)).then(async (result) => {
      await this.writer.appended(); // the startup events are on disk when start() resolves
      this.writer.sessionChanged();
      this.cadence.reschedule();
      return result;
    });
    return this.startup;
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.cadence.stop();
      await withinMs(this.queue, DISPOSE_WAIT_MS);
      this.records.commit();
      this.records.markEnded();
      await withinMs(this.writer.close(), DISPOSE_WAIT_MS);
      // After the last snapshot: from here active-processes.json alone says what this session left running.
      this.records.logSession('session_ended');
      this.records.commit();
      await withinMs(this.writer.appended(), DISPOSE_WAIT_MS);
      this.records.dispose();
    })();
    return this.disposing;
  }

  // ---- terminal events ------------------------------------------------------------------------

  private treeCapSupport(): Promise<TreeCapSupport> {
    this.treeCaps ??= linuxCgroupFacts()
      .then(detectTreeCap)
      .then(async (support) => {
        const swept = support.kind === 'none' ? 0 : await sweepEmptyCgroups(support.parent);
        this.deps.logger.info(`ledger: memory caps per tree: ${support.kind === 'none' ? `not available (${support.reason})` : `${support.kind} under ${support.parent}${swept > 0 ? `, ${swept} empty cgroups of gone windows removed` : ''}`}`);
        return support;
      });
    return this.treeCaps;
  }

  terminalOpened(name: string, shellPid: number | undefined): void {
    const existing = this.watches.get(name);
    if (this.disposing || (existing && existing.shellPid === shellPid)) {
      return;
    }
    if (shellPid === undefined) {
      this.deps.logger.warn(`ledger: terminal "${name}" has no shell pid; processes started there cannot be tracked`);
    }
    const watch: TerminalWatch = { id: this.nextWatchId++, name, shellPid, shell: shellPid === undefined ? 'gone' : 'unresolved', runActive: false };
    this.watches.set(name, watch);
    const limits = this.deps.settings().limits;
    if (shellPid !== undefined && limits && (limits.memoryBytes !== undefined || limits.cpuSeconds !== undefined)) {
      void applyCaps(shellPid, limits, `${this.sessionId}-${watch.id}`, () => this.treeCapSupport()).then(({ caps, problems }) => {
        watch.caps = caps;
        if (problems.length > 0) this.deps.logger.warn(`ledger: terminal "${name}": ${caps ? '' : 'runs without the memory and CPU caps: '}${problems.join('; ')}`);
        if (caps?.tree) this.deps.logger.info(`ledger: terminal "${name}": its processes together may use ${limits.memoryBytes} bytes (${caps.tree.cap.mechanism}, ${caps.tree.cap.dir})`);
      });
    }
  }

  runStarted(name: string, agentSession?: AgentSession, sandbox?: RunSandbox): void {
    const watch = this.watches.get(name);
    if (!watch || this.disposing) {
      return;
    }
    watch.runActive = true;
    watch.caps?.tree?.cap.mark();
    watch.agentSession = agentSession;
    watch.sandbox = sandbox;
    this.cadence.runStarted();
  }

  runEnded(name: string): void {
    const watch = this.watches.get(name);
    if (!watch || this.disposing || !watch.runActive) {
      return;
    }
    watch.runActive = false;
    // The final snapshot: background jobs (`cmd &`) outlive the run as children of the shell.
    this.exclusive(async () => {
      await this.poller.poll([watch], { checkAll: false, ports: true });
      this.records.commit();
    })
      .catch((error: unknown) => this.deps.logger.warn(`ledger: final snapshot of terminal "${name}" failed`, error))
      .finally(() => this.cadence.reschedule());
  }

  terminalClosed(name: string): Promise<KillResult> {
    const watch = this.watches.get(name);
    if (!watch || this.disposing) {
      return Promise.resolve(NO_KILLS);
    }
    this.watches.delete(name);
    watch.runActive = false;
    return this.exclusive(async () => {
      await this.poller.poll([watch], { checkAll: false, ports: false }); // a last look, in case the shell still lives
      const remaining = this.records.live().filter((r) => r.watchId === watch.id && r.status === 'running');
      const result = remaining.length > 0 ? await killRecords(this.deps, this.records, remaining, 'terminal_closed') : NO_KILLS;
      this.records.commit();
      return result;
    }).finally(() => {
      void watch.caps?.tree?.cap.dispose(); // empty once the shell is gone; else the next window's sweep removes it
      this.cadence.reschedule();
    });
  }

  watchClient(client: ClientWatch): Disposable {
    const watch: TerminalWatch = {
      id: this.nextWatchId++,
      name: client.label,
      shellPid: client.identity.pid,
      shell: { pid: client.identity.pid, startTime: client.identity.startTime },
      runActive: false,
      clientTools: client.clientTools,
      select: client.select,
      ...(client.agentSession ? { agentSession: client.agentSession } : {}),
    };
    if (this.disposing) return { dispose: () => undefined };
    this.clients.add(watch);
    this.cadence.reschedule();
    return {
      dispose: () => {
        if (!this.clients.delete(watch) || this.disposing) return;
        void this.exclusive(async () => {
          this.orphanClientProcesses(watch);
          this.records.commit();
        }).catch((error: unknown) => this.deps.logger.warn(`ledger: ending the watch of ${watch.name} failed`, error));
      },
    };
  }

  /** A client gone or no longer watched: what its tools left running is an orphan now (kill_orphans ends it). */
  private orphanClientProcesses(watch: TerminalWatch): void {
    const ts = this.records.timestamp();
    for (const record of this.records.live().filter((r) => r.watchId === watch.id && r.status === 'running')) {
      record.status = 'orphaned';
      this.records.log('orphaned', record, ts);
      this.records.changed();
    }
  }

  /** After a poll: clients that exited leave their processes as orphans. */
  private endGoneClients(): void {
    for (const watch of this.clients) {
      if (watch.shell !== 'gone') continue;
      this.clients.delete(watch);
      this.orphanClientProcesses(watch);
    }
  }

  // ---- queries and commands -------------------------------------------------------------------

  refresh(): Promise<void> {
    if (this.disposing) {
      return Promise.resolve(); // the window is closing: nothing is polled or logged any more
    }
    return this.exclusive(async () => {
      await this.poller.poll([...this.watches.values(), ...this.clients], { checkAll: true, ports: true });
      this.endGoneClients();
      this.cadence.checkedAll();
      this.records.commit();
    }).finally(() => this.cadence.reschedule());
  }

  list(): ListProcessesResult {
    const live = this.records.live();
    return {
      active: buildForest(live.filter((r) => r.status === 'running')),
      orphaned: buildForest(live.filter((r) => r.status === 'orphaned')),
    };
  }

  recordDecision(decision: Omit<DecisionEvent, 'event' | 'ts' | 'sessionId'>): void {
    this.writer.append([{ event: 'decided', ts: new Date().toISOString(), sessionId: this.sessionId, ...decision }]);
  }

  summary(): LedgerSummary {
    return this.records.summary();
  }

  capsOf(terminalName: string): AppliedCaps | undefined {
    return this.watches.get(terminalName)?.caps;
  }

  treeUsage(terminalName: string): TreeUsage | undefined {
    const watch = this.watches.get(terminalName);
    return watch && treeUsage(this.records.live().filter((r) => r.watchId === watch.id && r.status === 'running'));
  }

  async kill(pid: number): Promise<KillResult> {
    if (this.disposing) {
      throw closingError();
    }
    const refusal = this.refusalContext(pid);
    if (!isActionablePid(pid) || pid === refusal.ownPid || refusal.shellTerminal !== undefined) {
      throw notOwnedError(pid, refusal);
    }
    const find = (): TrackedRecord | undefined => this.records.live().find((r) => r.pid === pid);
    let record = find();
    if (!record) {
      await this.refresh(); // it may have appeared since the last poll
      record = find();
    }
    if (!record) {
      throw notOwnedError(pid, this.refusalContext(pid));
    }
    const target = record;
    return this.exclusive(async () => {
      if (this.disposing) {
        throw closingError();
      }
      if (!isLive(target) || !(await this.deps.monitor.isAlive(identityOf(target)))) {
        if (isLive(target)) {
          this.records.end(target, 'completed');
          this.records.commit();
        }
        throw notOwnedError(pid, { ownPid: refusal.ownPid, ended: target });
      }
      const result = await killRecords(this.deps, this.records, [target], 'kill_request');
      await this.records.commitDurably();
      return result;
    }).finally(() => this.cadence.reschedule());
  }

  killOrphans(): Promise<KillResult> {
    if (this.disposing) {
      return Promise.reject(closingError());
    }
    return this.exclusive(async () => {
      if (this.disposing) {
        throw closingError();
      }
      const orphans = this.records.live().filter((r) => r.status === 'orphaned');
      const result = orphans.length > 0 ? await killRecords(this.deps, this.records, orphans, 'orphan_cleanup') : NO_KILLS;
      await this.records.commitDurably();
      return result;
    }).finally(() => this.cadence.reschedule());
  }

  // ---- coordination ---------------------------------------------------------------------------

  /** The cadence's tick: the trees of running commands, and at the idle cadence every tree with live processes. */
  private pollDue(): Promise<void> {
    return this.exclusive(async () => {
      const due = this.cadence.due();
      const live = this.records.live();
      const watches = [...this.watches.values()].filter((w) => w.runActive || (due.checkAll && live.some((r) => r.watchId === w.id)));
      await this.poller.poll(due.checkAll ? [...watches, ...this.clients] : watches, due);
      this.endGoneClients();
      this.cadence.polled(due);
      this.records.commit();
    });
  }

  private activity(): PollActivity {
    if ([...this.watches.values()].some((w) => w.runActive)) {
      return 'running';
    }
    return this.records.live().length > 0 || this.clients.size > 0 ? 'idle' : 'quiet';
  }

  private refusalContext(pid: number): RefusalContext {
    const shell = [...this.watches.values()].find((w) => w.shellPid === pid);
    const ended = this.records.all().filter((r) => r.pid === pid && !isLive(r)).pop();
    return {
      ownPid: process.pid,
      ...(shell ? { shellTerminal: shell.name } : {}),
      ...(ended ? { ended } : {}),
    };
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Sortable and file-name safe: 20250101T103000Z-<pid>-<random>. */
function newSessionId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Waits for `promise`, at most `ms` (rejections count as done: callers only need it settled). */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
