/**
 * The process ledger's logic: which processes the managed terminals spawned, what became of
 * them, and what may be killed. It polls each terminal's tree through the OS layer (fast while a
 * command runs, slowly while only background processes remain), turns snapshot differences into
 * log events and statuses, adopts orphans of gone windows at startup, and persists through the
 * store (events appended at once; the active file and session summary debounced, bounded).
 *
 * All work that reads or changes records runs one operation at a time (`exclusive`), so a poll
 * never interleaves with a kill. Timer and event callbacks never throw: failures are logged.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../../common/src/logger';
import type { KillResult, LedgerSummary, ListProcessesResult } from '../../../../common/src/protocol';
import { isActionablePid, type ProcessIdentity, type ProcessInfo, type ProcessMonitor } from '../processes/types';
import { Emitter } from '../events';
import { defaultLedgerSettings, type LedgerSettings, type LedgerStartup, type ProcessLedger } from './api';
import { identityKey, type KillReason, type LedgerEvent, type OwnerIdentity, type SessionSummary } from './formats';
import { closingError, notOwnedError, type RefusalContext } from './killRefusal';
import type { LedgerStore } from './ledgerStore';
import { DEFAULT_TIMING, LedgerWriter, type PersistenceTiming } from './ledgerWriter';
import { claimOrphans } from './orphanClaim';
import { aliveKeys, killTrees } from './processChecks';
import { buildForest } from './processForest';
import {
  eventFor,
  identityOf,
  isLive,
  orphanFromEntry,
  recordFromInfo,
  toActiveEntry,
  toLedgerEntry,
  toSessionProcess,
  toTrackedProcess,
  type TrackedRecord,
} from './records';
import { diffSnapshot } from './snapshotDiff';

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

interface TerminalWatch {
  readonly id: number;
  readonly name: string;
  readonly shellPid: number | undefined;
  /** The shell's identity once looked up; 'gone' when it exited or never had a pid. */
  shell: ProcessIdentity | 'unresolved' | 'gone';
  runActive: boolean;
}

/** First look at a new command's tree: soon, to catch short-lived processes too. */
const FIRST_POLL_MS = 200;
/** Timers fire a little late; a check this close to due counts as due. */
const CADENCE_SLACK_MS = 50;
/**
 * Ports are read at most this often while commands run (and at every idle check): reading the
 * kernel's TCP tables costs milliseconds on machines with much memory, the tree walk far less.
 */
const PORTS_INTERVAL_MS = 2000;
/** Ended processes kept in memory (and in the session summary); older ones are only counted. */
const MAX_ENDED_KEPT = 500;
const DISPOSE_WAIT_MS = 5000;
const NO_KILLS: KillResult = { killed: [], failed: [] };

export class ProcessTracker implements ProcessLedger {
  readonly sessionId: string;
  private owner: OwnerIdentity | undefined;
  private readonly now: () => number;
  private readonly startedAt: string;
  private endedAt: string | undefined;
  private readonly records = new Map<string, TrackedRecord>();
  private readonly endedKeys: string[] = [];
  private readonly counts = { tracked: 0, completed: 0, killed: 0, adopted: 0 };
  private readonly watches = new Map<string, TerminalWatch>();
  private nextWatchId = 1;
  private pendingEvents: LedgerEvent[] = [];
  private dirty = false;
  private summaryCache: LedgerSummary | undefined;
  private readonly changeEmitter = new Emitter<LedgerSummary>();
  readonly onDidChange = this.changeEmitter.event;
  private queue: Promise<unknown> = Promise.resolve();
  private startup: Promise<LedgerStartup> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private lastFullCheckAt = Number.NEGATIVE_INFINITY;
  private lastPortsAt = Number.NEGATIVE_INFINITY;
  private readonly writer: LedgerWriter;
  private disposing: Promise<void> | undefined;

  constructor(private readonly deps: ProcessTrackerDeps) {
    this.now = deps.now ?? Date.now;
    this.owner = deps.owner;
    this.sessionId = deps.sessionId ?? newSessionId(this.now());
    this.startedAt = new Date(this.now()).toISOString();
    const sources = {
      activeEntries: async () => {
        await this.start(); // orphans are claimed before the first write
        return this.liveRecords().map((r) => toActiveEntry(r, this.sessionId, this.owner!));
      },
      sessionSummary: () => this.sessionSummary(),
    };
    this.writer = new LedgerWriter(deps.store, this.sessionId, sources, { ...DEFAULT_TIMING, ...deps.persistence }, deps.logger, deps.onWriteFailure);
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  start(): Promise<LedgerStartup> {
    this.startup ??= this.exclusive(() => this.adoptOrphans()).then(async (result) => {
      await this.writer.appended(); // the startup events are on disk when start() resolves
      this.writer.sessionChanged();
      this.reschedule();
      return result;
    });
    return this.startup;
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      clearTimeout(this.timer);
      this.timer = undefined;
      await withinMs(this.queue, DISPOSE_WAIT_MS);
      this.commit();
      this.endedAt = new Date(this.now()).toISOString();
      await withinMs(this.writer.close(), DISPOSE_WAIT_MS);
      this.changeEmitter.dispose();
    })();
    return this.disposing;
  }

  // ---- terminal events ------------------------------------------------------------------------

  terminalOpened(name: string, shellPid: number | undefined): void {
    const existing = this.watches.get(name);
    if (this.disposing || (existing && existing.shellPid === shellPid)) {
      return;
    }
    if (shellPid === undefined) {
      this.deps.logger.warn(`ledger: terminal "${name}" has no shell pid; processes started there cannot be tracked`);
    }
    this.watches.set(name, { id: this.nextWatchId++, name, shellPid, shell: shellPid === undefined ? 'gone' : 'unresolved', runActive: false });
  }

  runStarted(name: string): void {
    const watch = this.watches.get(name);
    if (!watch || this.disposing) {
      return;
    }
    watch.runActive = true;
    this.schedule(Math.min(FIRST_POLL_MS, this.readSettings().pollIntervalMs));
  }

  runEnded(name: string): void {
    const watch = this.watches.get(name);
    if (!watch || this.disposing || !watch.runActive) {
      return;
    }
    watch.runActive = false;
    // The final snapshot: background jobs (`cmd &`) outlive the run as children of the shell.
    this.exclusive(async () => {
      await this.poll([watch], { checkAll: false, ports: true });
      this.commit();
    })
      .catch((error: unknown) => this.deps.logger.warn(`ledger: final snapshot of terminal "${name}" failed`, error))
      .finally(() => this.reschedule());
  }

  terminalClosed(name: string): Promise<KillResult> {
    const watch = this.watches.get(name);
    if (!watch || this.disposing) {
      return Promise.resolve(NO_KILLS);
    }
    this.watches.delete(name);
    watch.runActive = false;
    return this.exclusive(async () => {
      await this.poll([watch], { checkAll: false, ports: false }); // a last look, in case the shell still lives
      const remaining = this.liveRecords().filter((r) => r.watchId === watch.id && r.status === 'running');
      const result = remaining.length > 0 ? await this.killRecords(remaining, 'terminal_closed') : NO_KILLS;
      this.commit();
      return result;
    }).finally(() => this.reschedule());
  }

  // ---- queries and commands -------------------------------------------------------------------

  refresh(): Promise<void> {
    if (this.disposing) {
      return Promise.resolve(); // the window is closing: nothing is polled or logged any more
    }
    return this.exclusive(async () => {
      await this.poll([...this.watches.values()], { checkAll: true, ports: true });
      this.lastFullCheckAt = this.lastPortsAt = this.now();
      this.commit();
    }).finally(() => this.reschedule());
  }

  list(): ListProcessesResult {
    const live = this.liveRecords();
    return {
      active: buildForest(live.filter((r) => r.status === 'running')),
      orphaned: buildForest(live.filter((r) => r.status === 'orphaned')),
    };
  }

  summary(): LedgerSummary {
    if (!this.summaryCache) {
      const live = this.liveRecords().sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
      this.summaryCache = Object.freeze({
        running: live.filter((r) => r.status === 'running').map(toLedgerEntry),
        orphaned: live.filter((r) => r.status === 'orphaned').map(toLedgerEntry),
      });
    }
    return this.summaryCache;
  }

  async kill(pid: number): Promise<KillResult> {
    if (this.disposing) {
      throw closingError();
    }
    const refusal = this.refusalContext(pid);
    if (!isActionablePid(pid) || pid === refusal.ownPid || refusal.shellTerminal !== undefined) {
      throw notOwnedError(pid, refusal);
    }
    const find = (): TrackedRecord | undefined => this.liveRecords().find((r) => r.pid === pid);
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
          this.end(target, 'completed');
          this.commit();
        }
        throw notOwnedError(pid, { ownPid: refusal.ownPid, ended: target });
      }
      const result = await this.killRecords([target], 'kill_request');
      await this.commitDurably();
      return result;
    }).finally(() => this.reschedule());
  }

  killOrphans(): Promise<KillResult> {
    if (this.disposing) {
      return Promise.reject(closingError());
    }
    return this.exclusive(async () => {
      if (this.disposing) {
        throw closingError();
      }
      const orphans = this.liveRecords().filter((r) => r.status === 'orphaned');
      const result = orphans.length > 0 ? await this.killRecords(orphans, 'orphan_cleanup') : NO_KILLS;
      await this.commitDurably();
      return result;
    }).finally(() => this.reschedule());
  }

  // ---- startup: orphans of gone windows -------------------------------------------------------

  private async adoptOrphans(): Promise<LedgerStartup> {
    const { store, logger } = this.deps;
    try {
      await store.init();
    } catch (error) {
      logger.error(`ledger: cannot prepare ${store.dir}; processes are tracked in memory only`, error);
      this.deps.onWriteFailure?.(store.dir, error);
    }
    const claim = await claimOrphans(this.deps, this.sessionId, this.owner);
    this.owner = claim.owner;
    const ts = new Date(this.now()).toISOString();
    for (const { entry, reason } of claim.closed) {
      this.pendingEvents.push(eventFor('closed', entry, this.sessionId, ts, { reason, fromSessionId: entry.sessionId }));
    }
    const orphans: TrackedRecord[] = [];
    for (const entry of claim.orphans) {
      const record = orphanFromEntry(entry);
      orphans.push(record);
      this.records.set(identityKey(record), record);
      this.counts.tracked++;
      this.counts.adopted++;
      this.pendingEvents.push(eventFor('orphaned', record, this.sessionId, ts, { fromSessionId: entry.sessionId }));
      this.dirty = true;
    }
    await this.refreshPorts(orphans);
    this.commit();
    if (orphans.length + claim.closed.length > 0) {
      logger.info(`ledger: ${orphans.length} orphan(s) of gone windows adopted, ${claim.closed.length} gone entr(ies) closed`);
    }
    return {
      orphans: orphans.map(toTrackedProcess),
      closed: claim.closed.length,
      foreign: claim.foreign,
      skippedEntries: claim.skippedEntries,
      activeFileCorrupt: claim.activeFileCorrupt,
    };
  }

  // ---- polling --------------------------------------------------------------------------------

  private schedule(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (this.disposing || (this.timer !== undefined && this.timerDue <= due)) {
      return;
    }
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      void this.tick();
    }, delayMs);
    this.timer.unref();
  }

  /** Next tick: fast while a command runs somewhere, slow while only live processes remain, none otherwise. */
  private reschedule(): void {
    const settings = this.readSettings();
    if ([...this.watches.values()].some((w) => w.runActive)) {
      this.schedule(settings.pollIntervalMs);
    } else if (this.liveRecords().length > 0) {
      this.schedule(settings.idlePollIntervalMs);
    }
  }

  private async tick(): Promise<void> {
    try {
      await this.exclusive(async () => {
        const now = this.now();
        const checkAll = now - this.lastFullCheckAt >= this.readSettings().idlePollIntervalMs - CADENCE_SLACK_MS;
        const live = this.liveRecords();
        const ports = checkAll || now - this.lastPortsAt >= PORTS_INTERVAL_MS - CADENCE_SLACK_MS;
        const due = [...this.watches.values()].filter((w) => w.runActive || (checkAll && live.some((r) => r.watchId === w.id)));
        await this.poll(due, { checkAll, ports });
        if (checkAll) {
          this.lastFullCheckAt = now;
        }
        if (ports) {
          this.lastPortsAt = now;
        }
        this.commit();
      });
    } catch (error) {
      this.deps.logger.warn('ledger: polling processes failed', error);
    }
    this.reschedule();
  }

  /**
   * One look at `watches`' trees: new descendants are recorded, tracked processes missing from
   * their tree are checked by identity (one that escaped its tree, e.g. by daemonizing, is still
   * alive and stays tracked), and, with `ports`, ports are refreshed. `checkAll` also checks
   * every other live process (other terminals' escaped processes, orphans).
   */
  private async poll(watches: readonly TerminalWatch[], what: { readonly checkAll: boolean; readonly ports: boolean }): Promise<void> {
    const seen = new Set<string>();
    for (const watch of watches) {
      await this.pollTree(watch, seen);
    }
    const polled = new Set(watches.map((w) => w.id));
    const live = this.liveRecords();
    const toCheck = live.filter((r) => !seen.has(identityKey(r)) && (what.checkAll || (r.watchId !== undefined && polled.has(r.watchId))));
    const alive = await aliveKeys(this.deps.monitor, toCheck);
    for (const record of toCheck) {
      if (!alive.has(identityKey(record))) {
        this.end(record, 'completed');
      }
    }
    if (what.ports) {
      await this.refreshPorts(live.filter((r) => seen.has(identityKey(r)) || alive.has(identityKey(r))));
    }
  }

  private async pollTree(watch: TerminalWatch, seen: Set<string>): Promise<void> {
    const shell = await this.shellOf(watch);
    if (!shell) {
      return;
    }
    const { monitor } = this.deps;
    const descendants = await monitor.descendants(shell.pid);
    // Checked after the walk: if the shell is still the same process, the walk saw its children.
    if (!(await monitor.isAlive(shell))) {
      watch.shell = 'gone';
      return;
    }
    const diff = diffSnapshot(descendants, (key) => this.records.get(key));
    diff.seen.forEach((key) => seen.add(key));
    for (const { record, info } of diff.changed) {
      record.name = info.name;
      record.commandLine = info.commandLine;
      record.parentPid = info.ppid;
      this.dirty = true;
    }
    const ts = new Date(this.now()).toISOString();
    for (const info of diff.added) {
      const record = recordFromInfo(info, watch.name, watch.id);
      this.records.set(identityKey(record), record);
      this.counts.tracked++;
      this.pendingEvents.push(eventFor(info.ppid === shell.pid ? 'started' : 'spawned', record, this.sessionId, ts));
      this.dirty = true;
    }
  }

  /** The shell's identity, looked up once per terminal: a pid alone could be reused by a stranger. */
  private async shellOf(watch: TerminalWatch): Promise<ProcessIdentity | undefined> {
    if (watch.shell === 'unresolved') {
      const info = (await this.deps.monitor.listAll()).find((p) => p.pid === watch.shellPid);
      watch.shell = info ? { pid: info.pid, startTime: info.startTime } : 'gone';
    }
    return watch.shell === 'gone' ? undefined : watch.shell;
  }

  /** Ports are best effort: a failure leaves the last known ones. */
  private async refreshPorts(records: readonly TrackedRecord[]): Promise<void> {
    if (records.length === 0) {
      return;
    }
    let ports: Map<number, number[]>;
    try {
      ports = await this.deps.monitor.listeningPorts(records.map((r) => r.pid));
    } catch (error) {
      this.deps.logger.debug('ledger: listening ports unavailable', error);
      return;
    }
    const ts = new Date(this.now()).toISOString();
    for (const record of records) {
      const now = ports.get(record.pid) ?? [];
      if (now.length !== record.ports.length || now.some((p, i) => p !== record.ports[i])) {
        record.ports = now;
        this.pendingEvents.push(eventFor('ports', record, this.sessionId, ts));
        this.dirty = true;
      }
    }
  }

  // ---- killing --------------------------------------------------------------------------------

  /**
   * Kills the targets' trees and logs the outcome of every process involved, by identity: a child
   * born since the last poll is recorded (spawned) before it is logged killed, and a tracked
   * process whose pid a killed stranger reused is not taken for it.
   */
  private async killRecords(targets: readonly TrackedRecord[], reason: KillReason): Promise<KillResult> {
    const kills = await killTrees(this.deps.monitor, targets.filter(isLive));
    const killed = new Set<number>();
    const failed = new Set<number>();
    const killedKeys = new Set<string>();
    for (const { target, result } of kills) {
      const seen = new Map(result.targets.map((p) => [p.pid, p]));
      // The tree as the kill saw it: what no poll had seen is recorded first (the failed ones
      // stay tracked), so the log tells who existed before it tells who was killed.
      for (const info of result.targets) {
        if (!this.records.has(identityKey(info)) && info.pid !== target.pid) {
          this.recordUnseen(info, target);
        }
      }
      for (const pid of result.killed) {
        const info = seen.get(pid);
        const record = info && this.records.get(identityKey(info));
        if (record && isLive(record)) {
          this.end(record, 'killed', reason);
        }
        if (info) killedKeys.add(identityKey(info));
        killed.add(pid);
        failed.delete(pid);
      }
      result.failed.filter((pid) => !killed.has(pid)).forEach((pid) => failed.add(pid));
    }
    // Targets that were not killed (already gone), and tracked processes whose pid the kill found
    // on another process: ended on their own, unless still alive.
    const unaccounted = this.liveRecords().filter(
      (r) => (targets.includes(r) && !failed.has(r.pid)) || ((killed.has(r.pid) || failed.has(r.pid)) && !killedKeys.has(identityKey(r))),
    );
    const alive = await aliveKeys(this.deps.monitor, unaccounted);
    unaccounted.filter((r) => !alive.has(identityKey(r))).forEach((r) => this.end(r, 'completed'));
    if (failed.size > 0) {
      this.deps.logger.warn(`ledger: could not kill ${[...failed].join(', ')} (${reason})`);
    }
    return { killed: [...killed].sort((a, b) => a - b), failed: [...failed].sort((a, b) => a - b) };
  }

  /** A process of a tracked tree that no poll saw: recorded (and logged) under the tree's terminal. */
  private recordUnseen(info: ProcessInfo, treeRoot: TrackedRecord): TrackedRecord {
    const record: TrackedRecord = {
      ...recordFromInfo(info, treeRoot.terminalName, treeRoot.watchId),
      ...(treeRoot.status === 'orphaned' ? { status: 'orphaned' as const } : {}),
      ...(treeRoot.originSessionId !== undefined ? { originSessionId: treeRoot.originSessionId } : {}),
    };
    this.records.set(identityKey(record), record);
    this.counts.tracked++;
    this.pendingEvents.push(eventFor('spawned', record, this.sessionId, new Date(this.now()).toISOString()));
    this.dirty = true;
    return record;
  }

  private refusalContext(pid: number): RefusalContext {
    const shell = [...this.watches.values()].find((w) => w.shellPid === pid);
    const ended = [...this.records.values()].filter((r) => r.pid === pid && !isLive(r)).pop();
    return {
      ownPid: process.pid,
      ...(shell ? { shellTerminal: shell.name } : {}),
      ...(ended ? { ended } : {}),
    };
  }

  // ---- records and persistence ----------------------------------------------------------------

  private liveRecords(): TrackedRecord[] {
    return [...this.records.values()].filter(isLive);
  }

  private end(record: TrackedRecord, status: 'completed' | 'killed', reason?: KillReason): void {
    record.status = status;
    record.endedAt = new Date(this.now()).toISOString();
    this.counts[status]++;
    this.pendingEvents.push(eventFor(status, record, this.sessionId, record.endedAt, reason ? { reason } : {}));
    this.dirty = true;
    this.endedKeys.push(identityKey(record));
    if (this.endedKeys.length > MAX_ENDED_KEPT) {
      this.records.delete(this.endedKeys.shift()!);
    }
  }

  /**
   * A commit whose events are in process-log.jsonl before the caller answers: whoever asked for a
   * kill may read the log next.
   */
  private async commitDurably(): Promise<void> {
    this.commit();
    await this.writer.appended();
  }

  /** Hands what changed to the log (at once), the debounced writers and the listeners. */
  private commit(): void {
    this.writer.append(this.pendingEvents);
    this.pendingEvents = [];
    if (!this.dirty) {
      return;
    }
    this.dirty = false;
    this.summaryCache = undefined;
    this.writer.changed();
    this.changeEmitter.fire(this.summary());
  }

  private sessionSummary(): SessionSummary {
    const records = [...this.records.values()];
    const owner = this.owner ?? { pid: process.pid, startTime: '' };
    return {
      version: 1,
      sessionId: this.sessionId,
      owner,
      startedAt: this.startedAt,
      ...(this.endedAt !== undefined ? { endedAt: this.endedAt } : {}),
      updatedAt: new Date(this.now()).toISOString(),
      counts: {
        ...this.counts,
        running: records.filter((r) => r.status === 'running').length,
        orphaned: records.filter((r) => r.status === 'orphaned').length,
      },
      processes: records.map(toSessionProcess),
    };
  }

  /** The settings as given (the settings table holds them to their ranges); idle polls never outpace busy ones. */
  private readSettings(): LedgerSettings {
    let s: LedgerSettings;
    try {
      s = this.deps.settings();
    } catch (error) {
      this.deps.logger.warn('ledger: reading settings failed; using defaults', error);
      s = defaultLedgerSettings;
    }
    return { ...s, idlePollIntervalMs: Math.max(s.idlePollIntervalMs, s.pollIntervalMs) };
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
