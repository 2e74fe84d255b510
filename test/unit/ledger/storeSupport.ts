/** For the ledger store's tests: events to append. */
import type { LedgerEvent } from '../../../extension/src/core/ledger/formats';

/** A syntactically complete event for store tests. */
export function sampleEvent(pid: number, sessionId = 's1', kind: LedgerEvent['event'] = 'spawned'): LedgerEvent {
  return { event: kind, ts: new Date(0).toISOString(), sessionId, pid, startTime: `${pid}00@boot`, name: 'sleep', terminal: 't', cmd: `sleep ${pid}` };
}
