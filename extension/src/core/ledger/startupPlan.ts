/**
 * What a starting window does with active-processes.json, decided from ONE process snapshot.
 * Pure: the tracker confirms the plan under the lock and logs it.
 *
 * - Entries of a live window (owner pid alive with the same start time) are not ours: left alone.
 * - Entries of a gone window whose process is alive with the SAME identity are orphans to adopt.
 * - Entries of a gone window whose process is gone, or whose pid now names another process, are
 *   closed: logged and removed, never reported or killed.
 * A previous session of this very extension host (extension restarted in place) counts as gone.
 */
import type { ProcessInfo } from '../processes/types';
import { identityKey, type ActiveEntry, type CloseReason, type OwnerIdentity } from './formats';

export interface StartupPlan {
  readonly orphans: ActiveEntry[];
  readonly closed: Array<{ readonly entry: ActiveEntry; readonly reason: CloseReason }>;
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

  const plan: StartupPlan = { orphans: [], closed: [], foreign: 0 };
  const decided = new Set<string>();
  for (const entry of entries) {
    const key = identityKey(entry);
    if (entry.sessionId === ctx.sessionId || decided.has(key)) {
      continue; // ours already, or a duplicate line for the same process
    }
    if (ownerAlive(entry.owner)) {
      plan.foreign++;
      continue;
    }
    decided.add(key);
    const now = byPid.get(entry.pid);
    if (now?.startTime === entry.startTime) {
      plan.orphans.push(entry);
    } else {
      plan.closed.push({ entry, reason: now ? 'pid_reused' : 'exited' });
    }
  }
  return plan;
}
