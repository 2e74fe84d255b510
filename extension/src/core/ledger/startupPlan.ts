/**
 * What a starting window does with active-processes.json, decided from ONE process snapshot.
 * Pure: the tracker confirms the plan under the lock and logs it.
 *
 * - Entries of a live window (owner pid alive with the same start time) are not ours: left alone.
 * - Entries of a gone window whose process is alive with the SAME identity are orphans to adopt.
 * - Entries of a gone window whose process is gone, or whose pid now names another process, are
 *   closed: logged and removed, never reported or killed.
 * - A gone window's entry for a process a live window (or an earlier line) already accounts for
 *   is superseded: removed quietly, so no process is adopted twice.
 * A previous session of this very extension host (extension restarted in place) counts as gone.
 */
import type { ProcessInfo } from '../processes/types';
import { identityKey, type ActiveEntry, type CloseReason, type OwnerIdentity } from './formats';

export interface StartupPlan {
  readonly orphans: ActiveEntry[];
  readonly closed: Array<{ readonly entry: ActiveEntry; readonly reason: CloseReason }>;
  /** Entries of gone windows for a process a live window tracks too: dropped without an event. */
  readonly superseded: ActiveEntry[];
  /** Entries owned by other live windows. */
  readonly foreign: number;
}

export interface StartupContext {
  readonly table: readonly ProcessInfo[];
  readonly sessionId: string;
  readonly owner: OwnerIdentity;
}

export function planStartup(entries: readonly ActiveEntry[], ctx: StartupContext): StartupPlan {
  const byPid = new Map<number, ProcessInfo>();
  for (const p of ctx.table) {
    byPid.set(p.pid, p);
  }
  const sameAsOwn = (o: OwnerIdentity): boolean => o.pid === ctx.owner.pid && o.startTime === ctx.owner.startTime;
  const ownerAlive = (o: OwnerIdentity): boolean => !sameAsOwn(o) && byPid.get(o.pid)?.startTime === o.startTime;

  const orphans: ActiveEntry[] = [];
  const closed: StartupPlan['closed'] = [];
  const superseded: ActiveEntry[] = [];
  const live = entries.filter((e) => ownerAlive(e.owner));
  const decided = new Set(live.map(identityKey));
  for (const entry of entries) {
    if (entry.sessionId === ctx.sessionId || ownerAlive(entry.owner)) {
      continue; // ours already, or a live window's
    }
    const key = identityKey(entry);
    if (decided.has(key)) {
      superseded.push(entry); // a duplicate line, or a process a live window tracks
      continue;
    }
    decided.add(key);
    const now = byPid.get(entry.pid);
    if (now?.startTime === entry.startTime) {
      orphans.push(entry);
    } else {
      closed.push({ entry, reason: now ? 'pid_reused' : 'exited' });
    }
  }
  return { orphans, closed, superseded, foreign: live.length };
}
