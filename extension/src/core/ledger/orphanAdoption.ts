/**
 * A starting window takes over what gone windows left running: the data dir is prepared, the
 * entries of active-processes.json claimed (orphanClaim), the gone ones logged `closed` and the
 * living ones tracked as this window's orphans, with their ports.
 */
import type { LedgerStartup } from './api';
import { claimOrphans, type ClaimDeps } from './orphanClaim';
import { orphanFromEntry, toTrackedProcess, type TrackedRecord } from './records';
import type { SessionRecords } from './sessionRecords';
import type { TreePoller } from './treePoller';

export interface AdoptionDeps extends ClaimDeps {
  /** A data dir that cannot be prepared (the log has it too; processes are tracked in memory only). */
  readonly onWriteFailure?: (path: string, error: unknown) => void;
}

export async function adoptOrphans(deps: AdoptionDeps, records: SessionRecords, poller: TreePoller): Promise<LedgerStartup> {
  const { store, logger } = deps;
  try {
    await store.init();
  } catch (error) {
    logger.error(`ledger: cannot prepare ${store.dir}; processes are tracked in memory only`, error);
    deps.onWriteFailure?.(store.dir, error);
  }
  const claim = await claimOrphans(deps, records.sessionId, records.owner);
  records.owner = claim.owner;
  // First in the log: every process this session logs from now on can be found again if it dies.
  records.logSession('session_started');
  const ts = records.timestamp();
  for (const { entry, reason } of claim.closed) {
    records.log('closed', entry, ts, { reason, fromSessionId: entry.sessionId });
  }
  const orphans: TrackedRecord[] = [];
  for (const entry of claim.orphans) {
    const record = orphanFromEntry(entry);
    orphans.push(record);
    records.track(record, 'orphaned', ts, { fromSessionId: entry.sessionId });
  }
  await poller.refreshPorts(orphans);
  records.commit();
  if (orphans.length + claim.closed.length > 0) {
    logger.info(
      `ledger: ${orphans.length} orphan(s) of gone windows adopted, ${claim.closed.length} gone entr(ies) closed` +
        (claim.fromLog > 0 ? ` (${claim.fromLog} known only from process-log.jsonl: their window died before its snapshot)` : '') +
        (claim.fromMarks > 0 ? ` (${claim.fromMarks} known only by the terminal mark in their environment, or on Windows by lineage from their terminal's shell: no poll had seen them)` : ''),
    );
  }
  if (claim.markScanMs !== undefined) {
    logger.debug(`ledger: scanned processes for the terminal mark in ${claim.markScanMs.toFixed(1)} ms`);
  }
  return {
    orphans: orphans.map(toTrackedProcess),
    closed: claim.closed.length,
    foreign: claim.foreign,
    skippedEntries: claim.skippedEntries,
    activeFileCorrupt: claim.activeFileCorrupt,
  };
}
