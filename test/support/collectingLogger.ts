/** A logger that keeps what it was told, for tests that assert on what was logged. */
import type { Logger } from '../../common/src/logger';

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
