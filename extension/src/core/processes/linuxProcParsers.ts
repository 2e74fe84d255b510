/**
 * Pure parsers for the Linux /proc text formats the monitor reads. Kept apart from the I/O so
 * the awkward cases (names with spaces and parentheses, IPv6 rows) are tested on fixed text.
 */

/** Linux USER_HZ: the unit of /proc start times, fixed at 100 by the kernel ABI on x86 and arm. */
export const LINUX_TICKS_PER_SECOND = 100;

export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  /** R, S, D, Z, T, t, X, I... */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** Controlling terminal device number; 0 when the process has none. */
  readonly ttyNr: number;
  /** Foreground process group of the controlling terminal; -1 when none. */
  readonly tpgid: number;
  readonly numThreads: number;
  /** Start time in clock ticks since boot, kept as text: it is part of an identity key. */
  readonly startTicks: string;
  /**
   * Where the code and the stack start: both move whenever the process execs (ASLR), so with
   * the name they tell a cached command line is stale. "0" when the reader may not see them.
   */
  readonly startCode: string;
  readonly startStack: string;
  /** CPU time in user and kernel mode, in clock ticks (fields 14 and 15). */
  readonly cpuTicks: number;
  /** Resident set size in pages (field 24). */
  readonly rssPages: number;
}

/**
 * Parses /proc/PID/stat. The command name sits in parentheses and may itself contain spaces and
 * ')' (a process can name itself anything), so the fields are read after the LAST ')'.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) {
    return undefined;
  }
  const pid = Number(text.slice(0, open));
  // fields[0] is field 3 (state) of proc(5); field N is fields[N - 3]. Split no further than
  // needed: this runs for every process of every snapshot.
  const fields = text.slice(close + 2).split(' ', 26);
  if (!Number.isSafeInteger(pid) || fields.length < 20) {
    return undefined;
  }
  const startTicks = fields[19]!;
  if (!/^\d+$/.test(startTicks)) {
    return undefined;
  }
  return {
    pid,
    comm: text.slice(open + 1, close),
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    ttyNr: Number(fields[4]),
    tpgid: Number(fields[5]),
    numThreads: Number(fields[17]),
    startTicks,
    startCode: fields[23] ?? '0',
    startStack: fields[25] ?? '0',
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    rssPages: Number(fields[21]),
  };
}

/** Zombies (Z) and dead tasks (X) are exited processes waiting to be reaped, not running ones. */
export function isExitedState(state: string): boolean {
  return state === 'Z' || state === 'X' || state === 'x';
}

/**
 * The values of `names` in a /proc/PID/environ text (NUL-separated NAME=value), or undefined when
 * none is there. Searched, not split: environments run to many kilobytes and most carry no mark.
 */
export function environValues(raw: string, names: readonly string[]): Record<string, string> | undefined {
  let found: Record<string, string> | undefined;
  for (const name of names) {
    const key = `${name}=`;
    let at: number;
    if (raw.startsWith(key)) {
      at = key.length;
    } else {
      const i = raw.indexOf(`\0${key}`);
      if (i < 0) continue;
      at = i + 1 + key.length;
    }
    const end = raw.indexOf('\0', at);
    (found ??= {})[name] = raw.slice(at, end < 0 ? raw.length : end);
  }
  return found;
}

/** AT_PAGESZ from /proc/self/auxv (pairs of native words, type then value): the page size in bytes. */
export function auxvPageSize(auxv: Buffer): number | undefined {
  const AT_PAGESZ = 6n;
  for (let i = 0; i + 16 <= auxv.length; i += 16) {
    const type = auxv.readBigUInt64LE(i);
    if (type === 0n) break;
    if (type === AT_PAGESZ) return Number(auxv.readBigUInt64LE(i + 8));
  }
  return undefined;
}

/** /proc/PID/cmdline: arguments separated (and usually terminated) by NUL. */
export function parseCmdline(raw: string): string {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 0) {
    end--;
  }
  return raw.slice(0, end).split('\0').join(' ');
}

/** The `btime` line of /proc/stat: boot time in seconds since the epoch. */
export function parseBtime(procStat: string): number | undefined {
  const m = /^btime\s+(\d+)\s*$/m.exec(procStat);
  return m ? Number(m[1]) : undefined;
}

/** Start ticks since boot -> ISO 8601, from the boot time in epoch seconds. */
export function ticksToIso(startTicks: string, btimeSeconds: number): string {
  const ms = btimeSeconds * 1000 + (Number(startTicks) * 1000) / LINUX_TICKS_PER_SECOND;
  return new Date(Math.round(ms)).toISOString();
}

/** `/proc/PID/task/TID/children`: space separated pids. */
export function parseChildren(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(' ')) {
    if (part.length > 0) {
      const n = Number(part);
      if (Number.isSafeInteger(n) && n > 0) {
        out.push(n);
      }
    }
  }
  return out;
}

const TCP_LISTEN = '0A';

/**
 * Listening sockets of /proc/net/tcp or /proc/net/tcp6: socket inode -> local port.
 * Row: `sl local_address rem_address st ... uid timeout inode`, addresses `HEXIP:HEXPORT`.
 */
export function parseProcNetTcpListen(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const cols = lines[i]!.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== TCP_LISTEN) {
      continue;
    }
    const local = cols[1]!;
    const port = parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    const inode = cols[9]!;
    if (Number.isInteger(port) && inode !== '0') {
      into.set(inode, port);
    }
  }
  return into;
}

/** `socket:[12345]` (a /proc/PID/fd link) -> `12345`. */
export function socketInode(link: string): string | undefined {
  return link.startsWith('socket:[') && link.endsWith(']') ? link.slice(8, -1) : undefined;
}

/** Terminal devices a shell's stdin can be: pseudo terminals, virtual consoles, serial lines. */
export function isTerminalDevice(link: string): boolean {
  return /^\/dev\/(pts\/\d+|tty[A-Za-z]*\d*|console)$/.test(link);
}

/** Kernel wait points of a task blocked reading a tty (wait_woken since ~4.0, n_tty_read before). */
export function isTtyReadWchan(wchan: string): boolean {
  const base = wchan.replace(/\..*$/, ''); // "wait_woken.constprop.0" style suffixes
  return base === 'wait_woken' || base === 'n_tty_read';
}

/**
 * From /proc/PID/syscall, the fd a task is blocked reading, when it is in a read-family call.
 * Returns undefined when the call is not a read, `null` when the syscall cannot be interpreted
 * on this architecture (caller falls back to fd 0).
 */
export function blockedReadFd(syscallText: string, arch: string = process.arch): number | undefined | null {
  const parts = syscallText.trim().split(' ');
  const nr = Number(parts[0]);
  if (!Number.isInteger(nr) || nr < 0 || parts.length < 2) {
    return null; // "running", or -1 when not in a syscall
  }
  const reads = READ_SYSCALLS[arch];
  if (!reads) {
    return null;
  }
  if (!reads.includes(nr)) {
    return undefined;
  }
  const fd = parseInt(parts[1]!, 16);
  return Number.isInteger(fd) ? fd : null;
}

/** Kernel wait point of a task in poll() or select(). */
export function isPollWchan(wchan: string): boolean {
  return wchan.replace(/\..*$/, '') === 'poll_schedule_timeout';
}

/**
 * From /proc/PID/syscall, whether a task is in select()/pselect6() watching only fd 0 (nfds 1):
 * what a REPL's line reader does (python3 waits this way, not in read()). Other poll calls name
 * their fds in user memory the kernel does not show, so they do not count.
 */
export function selectsOnlyStdin(syscallText: string, arch: string = process.arch): boolean {
  const parts = syscallText.trim().split(' ');
  const nr = Number(parts[0]);
  const selects = SELECT_SYSCALLS[arch];
  return selects !== undefined && selects.includes(nr) && parts.length > 1 && parseInt(parts[1]!, 16) === 1;
}

/** select and pselect6 per architecture (arm64 and riscv64 have only pselect6). */
const SELECT_SYSCALLS: Record<string, number[]> = {
  x64: [23, 270],
  arm64: [72],
  riscv64: [72],
};

/** read, pread64, readv per architecture (asm/unistd.h). */
const READ_SYSCALLS: Record<string, number[]> = {
  x64: [0, 17, 19],
  arm64: [63, 67, 65],
  riscv64: [63, 67, 65],
};
