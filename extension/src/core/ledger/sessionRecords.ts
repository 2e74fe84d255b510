/**
 * This window session's process records in memory, what changed since the last commit, and the
 * commit that hands the changes on: events to the log at once, the active file and session
 * summary to the debounced (bounded) writers, the new summary to the listeners. Ended records
 * are kept up to a bound; older ones are only counted.
 *
 * No lock and no OS access here: the tracker calls it from its one operation at a time.
 */
import type { LedgerSummary } from '../../../../common/src/protocol';
import { Emitter } from '../events';
import type { ProcessInfo } from '../processes/types';
import { identityKey, type ActiveEntry, type KillReason, type LedgerEvent, type LedgerEventKind, type OwnerIdentity, type SessionSummary } from './formats';
import type { LedgerWriter } from './ledgerWriter';
import { eventFor, isLive, toActiveEntry, toLedgerEntry, toSessionProcess, type TrackedRecord } from './records';

/** Ended processes kept in memory (and in the session summary); older ones are only counted. */
const MAX_ENDED_KEPT = 500;

export interface SessionRecordsOptions {
  readonly sessionId: string;
  /** This window, as other windows will check it; unknown until startup looked it up. */
  readonly owner: OwnerIdentity | undefined;
  /** Wall clock in ms since the epoch, for every timestamp. */
  readonly now: () => number;
  readonly writer: LedgerWriter;
}

export class SessionRecords {
  readonly sessionId: string;
  owner: OwnerIdentity | undefined;
  private readonly now: () => number;
  private readonly writer: LedgerWriter;
  private readonly startedAt: string;
  private endedAt: string | undefined;
  private readonly records = new Map<string, TrackedRecord>();
  private readonly endedKeys: string[] = [];
  private readonly counts = { tracked: 0, completed: 0, killed: 0, adopted: 0 };
  private pendingEvents: LedgerEvent[] = [];
  private dirty = false;
  private summaryCache: LedgerSummary | undefined;
  private readonly changeEmitter = new Emitter<LedgerSummary>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(options: SessionRecordsOptions) {
    this.sessionId = options.sessionId;
    this.owner = options.owner;
    this.now = options.now;
    this.writer = options.writer;
    this.startedAt = this.timestamp();
  }

  /** Now, as the log and the files write it. */
  timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  get(key: string): TrackedRecord | undefined {
    return this.records.get(key);
  }

  /** Live and ended (the kept ones). */
  all(): TrackedRecord[] {
    return [...this.records.values()];
  }

  live(): TrackedRecord[] {
    return this.all().filter(isLive);
  }

  /** A process seen for the first time: kept, counted and logged. */
  track(record: TrackedRecord, kind: 'started' | 'spawned' | 'orphaned', ts: string, extra: Pick<LedgerEvent, 'fromSessionId'> = {}): void {
    this.records.set(identityKey(record), record);
    this.counts.tracked++;
    if (kind === 'orphaned') {
      this.counts.adopted++;
    }
    this.log(kind, record, ts, extra);
    this.dirty = true;
  }

  end(record: TrackedRecord, status: 'completed' | 'killed', reason?: KillReason): void {
    record.status = status;
    record.endedAt = this.timestamp();
    this.counts[status]++;
    this.log(status, record, record.endedAt, reason ? { reason } : {});
    this.dirty = true;
    this.endedKeys.push(identityKey(record));
    if (this.endedKeys.length > MAX_ENDED_KEPT) {
      this.records.delete(this.endedKeys.shift()!);
    }
  }

  /** An orphan seen again under the live client whose tools started it: running again, in that client's watch. */
  reclaim(record: TrackedRecord, watchId: number): void {
    this.records.set(identityKey(record), { ...record, status: 'running', watchId });
    this.dirty = true;
  }

  /** An event for the log alone; what changed a record's fields also calls `changed`. */
  log(kind: LedgerEventKind, subject: TrackedRecord | ActiveEntry, ts: string, extra: Pick<LedgerEvent, 'reason' | 'fromSessionId'> = {}): void {
    this.pendingEvents.push(eventFor(kind, subject, this.sessionId, ts, extra));
  }

  /** The session began (its owner known) or ended cleanly: a log line other windows replay the log by. */
  logSession(kind: 'session_started' | 'session_ended'): void {
    const owner = this.owner ?? { pid: process.pid, startTime: '' };
    this.pendingEvents.push({ event: kind, ts: this.timestamp(), sessionId: this.sessionId, pid: owner.pid, startTime: owner.startTime, name: 'extension host', terminal: '' });
  }

  /** A terminal's shell, first seen: the log line a later window finds its processes by where their environment cannot be read. */
  logShell(shell: ProcessInfo, terminal: string): void {
    this.pendingEvents.push({ event: 'session_shell', ts: this.timestamp(), sessionId: this.sessionId, pid: shell.pid, startTime: shell.startTime, name: shell.name, terminal, startedAt: shell.startedAt });
  }

  /** A record's fields changed: the files and listeners learn of it at the next commit. */
  changed(): void {
    this.dirty = true;
  }

  /** Costs were measured: the summary shows the new figures (nothing to write or announce: they change every poll). */
  measured(): void {
    this.summaryCache = undefined;
  }

  /** Hands what changed to the log (at once), the debounced writers and the listeners. */
  commit(): void {
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

  /**
   * A commit whose events are in process-log.jsonl before the caller answers: whoever asked for a
   * kill may read the log next.
   */
  async commitDurably(): Promise<void> {
    this.commit();
    await this.writer.appended();
  }

  summary(): LedgerSummary {
    if (!this.summaryCache) {
      const live = this.live().sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
      this.summaryCache = Object.freeze({
        running: live.filter((r) => r.status === 'running').map(toLedgerEntry),
        orphaned: live.filter((r) => r.status === 'orphaned').map(toLedgerEntry),
      });
    }
    return this.summaryCache;
  }

  /** This window's entries of active-processes.json (call it once startup knows the owner). */
  activeEntries(): ActiveEntry[] {
    return this.live().map((r) => toActiveEntry(r, this.sessionId, this.owner!));
  }

  sessionSummary(): SessionSummary {
    const records = this.all();
    const owner = this.owner ?? { pid: process.pid, startTime: '' };
    return {
      version: 1,
      sessionId: this.sessionId,
      owner,
      startedAt: this.startedAt,
      ...(this.endedAt !== undefined ? { endedAt: this.endedAt } : {}),
      updatedAt: this.timestamp(),
      counts: {
        ...this.counts,
        running: records.filter((r) => r.status === 'running').length,
        orphaned: records.filter((r) => r.status === 'orphaned').length,
      },
      processes: records.map(toSessionProcess),
    };
  }

  /** The session ends now: the last session summary says so. */
  markEnded(): void {
    this.endedAt = this.timestamp();
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
