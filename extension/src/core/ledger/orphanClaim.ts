/**
 * A starting window's look at active-processes.json: one process snapshot decides (startupPlan),
 * then the decisions are confirmed under the lock. Only entries still held by the gone session
 * they were planned from are taken (another window starting at the same moment may have been
 * faster); adopted orphans are rewritten as this window's entries, closed ones removed.
 */
import type { Logger } from '../../../../common/src/logger';
import type { ProcessInfo, ProcessMonitor } from '../processes/types';
import { identityKey, type ActiveEntry, type OwnerIdentity } from './formats';
import type { ActiveUpdate, LedgerStore } from './ledgerStore';
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
  const nothing: OrphanClaim = { owner, orphans: [], closed: [], foreign: 0, skippedEntries: 0, activeFileCorrupt: false };
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
  const plan = planStartup(active.entries, { table, sessionId, owner });
  const found = { ...nothing, foreign: plan.foreign, skippedEntries: active.skipped, activeFileCorrupt: active.corrupt };
  if (plan.orphans.length + plan.closed.length + plan.superseded.length === 0) {
    return found;
  }
  try {
    return { ...found, ...(await store.updateActive((current) => claim(current, plan, sessionId, owner))) };
  } catch (error) {
    logger.warn('ledger: could not claim the entries of gone windows; they are checked again next time', error);
    return found;
  }
}

function claim(current: readonly ActiveEntry[], plan: StartupPlan, sessionId: string, owner: OwnerIdentity): ActiveUpdate<Pick<OrphanClaim, 'orphans' | 'closed'>> {
  const held = (e: ActiveEntry): string => `${identityKey(e)}#${e.sessionId}`;
  const present = new Set(current.map(held));
  const orphans = plan.orphans.filter((e) => present.has(held(e)));
  const closed = plan.closed.filter((c) => present.has(held(c.entry)));
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
