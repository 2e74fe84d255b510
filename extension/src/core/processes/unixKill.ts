/**
 * Killing a process tree on Unix (Linux and macOS share it; only the way facts are read differs).
 *
 * 1. The root's identity is checked first: a reused pid is never touched.
 * 2. The whole tree is taken from ONE snapshot before anything is signalled, because a killed
 *    parent's children are reparented (to init or a subreaper) and would drop out of a later walk.
 * 3. SIGTERM goes to the process groups the tree leads (catching members that already escaped the
 *    tree by reparenting, like a double-forked daemon that kept its group) and to every process.
 *    The caller's own group is never signalled, nor the caller itself. Stopped processes get
 *    SIGCONT so the SIGTERM is delivered now, not at some later resume.
 * 4. After a short grace (polling liveness), survivors and anything they forked meanwhile get SIGKILL.
 * Before every signal the target's identity is re-read, so a pid reused mid-kill is left alone.
 */
import type { Logger } from '../../../../common/src/logger';
import { descendantsFromTable } from './processTree';
import { DEFAULT_KILL_GRACE_MS, NOTHING_KILLED, isActionablePid, type KillOptions, type ProcessIdentity, type ProcessInfo, type TreeKillResult } from './types';

export type SignalOutcome = 'sent' | 'gone' | 'denied';

export interface UnixKillDeps {
  /** A fresh snapshot of all processes. */
  snapshot(): Promise<ProcessInfo[]>;
  /** Fresh facts about these pids; live (non-zombie) processes only. */
  lookup(pids: number[]): Promise<Map<number, ProcessInfo>>;
  /** kill(2): a positive target is a process, a negative one a process group. */
  signal(target: number, signal: NodeJS.Signals): SignalOutcome;
  sleep(ms: number): Promise<void>;
  /** Clock for the grace deadline (injected with `sleep` so tests run in simulated time). */
  now(): number;
  readonly ownPid: number;
  /** The caller's process group, when known; never signalled. */
  readonly ownPgid: number | undefined;
  readonly logger: Logger;
}

const POLL_MS = 50;
/** How long SIGKILLed processes get to disappear before they count as failed. */
const KILL_SETTLE_MS = 1000;

export async function killTreeUnix(id: ProcessIdentity, opts: KillOptions | undefined, deps: UnixKillDeps): Promise<TreeKillResult> {
  const { logger } = deps;
  if (!isActionablePid(id.pid) || id.pid === deps.ownPid) {
    logger.warn(`killTree: refusing to kill pid ${id.pid}`);
    return NOTHING_KILLED;
  }
  const rootNow = (await deps.lookup([id.pid])).get(id.pid);
  if (!rootNow || rootNow.startTime !== id.startTime) {
    logger.info(`killTree: pid ${id.pid} is ${rootNow ? 'another process now' : 'gone'}; nothing signalled`);
    return NOTHING_KILLED;
  }

  const table = await deps.snapshot();
  const targets = new Map<number, ProcessInfo>();
  const addTarget = (p: ProcessInfo): void => {
    if (p.pid === deps.ownPid) {
      logger.warn(`killTree: the caller (pid ${p.pid}) is inside the tree of ${id.pid}; it is spared`);
    } else if (isActionablePid(p.pid) && !targets.has(p.pid)) {
      targets.set(p.pid, p);
    }
  };
  const rootInTable = table.find((p) => p.pid === id.pid);
  addTarget(rootInTable && rootInTable.startTime === id.startTime ? rootInTable : rootNow);
  if (rootInTable && rootInTable.startTime === id.startTime) {
    descendantsFromTable(table, id.pid).forEach(addTarget);
  }

  // Groups whose leader is in the tree belong to the tree; their escaped members become targets.
  const groups = new Map<number, ProcessInfo>();
  for (const t of targets.values()) {
    if (t.pgid !== undefined && t.pgid === t.pid && t.pgid !== deps.ownPgid) {
      groups.set(t.pgid, t);
    }
  }
  const addGroupMembers = (snapshot: readonly ProcessInfo[]): void => {
    for (const p of snapshot) {
      if (p.pgid !== undefined && groups.has(p.pgid)) {
        addTarget(p);
      }
    }
  };
  addGroupMembers(table);

  const denied = new Set<number>();
  const signalAll = async (sig: NodeJS.Signals, pids: Iterable<number>): Promise<void> => {
    const wanted = [...pids];
    const live = await deps.lookup([...new Set([...wanted, ...groups.keys()])]);
    for (const [pgid, leader] of groups) {
      if (groupStillOurs(pgid, leader, live, targets)) {
        deps.signal(-pgid, sig);
      }
    }
    for (const pid of wanted) {
      const seen = targets.get(pid);
      const now = live.get(pid);
      if (seen && now && now.startTime === seen.startTime && deps.signal(pid, sig) === 'denied') {
        denied.add(pid);
      }
    }
  };
  const aliveTargets = async (): Promise<Set<number>> => {
    const live = await deps.lookup([...targets.keys()]);
    const alive = new Set<number>();
    for (const [pid, seen] of targets) {
      if (live.get(pid)?.startTime === seen.startTime) {
        alive.add(pid);
      }
    }
    return alive;
  };
  const waitForExit = async (ms: number): Promise<Set<number>> => {
    const deadline = deps.now() + ms;
    let alive = await aliveTargets();
    while (alive.size > 0 && deps.now() < deadline) {
      await deps.sleep(Math.min(POLL_MS, Math.max(1, deadline - deps.now())));
      alive = await aliveTargets();
    }
    return alive;
  };

  logger.debug(`killTree ${id.pid}: SIGTERM to ${targets.size} process(es), groups [${[...groups.keys()].join(', ')}]`);
  await signalAll('SIGTERM', targets.keys());
  await signalAll('SIGCONT', targets.keys());
  let alive = await waitForExit(Math.max(0, opts?.graceMs ?? DEFAULT_KILL_GRACE_MS));

  if (alive.size > 0) {
    // Anything the survivors forked since the first snapshot goes down with them.
    const fresh = await deps.snapshot();
    for (const pid of [...alive]) {
      for (const d of descendantsFromTable(fresh, pid)) {
        if (!targets.has(d.pid)) {
          addTarget(d);
          alive.add(d.pid);
        }
      }
    }
    addGroupMembers(fresh);
    for (const p of fresh) {
      if (targets.get(p.pid)?.startTime === p.startTime) {
        alive.add(p.pid);
      }
    }
    logger.debug(`killTree ${id.pid}: SIGKILL to ${alive.size} survivor(s)`);
    await signalAll('SIGKILL', alive);
    alive = await waitForExit(KILL_SETTLE_MS);
  }

  const killed: number[] = [];
  const failed: number[] = [];
  for (const pid of targets.keys()) {
    (alive.has(pid) ? failed : killed).push(pid);
  }
  killed.sort((a, b) => a - b);
  failed.sort((a, b) => a - b);
  if (failed.length > 0) {
    const why = failed.some((pid) => denied.has(pid)) ? ' (some not permitted)' : '';
    logger.warn(`killTree ${id.pid}: still alive after SIGKILL${why}: ${failed.join(', ')}`);
  }
  return { killed, failed, targets: [...targets.values()] };
}

/**
 * A group id cannot be reused while the group has members, so group `pgid` is still the tree's
 * when its leader is alive with the same identity, or (leader gone) a verified target still has it.
 */
function groupStillOurs(pgid: number, leader: ProcessInfo, live: Map<number, ProcessInfo>, targets: Map<number, ProcessInfo>): boolean {
  const current = live.get(pgid);
  if (current) {
    return current.startTime === leader.startTime;
  }
  for (const [pid, seen] of targets) {
    const now = live.get(pid);
    if (now && now.startTime === seen.startTime && now.pgid === pgid) {
      return true;
    }
  }
  return false;
}

/** kill(2) without exceptions: ESRCH means the target is already gone. */
export function sendSignal(target: number, signal: NodeJS.Signals): SignalOutcome {
  try {
    process.kill(target, signal);
    return 'sent';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'denied' : 'gone';
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
