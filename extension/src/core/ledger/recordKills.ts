/**
 * Kills tracked processes' trees and logs the outcome of every process involved, by identity: a
 * child born since the last poll is recorded (spawned) before it is logged killed, and a tracked
 * process whose pid a killed stranger reused is not taken for it.
 */
import type { Logger } from '../../../../common/src/logger';
import type { KillResult } from '../../../../common/src/protocol';
import type { ProcessInfo, ProcessMonitor } from '../processes/types';
import { identityKey, type KillReason } from './formats';
import { aliveKeys, killTrees } from './processChecks';
import { isLive, recordFromInfo, type TrackedRecord } from './records';
import type { SessionRecords } from './sessionRecords';

export interface RecordKillDeps {
  readonly monitor: ProcessMonitor;
  readonly logger: Logger;
}

export async function killRecords(deps: RecordKillDeps, records: SessionRecords, targets: readonly TrackedRecord[], reason: KillReason): Promise<KillResult> {
  const kills = await killTrees(deps.monitor, targets.filter(isLive));
  const killed = new Set<number>();
  const failed = new Set<number>();
  const killedKeys = new Set<string>();
  for (const { target, result } of kills) {
    const seen = new Map(result.targets.map((p) => [p.pid, p]));
    // The tree as the kill saw it: what no poll had seen is recorded first (the failed ones
    // stay tracked), so the log tells who existed before it tells who was killed.
    for (const info of result.targets) {
      if (!records.get(identityKey(info)) && info.pid !== target.pid) {
        recordUnseen(records, info, target);
      }
    }
    for (const pid of result.killed) {
      const info = seen.get(pid);
      const record = info && records.get(identityKey(info));
      if (record && isLive(record)) {
        records.end(record, 'killed', reason);
      }
      if (info) killedKeys.add(identityKey(info));
      killed.add(pid);
      failed.delete(pid);
    }
    result.failed.filter((pid) => !killed.has(pid)).forEach((pid) => failed.add(pid));
  }
  // Targets that were not killed (already gone), and tracked processes whose pid the kill found
  // on another process: ended on their own, unless still alive.
  const unaccounted = records.live().filter(
    (r) => (targets.includes(r) && !failed.has(r.pid)) || ((killed.has(r.pid) || failed.has(r.pid)) && !killedKeys.has(identityKey(r))),
  );
  const alive = await aliveKeys(deps.monitor, unaccounted);
  unaccounted.filter((r) => !alive.has(identityKey(r))).forEach((r) => records.end(r, 'completed'));
  if (failed.size > 0) {
    deps.logger.warn(`ledger: could not kill ${[...failed].join(', ')} (${reason})`);
  }
  return { killed: [...killed].sort((a, b) => a - b), failed: [...failed].sort((a, b) => a - b) };
}

/** A process of a tracked tree that no poll saw: recorded (and logged) under the tree's terminal. */
function recordUnseen(records: SessionRecords, info: ProcessInfo, treeRoot: TrackedRecord): void {
  const record: TrackedRecord = {
    ...recordFromInfo(info, treeRoot.terminalName, treeRoot.watchId, treeRoot.agentSession, treeRoot.clientTools),
    ...(treeRoot.status === 'orphaned' ? { status: 'orphaned' as const } : {}),
    ...(treeRoot.originSessionId !== undefined ? { originSessionId: treeRoot.originSessionId } : {}),
  };
  records.track(record, 'spawned', records.timestamp());
}
