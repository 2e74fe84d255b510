/** Shared helpers for the ledger tests: temp data dirs, a logger that keeps what it was told. */
import type { Logger } from '../../../common/src/logger';
import type { LedgerEvent } from '../../../extension/src/core/ledger/formats';

export { ProcessJanitor, waitFor } from '../processes/helpers';
export { TempDirs } from '../../support/tempDirs';

export interface CollectingLogger extends Logger {
  readonly lines: Array<{ level: string; text: string }>;
  has(level: string, pattern: RegExp): boolean;
}

export function collectingLogger(): CollectingLogger {
  const lines: Array<{ level: string; text: string }> = [];
  const log = (level: string) => (message: string | Error, ...args: unknown[]) => {
    lines.push({ level, text: [message, ...args].map((a) => (a instanceof Error ? a.message : String(a))).join(' ') });
  };
  return {
    lines,
    has: (level, pattern) => lines.some((l) => l.level === level && pattern.test(l.text)),
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  };
}

/** A syntactically complete event for store tests. */
export function sampleEvent(pid: number, sessionId = 's1', kind: LedgerEvent['event'] = 'spawned'): LedgerEvent {
  return { event: kind, ts: new Date(0).toISOString(), sessionId, pid, startTime: `${pid}00@boot`, name: 'sleep', terminal: 't', cmd: `sleep ${pid}` };
}
