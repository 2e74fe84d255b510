/**
 * The process log as the write-ahead record. A window writes a process's `started` event the
 * moment it sees it, but active-processes.json up to a second later; a window that dies in that
 * second leaves processes the snapshot never saw. Replaying the log finds them: every process
 * whose discovery event (started, spawned, orphaned) reached the log, with nothing after it that
 * ends it (completed, killed, closed), tracked last by a session that did not end cleanly, and
 * absent from active-processes.json, becomes an entry of that session, for the startup plan to
 * judge like any other (identity-checked against the OS). Pure.
 */
import type { ActiveEntry, LedgerEvent, OwnerIdentity } from './formats';
import { identityKey } from './formats';

/** Who a session was, and whether it said goodbye. */
interface SessionFacts {
  owner?: OwnerIdentity;
  ended: boolean;
}

/** What the log says of a process that has not ended. */
interface Open {
  readonly discovery: LedgerEvent;
  /** The session that tracks it now (a later window's `orphaned` event takes it over). */
  sessionId: string;
  status: 'running' | 'orphaned';
  ports: readonly number[];
}

const DISCOVERY = new Set(['started', 'spawned', 'orphaned']);
const ENDING = new Set(['completed', 'killed', 'closed']);

/**
 * Entries for the processes the log knows and the active file does not, of sessions other than
 * `ownSessionId` that did not end cleanly. A session the log has no `session_started` for (a log
 * from before sessions were logged) gets its owner's pid from its id and an unknown start time:
 * `ownerPidAlive` then decides (a live pid may be that window, so its processes are left alone).
 */
export function unsnapshotted(
  events: readonly LedgerEvent[],
  active: readonly ActiveEntry[],
  ownSessionId: string,
  ownerPidAlive: (pid: number) => boolean,
): ActiveEntry[] {
  const sessions = new Map<string, SessionFacts>();
  const session = (id: string): SessionFacts => {
    let facts = sessions.get(id);
    if (!facts) sessions.set(id, (facts = { ended: false }));
    return facts;
  };
  const open = new Map<string, Open>();
  for (const event of events) {
    if (event.event === 'session_started') {
      session(event.sessionId).owner = { pid: event.pid, startTime: event.startTime };
      continue;
    }
    if (event.event === 'session_ended') {
      session(event.sessionId).ended = true;
      continue;
    }
    const key = identityKey(event);
    if (DISCOVERY.has(event.event)) {
      const before = open.get(key);
      open.set(key, { discovery: before?.discovery ?? event, sessionId: event.sessionId, status: event.event === 'orphaned' ? 'orphaned' : 'running', ports: event.ports ?? before?.ports ?? [] });
    } else if (ENDING.has(event.event)) {
      open.delete(key);
    } else if (event.event === 'ports') {
      const known = open.get(key);
      if (known) known.ports = event.ports ?? [];
    }
  }
  const inSnapshot = new Set(active.map(identityKey));
  const entries: ActiveEntry[] = [];
  for (const [key, process] of open) {
    if (inSnapshot.has(key) || process.sessionId === ownSessionId) continue;
    const facts = session(process.sessionId);
    if (facts.ended) continue;
    const owner = facts.owner ?? ownerFromSessionId(process.sessionId);
    if (!owner || (facts.owner === undefined && ownerPidAlive(owner.pid))) continue;
    const d = process.discovery;
    entries.push({
      pid: d.pid,
      startTime: d.startTime,
      startedAt: d.startedAt ?? '',
      name: d.name,
      commandLine: d.cmd ?? '',
      parentPid: d.parentPid ?? 0,
      terminalName: d.terminal,
      ports: [...process.ports],
      status: process.status,
      sessionId: process.sessionId,
      owner,
      ...(d.sessionId !== process.sessionId ? { originSessionId: d.fromSessionId ?? d.sessionId } : {}),
    });
  }
  return entries;
}

/** Session ids are `<time>-<pid>-<random>`: the owner's pid, its start time unknown. */
function ownerFromSessionId(sessionId: string): OwnerIdentity | undefined {
  const pid = Number(/^[^-]+-(\d+)-[^-]+$/.exec(sessionId)?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, startTime: '' } : undefined;
}
