/**
 * A starting window's look at active-processes.json, and at process-log.jsonl for what the file
 * never got (logReconcile: a window that died within a second of a start): one process snapshot
 * decides (startupPlan), then the decisions are confirmed under the lock. Only entries still held
 * by the gone session they were planned from are taken, and a process known only from the log
 * only while no window holds it (another window starting at the same moment may have been
 * faster); adopted orphans are rewritten as this window's entries, closed ones removed.
 */
import type { Logger } from '../../../../common/src/logger';
import type { ProcessInfo, ProcessMonitor } from '../processes/types';
import { identityKey, type ActiveEntry, type LedgerEvent, type OwnerIdentity } from './formats';
import type { ActiveUpdate, LedgerStore } from './ledgerStore';
import { unsnapshotted } from './logReconcile';
import { loggedShells, markedEntries } from './orphanMarks';
import { MARK_NAMES } from './processMarks';
import { orphanFromEntry, toActiveEntry } from './records';
import { planStartup, type StartupPlan } from './startupPlan';

export interface OrphanClaim {
  /** This window as other windows will check it. */
  readonly owner: OwnerIdentity;
  /** Entries of gone windows whose process lives on, now this window's. */
  readonly orphans: readonly ActiveEntry[];
  /** Entries of gone windows whose process is gone or whose pid was reused, now removed. */
  readonly closed: StartupPlan['closed'];
  readonly foreign: number;
  readonly skippedEntries: number;
  readonly activeFileCorrupt: boolean;
  /** Entries known only from the process log (their window died before its snapshot). */
  readonly fromLog: number;
  /** Entries known only from the mark in their environment (no poll of their window saw them). */
  readonly fromMarks: number;
  /** How long the scan for marked processes took (ms); undefined where the OS has none. */
  readonly markScanMs?: number;
}

export interface ClaimDeps {
  readonly store: LedgerStore;
  readonly monitor: ProcessMonitor;
  readonly logger: Logger;
}

/** Never rejects: whatever cannot be checked is left for the next window to check. */
export async function claimOrphans(deps: ClaimDeps, sessionId: string, knownOwner: OwnerIdentity | undefined): Promise<OrphanClaim> {
  const { store, monitor, logger } = deps;
  const table = await monitor.listAll().catch((error: unknown) => {
    logger.warn('ledger: cannot list processes; orphans of earlier windows are not checked', error);
    return [] as ProcessInfo[];
  });
  const owner = knownOwner ?? ownIdentity(table, logger);
  const nothing: OrphanClaim = { owner, orphans: [], closed: [], foreign: 0, skippedEntries: 0, activeFileCorrupt: false, fromLog: 0, fromMarks: 0 };
  if (table.length === 0) {
    return nothing;
  }
  const active = await store.readActive().catch((error: unknown) => {
    logger.warn(`ledger: cannot read ${store.activePath}; orphans of earlier windows are not checked`, error);
    return undefined;
  });
  if (!active) {
    return nothing;
  }
  const events = await store.readEvents().catch((error: unknown) => {
    logger.warn(`ledger: cannot read ${store.logPath}; processes only it knows of are not checked`, error);
    return { items: [], skipped: 0 };
  });
  const pids = new Set(table.map((p) => p.pid));
  const logged = unsnapshotted(events.items, active.entries, sessionId, (pid) => pids.has(pid));
  const scan = await scanMarks(deps, events.items, sessionId, owner, table);
  // The files first: where they know a process, their record (ports, agent session) wins.
  const known = new Set([...active.entries, ...logged].map(identityKey));
  const marked = scan.entries.filter((e) => !known.has(identityKey(e)));
  const plan = planStartup([...active.entries, ...logged, ...marked], { table, sessionId, owner });
  const found = {
    ...nothing,
    foreign: plan.foreign,
    skippedEntries: active.skipped,
    activeFileCorrupt: active.corrupt,
    fromLog: logged.length,
    fromMarks: marked.length,
    ...(scan.ms !== undefined ? { markScanMs: scan.ms } : {}),
  };
  if (plan.orphans.length + plan.closed.length + plan.superseded.length === 0) {
    return found;
  }
  // Known to no window's file: taken only while no window holds them.
  const fromLog = new Set([...logged, ...marked].map(identityKey));
  try {
    return { ...found, ...(await store.updateActive((current) => claim(current, plan, sessionId, owner, fromLog))) };
  } catch (error) {
    logger.warn('ledger: could not claim the entries of gone windows; they are checked again next time', error);
    return found;
  }
}

function claim(current: readonly ActiveEntry[], plan: StartupPlan, sessionId: string, owner: OwnerIdentity, fromLog: ReadonlySet<string>): ActiveUpdate<Pick<OrphanClaim, 'orphans' | 'closed'>> {
  const held = (e: ActiveEntry): string => `${identityKey(e)}#${e.sessionId}`;
  const present = new Set(current.map(held));
  const anyHolder = new Set(current.map(identityKey));
  // Still the gone session's in the file; or, known from the log alone, still no window's.
  const stillOpen = (e: ActiveEntry): boolean => (fromLog.has(identityKey(e)) ? !anyHolder.has(identityKey(e)) : present.has(held(e)));
  const orphans = plan.orphans.filter(stillOpen);
  const closed = plan.closed.filter((c) => stillOpen(c.entry));
  const taken = new Set([...orphans, ...closed.map((c) => c.entry), ...plan.superseded].map(held));
  const adopted = orphans.map((e) => toActiveEntry(orphanFromEntry(e), sessionId, owner));
  return { entries: [...current.filter((e) => !taken.has(held(e))), ...adopted], result: { orphans, closed } };
}

/** The marked processes of this ledger's gone sessions (Windows: by lineage from their shells); none where the OS cannot be asked. */
async function scanMarks(
  deps: ClaimDeps,
  events: readonly LedgerEvent[],
  sessionId: string,
  owner: OwnerIdentity,
  table: readonly ProcessInfo[],
): Promise<{ entries: ActiveEntry[]; ms?: number }> {
  const { monitor } = deps;
  if (!monitor.markedProcesses && !monitor.shellDescendants) return { entries: [] };
  const started = performance.now();
  try {
    const marked = monitor.markedProcesses ? await monitor.markedProcesses(MARK_NAMES) : ((await monitor.shellDescendants?.(loggedShells(events, sessionId))) ?? []);
    const ms = performance.now() - started;
    const startOf = new Map(table.map((p) => [p.pid, p.startTime]));
    const ownerAlive = (o: OwnerIdentity): boolean => !(o.pid === owner.pid && o.startTime === owner.startTime) && startOf.get(o.pid) === o.startTime;
    return { entries: markedEntries(marked, events, sessionId, ownerAlive), ms };
  } catch (error) {
    deps.logger.warn('ledger: cannot scan processes for the terminal mark; orphans no poll saw are not found', error);
    return { entries: [] };
  }
}

function ownIdentity(table: readonly ProcessInfo[], logger: Logger): OwnerIdentity {
  const self = table.find((p) => p.pid === process.pid);
  if (!self) {
    logger.warn('ledger: this process is not in the process table; other windows may take its processes for orphans');
  }
  return { pid: process.pid, startTime: self?.startTime ?? '' };
}
