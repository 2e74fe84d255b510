/**
 * What tracked processes cost: CPU% from two looks (the CPU seconds a process used between polls
 * over the wall time between them; at the first look, its average since it started), resident
 * memory and whether it waits for its terminal. Kept in memory on the records, never written to
 * the files: it changes every poll.
 */
import type { ProcessUsage } from '../processes/types';
import { identityKey } from './formats';
import type { TrackedRecord } from './records';

/** A terminal's live processes together: "still running, 2 processes, 96% CPU, 1.2 GB". */
export interface TreeUsage {
  readonly processes: number;
  readonly cpuPercent: number;
  readonly rssBytes: number;
  readonly waitingForTerminal: boolean;
}

export class UsageSampler {
  private readonly last = new Map<string, { readonly cpuSeconds: number; readonly atMs: number }>();

  /** Sets each record's usage from `usages` (records absent there keep their last); forgets processes no longer in `live`. */
  sample(records: readonly TrackedRecord[], usages: readonly ProcessUsage[], nowMs: number, live: ReadonlySet<string>): void {
    const byKey = new Map(usages.map((u) => [identityKey(u), u]));
    for (const record of records) {
      const key = identityKey(record);
      const usage = byKey.get(key);
      if (!usage) continue;
      const since = this.last.get(key) ?? { cpuSeconds: 0, atMs: Date.parse(record.startedAt) };
      const elapsedS = (nowMs - since.atMs) / 1000;
      const cpuPercent = elapsedS > 0 && Number.isFinite(elapsedS) ? Math.max(0, ((usage.cpuSeconds - since.cpuSeconds) / elapsedS) * 100) : 0;
      record.usage = { cpuPercent, rssBytes: usage.rssBytes, waitingForTerminal: usage.waitingForTerminal };
      this.last.set(key, { cpuSeconds: usage.cpuSeconds, atMs: nowMs });
    }
    for (const key of this.last.keys()) {
      if (!live.has(key)) this.last.delete(key);
    }
  }
}

/** The sum over `records` that were measured; undefined when none was. */
export function treeUsage(records: readonly TrackedRecord[]): TreeUsage | undefined {
  const measured = records.filter((r) => r.usage !== undefined);
  if (measured.length === 0) return undefined;
  return {
    processes: records.length,
    cpuPercent: measured.reduce((sum, r) => sum + r.usage!.cpuPercent, 0),
    rssBytes: measured.reduce((sum, r) => sum + r.usage!.rssBytes, 0),
    waitingForTerminal: measured.some((r) => r.usage!.waitingForTerminal),
  };
}
