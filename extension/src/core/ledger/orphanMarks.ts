/**
 * A starting window's second source of orphans, beside the files: the processes whose environment
 * carries the mark of a gone session of this ledger (processMarks.ts), found by one scan of the
 * user's processes (on Windows: by lineage from the gone sessions' logged shells). It finds what no poll saw before the window died (a `nohup … &` typed the
 * instant before a crash), so nothing a managed terminal started is lost. Pure: the scan is done
 * by the caller, and the startup plan judges these entries like any other (identity-checked).
 */
import type { LoggedShell, MarkedProcess } from '../processes/types';
import type { ActiveEntry, LedgerEvent, OwnerIdentity } from './formats';
import { MARK_SESSION, MARK_TERMINAL, processMarkEnv } from './processMarks';
import { recordFromInfo, toActiveEntry } from './records';

/**
 * Entries for the marked processes of sessions this ledger's log knows (`session_started`: a mark
 * of another workspace's window is never taken), other than `ownSessionId`, whose window is gone
 * (`ownerAlive` false). A terminal's shell itself is not an entry: the ledger tracks what it starts.
 */
export function markedEntries(
  marked: readonly MarkedProcess[],
  events: readonly LedgerEvent[],
  ownSessionId: string,
  ownerAlive: (owner: OwnerIdentity) => boolean,
): ActiveEntry[] {
  const owners = new Map<string, OwnerIdentity>();
  for (const event of events) {
    if (event.event === 'session_started') owners.set(event.sessionId, { pid: event.pid, startTime: event.startTime });
  }
  const entries: ActiveEntry[] = [];
  for (const { info, marks, terminalShell } of marked) {
    const sessionId = marks[MARK_SESSION];
    const owner = sessionId === undefined ? undefined : owners.get(sessionId);
    if (terminalShell || sessionId === undefined || sessionId === ownSessionId || !owner || ownerAlive(owner)) continue;
    entries.push(toActiveEntry(recordFromInfo(info, marks[MARK_TERMINAL] ?? '', undefined), sessionId, owner));
  }
  return entries;
}

/**
 * The terminal shells of sessions other than `ownSessionId` that the log knows (`session_shell`),
 * with the marks their processes carry: where the OS cannot read environments (Windows), what
 * they started is found by lineage from them instead (processes/shellLineage.ts), and judged by
 * markedEntries like any marked process.
 */
export function loggedShells(events: readonly LedgerEvent[], ownSessionId: string): LoggedShell[] {
  return events
    .filter((e) => e.event === 'session_shell' && e.sessionId !== ownSessionId && e.startTime !== '')
    .map((e) => ({ pid: e.pid, startTime: e.startTime, marks: processMarkEnv(e.sessionId, e.terminal) }));
}
