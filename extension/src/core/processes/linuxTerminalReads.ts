/**
 * Linux: whether a terminal's foreground processes are blocked reading it (an interactive prompt
 * waiting for input), from /proc wchan + syscall + fd links; and whether a process uses a given
 * terminal at all. The shell probe (linuxProcessMonitor.ts probeShell) asks these.
 */
import { blockedReadFd, isPollWchan, isTerminalDevice, isTtyReadWchan, selectsOnlyStdin, type ProcStat } from './linuxProcParsers';
import type { ProcReader } from './procReader';

/** Threads of one foreground process checked for a blocked tty read (bounds the probe's cost). */
const MAX_THREADS_PROBED = 64;

export class LinuxTerminalReads {
  constructor(
    private readonly reader: ProcReader,
    private readonly root: string,
    private readonly listTasks: (pid: number) => string[],
  ) {}

  /** Whether stdin, stdout or stderr of `pid` is the terminal `tty`. */
  usesTerminal(pid: number, tty: string): boolean {
    return [0, 1, 2].some((fd) => this.reader.readLink(`${this.root}/${pid}/fd/${fd}`) === tty);
  }

  /** True when a foreground process (any of its threads) is blocked in a read of a terminal. */
  readsTerminal(members: readonly ProcStat[], selectCounts: boolean): boolean | 'unknown' {
    let unknown = false;
    for (const p of members) {
      let verdict = this.taskReadsTerminal(p.pid, p.pid, p.state, selectCounts);
      if (verdict === false && p.numThreads > 1) {
        for (const tid of this.listTasks(p.pid).slice(0, MAX_THREADS_PROBED)) {
          if (tid !== String(p.pid)) {
            const v = this.taskReadsTerminal(p.pid, Number(tid), undefined, selectCounts);
            if (v !== false) {
              verdict = v;
              if (v === true) {
                break;
              }
            }
          }
        }
      }
      if (verdict === true) {
        return true;
      }
      unknown ||= verdict === 'unknown';
    }
    return unknown ? 'unknown' : false;
  }

  /**
   * Blocked in the kernel's tty read (wchan wait_woken / n_tty_read) AND the fd being read is a
   * terminal. The fd comes from /proc/.../syscall (a pager such as less reads /dev/tty on fd 3,
   * not stdin), falling back to fd 0. wait_woken alone is not enough: socket reads sleep there too.
   */
  private taskReadsTerminal(pid: number, tid: number, state: string | undefined, selectCounts: boolean): boolean | 'unknown' {
    const base = tid === pid ? `${this.root}/${pid}` : `${this.root}/${pid}/task/${tid}`;
    const wchan = this.reader.read(`${base}/wchan`)?.trim();
    if (wchan === undefined) {
      return 'unknown';
    }
    if (wchan === '0' || wchan === '') {
      // Running, or the kernel hides the wait point: only a sleeping task leaves us unsure.
      return state === 'S' || state === 'D' ? 'unknown' : false;
    }
    if (isPollWchan(wchan)) {
      if (!selectCounts) return false;
      const syscallText = this.reader.read(`${base}/syscall`);
      if (syscallText === undefined || !selectsOnlyStdin(syscallText)) return false;
      const stdin = this.reader.readLink(`${this.root}/${pid}/fd/0`);
      return stdin === undefined ? 'unknown' : isTerminalDevice(stdin);
    }
    if (!isTtyReadWchan(wchan)) {
      return false;
    }
    const syscall = this.reader.read(`${base}/syscall`);
    const fd = syscall === undefined ? null : blockedReadFd(syscall);
    if (fd === undefined) {
      return false; // blocked, but not in a read
    }
    const link = this.reader.readLink(`${this.root}/${pid}/fd/${fd ?? 0}`);
    return link === undefined ? 'unknown' : isTerminalDevice(link);
  }
}
