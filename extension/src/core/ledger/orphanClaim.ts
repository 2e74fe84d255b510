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
import { identityKey, type ActiveEntry, type OwnerIdentity } from './formats';
import type { ActiveUpdate, LedgerStore } from './ledgerStore';
import { unsnapshotted } from './logReconcile';
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
  const nothing: OrphanClaim = { owner, orphans: [], closed: [], foreign: 0, skippedEntries: 0, activeFileCorrupt: false, fromLog: 0 };
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
  const plan = planStartup([...active.entries, ...logged], { table, sessionId, owner });
  const found = { ...nothing, foreign: plan.foreign, skippedEntries: active.skipped, activeFileCorrupt: active.corrupt, fromLog: logged.length };
  if (plan.orphans.length + plan.closed.length + plan.superseded.length === 0) {
    return found;
  }
  const fromLog = new Set(logged.map(identityKey));
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

function ownIdentity(table: readonly ProcessInfo[], logger: Logger): OwnerIdentity {
  const self = table.find((p) => p.pid === process.pid);
  if (!self) {
    logger.warn('ledger: this process is not in the process table; other windows may take its processes for orphans');
  }
  return { pid: process.pid, startTime: self?.startTime ?? '' };
}
