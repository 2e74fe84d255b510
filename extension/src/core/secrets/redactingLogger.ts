/**
 * A logger that takes secrets out of every message and argument before they reach the log (the
 * Terminal Shepherd output channel, which lives on disk in the window's log folder): commands,
 * prompts and output lines are logged, and any of them may carry a token.
 */
import type { Logger } from '../../../../common/src/logger';
import type { Redactor } from './redaction';

export function redactingLogger(logger: Logger, redactor: () => Pick<Redactor, 'redact'>): Logger {
  const clean = (text: string): string => redactor().redact(text).text;
  const cleanArg = (arg: unknown): unknown => {
    if (typeof arg === 'string') return clean(arg);
    if (arg instanceof Error) {
      const copy = new Error(clean(arg.message));
      copy.name = arg.name;
      if (arg.stack !== undefined) copy.stack = clean(arg.stack);
      return copy;
    }
    if (typeof arg === 'object' && arg !== null) {
      try {
        return clean(JSON.stringify(arg));
      } catch {
        return arg;
      }
    }
    return arg;
  };
  const args = (list: unknown[]): unknown[] => list.map(cleanArg);
  return {
    trace: (message, ...rest) => logger.trace(clean(message), ...args(rest)),
    debug: (message, ...rest) => logger.debug(clean(message), ...args(rest)),
    info: (message, ...rest) => logger.info(clean(message), ...args(rest)),
    warn: (message, ...rest) => logger.warn(clean(message), ...args(rest)),
    error: (message, ...rest) => logger.error(typeof message === 'string' ? clean(message) : (cleanArg(message) as Error), ...args(rest)),
  };
}
