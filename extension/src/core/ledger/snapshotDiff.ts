/**
 * One poll of a terminal's tree against what the ledger knows. Pure: the tracker does the I/O.
 * A process is matched by identity (pid + start time), so a reused pid shows up as a new process.
 * Ended records are never revived: a process the ledger saw end stays ended.
 */
import type { ProcessInfo } from '../processes/types';
import { identityKey } from './formats';
import { isLive, type TrackedRecord } from './records';

export interface SnapshotDiff {
  /** Descendants the ledger has never seen, parents before children. */
  readonly added: ProcessInfo[];
  /** Known live records whose name, command line (exec) or parent changed. */
  readonly changed: Array<{ readonly record: TrackedRecord; readonly info: ProcessInfo }>;
  /** Identity keys of every descendant in the snapshot. */
  readonly seen: Set<string>;
}

export function diffSnapshot(descendants: readonly ProcessInfo[], known: (key: string) => TrackedRecord | undefined): SnapshotDiff {
  const added: ProcessInfo[] = [];
  const changed: Array<{ record: TrackedRecord; info: ProcessInfo }> = [];
  const seen = new Set<string>();
  for (const info of descendants) {
    const key = identityKey(info);
    seen.add(key);
    const record = known(key);
    if (!record) {
      added.push(info);
    } else if (isLive(record) && (record.name !== info.name || record.commandLine !== info.commandLine || record.parentPid !== info.ppid)) {
      changed.push({ record, info });
    }
  }
  return { added, changed, seen };
}
