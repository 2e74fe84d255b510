/**
 * Pure parsers for the macOS tools' output (BSD ps, lsof), tested on recorded text.
 *
 * The ps format is chosen so every line splits unambiguously although names and arguments may
 * contain spaces: fixed numeric columns, `stat` (one token), `lstart` (fixed shape, forced to
 * the C locale and UTC by the caller), then `ucomm` (the 16-char accounting name, may contain
 * spaces), then the pid AGAIN as a sentinel that ends the name, and `args` last (only the last
 * column is printed in full). ps is run with -ww so arguments are never cut.
 */
import type { ProcessInfo } from './types';

/** Column list for `ps -o`: pid=,ppid=,pgid=,stat=,lstart=,ucomm=,pid=,args= (no header). */
export const DARWIN_PS_COLUMNS = 'pid=,ppid=,pgid=,stat=,lstart=,ucomm=,pid=,args=';

/** Environment for ps: C-locale day/month names, UTC times (no DST ambiguity), UTF-8 arguments. */
export function darwinPsEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, LC_TIME: 'C', LC_CTYPE: 'UTF-8', TZ: 'UTC0' };
  delete env.LC_ALL; // would override both
  return env;
}

const MONTHS: Record<string, number> = {
  Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11,
};

const LSTART = '[A-Z][a-z]{2} +[A-Z][a-z]{2} +\\d{1,2} +\\d{2}:\\d{2}:\\d{2} +\\d{4}';
const ROW = new RegExp(`^\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+(${LSTART})\\s+(.*)$`);
/** BSD MAXCOMLEN: ucomm is never longer. */
const MAX_UCOMM = 16;

/** `Mon Nov  2 10:30:00 2026` (UTC) -> ISO 8601, or undefined when malformed. */
export function parseLstart(lstart: string): string | undefined {
  const m = /^[A-Z][a-z]{2} +([A-Z][a-z]{2}) +(\d{1,2}) +(\d{2}):(\d{2}):(\d{2}) +(\d{4})$/.exec(lstart.trim());
  const month = m ? MONTHS[m[1]!] : undefined;
  if (!m || month === undefined) {
    return undefined;
  }
  const ms = Date.UTC(Number(m[6]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The identity key: lstart with its padding collapsed, so the key never depends on column widths. */
export function normalizeLstart(lstart: string): string {
  return lstart.trim().replace(/ +/g, ' ');
}

export interface DarwinPsRow extends ProcessInfo {
  readonly stat: string;
}

/** One line of `ps -o ${DARWIN_PS_COLUMNS}`, or undefined when it does not have that shape. */
export function parseDarwinPsLine(line: string): DarwinPsRow | undefined {
  const m = ROW.exec(line);
  if (!m) {
    return undefined;
  }
  const pid = Number(m[1]);
  const startedAt = parseLstart(m[5]!);
  if (startedAt === undefined) {
    return undefined;
  }
  const split = splitNameAndArgs(m[6]!, pid);
  if (!split) {
    return undefined;
  }
  return {
    pid,
    ppid: Number(m[2]),
    pgid: Number(m[3]),
    stat: m[4]!,
    name: split.name,
    commandLine: split.args.length > 0 ? split.args : `[${split.name}]`,
    startTime: normalizeLstart(m[5]!),
    startedAt,
  };
}

/**
 * `ucomm<padding> PID args` -> name and args. BSD ps pads a non-last ucomm to MAXCOMLEN, so the
 * pid normally sits right after column 16; that reading is tried first and survives a name that
 * itself contains the pid as a word. Otherwise the first pid after the name ends it.
 */
function splitNameAndArgs(rest: string, pid: number): { name: string; args: string } | undefined {
  if (rest.length > MAX_UCOMM && rest[MAX_UCOMM] === ' ') {
    const fixed = new RegExp(`^ *${pid}(?: (.*))?$`).exec(rest.slice(MAX_UCOMM + 1));
    if (fixed) {
      return { name: rest.slice(0, MAX_UCOMM).trimEnd(), args: (fixed[1] ?? '').trim() };
    }
  }
  const sentinel = new RegExp(`^(.+?) +${pid}(?: (.*))?$`);
  const m = sentinel.exec(rest);
  if (m && m[1]!.trimEnd().length <= MAX_UCOMM) {
    return { name: m[1]!.trimEnd(), args: (m[2] ?? '').trim() };
  }
  const empty = new RegExp(`^${pid}(?: (.*))?$`).exec(rest); // a process without an accounting name
  return empty ? { name: '', args: (empty[1] ?? '').trim() } : undefined;
}

/** The whole ps table; zombies and lines that do not parse are skipped. */
export function parseDarwinPs(output: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const line of output.split('\n')) {
    const row = line.trim().length > 0 ? parseDarwinPsLine(line) : undefined;
    if (row && !row.stat.startsWith('Z')) {
      const { stat: _stat, ...info } = row;
      out.push(info);
    }
  }
  return out;
}

/**
 * `lsof -nP -iTCP -sTCP:LISTEN -F pn`: `p<pid>` starts a process, `n<addr>:<port>` is a socket
 * (`*:3000`, `127.0.0.1:8080`, `[::1]:5173`). Other field lines (f, T...) are ignored.
 */
export function parseLsofListen(output: string): Map<number, number[]> {
  const ports = new Map<number, Set<number>>();
  let pid: number | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    if (line.startsWith('p')) {
      const n = Number(line.slice(1));
      pid = Number.isSafeInteger(n) && n > 0 ? n : undefined;
    } else if (line.startsWith('n') && pid !== undefined) {
      const port = Number(line.slice(line.lastIndexOf(':') + 1));
      if (!line.includes('->') && Number.isInteger(port) && port > 0 && port <= 65535) {
        let set = ports.get(pid);
        if (!set) {
          set = new Set();
          ports.set(pid, set);
        }
        set.add(port);
      }
    }
  }
  return new Map([...ports].map(([p, set]) => [p, [...set].sort((a, b) => a - b)]));
}

export interface DarwinShellState {
  readonly stat: string;
  readonly tpgid: number;
  readonly pgid: number;
}

/** `ps -o stat=,tpgid=,pgid= -p PID`: e.g. `Ss+    812   812`. */
export function parseDarwinShellState(output: string): DarwinShellState | undefined {
  const m = /^\s*(\S+)\s+(-?\d+)\s+(\d+)\s*$/.exec(output.trim());
  return m ? { stat: m[1]!, tpgid: Number(m[2]), pgid: Number(m[3]) } : undefined;
}

/**
 * `ps -o stat=,tpgid=,pgid= -p PID` -> who owns the shell's terminal. The shell owns it when its
 * group is the terminal's foreground group (`+` in stat). ps exits 1 and prints nothing for a pid
 * that does not exist: the shell is gone, as it is when it is a zombie.
 */
export function darwinForeground(ps: { readonly code: number | null; readonly stdout: string; readonly failed: boolean }): 'shell' | 'job' | 'gone' | 'unknown' {
  if (ps.failed) {
    return 'unknown'; // ps could not be run: no answer at all
  }
  if (ps.code === 1 && ps.stdout.trim() === '') {
    return 'gone';
  }
  const state = ps.code === 0 ? parseDarwinShellState(ps.stdout) : undefined;
  if (!state) {
    return 'unknown';
  }
  if (state.stat.startsWith('Z')) {
    return 'gone';
  }
  if (state.tpgid <= 0) {
    return 'unknown'; // no controlling terminal
  }
  return state.tpgid === state.pgid || state.stat.includes('+') ? 'shell' : 'job';
}
