/**
 * The one logging interface of the project. The extension backs it with a LogOutputChannel,
 * the MCP server with stderr (stdout belongs to the MCP protocol), tests with a collector.
 */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'off';

const levelRank: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

function formatArg(arg: unknown): string {
  if (arg instanceof Error) {
    return arg.stack ?? arg.message;
  }
  if (typeof arg === 'string') {
    return arg;
  }
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

/** A logger that writes one line per message to a stream (stderr for the MCP server). */
export function createStreamLogger(
  write: (line: string) => void,
  options: { level?: LogLevel; prefix?: string } = {},
): Logger {
  const threshold = levelRank[options.level ?? 'info'];
  const prefix = options.prefix ? `[${options.prefix}] ` : '';
  const log = (level: Exclude<LogLevel, 'off'>, message: string | Error, args: unknown[]): void => {
    if (levelRank[level] < threshold) {
      return;
    }
    const text = [formatArg(message), ...args.map(formatArg)].join(' ');
    write(`${new Date().toISOString()} ${level.padEnd(5)} ${prefix}${text}\n`);
  };
  return {
    trace: (m, ...a) => log('trace', m, a),
    debug: (m, ...a) => log('debug', m, a),
    info: (m, ...a) => log('info', m, a),
    warn: (m, ...a) => log('warn', m, a),
    error: (m, ...a) => log('error', m, a),
  };
}

/** A logger that drops everything, for code paths that accept an optional logger. */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Drops messages below `level()` (read per message, so a settings change applies at once). */
export function filterLogger(inner: Logger, level: () => LogLevel): Logger {
  const enabled = (l: Exclude<LogLevel, 'off'>): boolean => levelRank[l] >= levelRank[level()];
  return {
    trace: (m, ...a) => enabled('trace') && inner.trace(m, ...a),
    debug: (m, ...a) => enabled('debug') && inner.debug(m, ...a),
    info: (m, ...a) => enabled('info') && inner.info(m, ...a),
    warn: (m, ...a) => enabled('warn') && inner.warn(m, ...a),
    error: (m, ...a) => enabled('error') && inner.error(m, ...a),
  } as Logger;
}

export function parseLogLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  const v = (value ?? '').toLowerCase();
  return v in levelRank ? (v as LogLevel) : fallback;
}
