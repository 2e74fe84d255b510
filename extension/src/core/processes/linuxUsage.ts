/**
 * Linux: what processes cost, from /proc/PID/stat (CPU ticks, resident pages, state) and, for a
 * sleeping one, whether it is blocked reading its terminal (wchan + fd 0). A few small reads per
 * process: cheap enough for every poll of the tracked ones.
 */
import { readFileSync } from 'node:fs';
import { auxvPageSize, isTerminalDevice, isTtyReadWchan, LINUX_TICKS_PER_SECOND, parseProcStat } from './linuxProcParsers';
import type { ProcReader } from './procReader';
import type { ProcessIdentity, ProcessUsage } from './types';

const FALLBACK_PAGE_SIZE = 4096;

export class LinuxUsage {
  private pageSize: number | undefined;

  constructor(
    private readonly root: string,
    private readonly reader: ProcReader,
    /** The identity key of a start time in ticks (the monitor's: ticks@boot). */
    private readonly startKey: (startTicks: string) => string,
  ) {}

  read(ids: readonly ProcessIdentity[]): ProcessUsage[] {
    const out: ProcessUsage[] = [];
    for (const id of ids) {
      const text = this.reader.read(`${this.root}/${id.pid}/stat`);
      const st = text === undefined ? undefined : parseProcStat(text);
      if (!st || this.startKey(st.startTicks) !== id.startTime) continue;
      out.push({
        pid: id.pid,
        startTime: id.startTime,
        cpuSeconds: st.cpuTicks / LINUX_TICKS_PER_SECOND,
        rssBytes: st.rssPages * this.bytesPerPage(),
        waitingForTerminal: st.state === 'T' || (st.state === 'S' && this.blockedOnTerminalRead(id.pid)),
      });
    }
    return out;
  }

  private blockedOnTerminalRead(pid: number): boolean {
    const wchan = this.reader.read(`${this.root}/${pid}/wchan`)?.trim();
    if (wchan === undefined || !isTtyReadWchan(wchan)) return false;
    const stdin = this.reader.readLink(`${this.root}/${pid}/fd/0`);
    return stdin !== undefined && isTerminalDevice(stdin);
  }

  /** The kernel's page size (16 or 64 KiB on some arm64 kernels), from this process's aux vector. */
  private bytesPerPage(): number {
    if (this.pageSize === undefined) {
      let size: number | undefined;
      try {
        size = auxvPageSize(readFileSync(`${this.root}/self/auxv`));
      } catch {
        size = undefined;
      }
      this.pageSize = size ?? FALLBACK_PAGE_SIZE;
    }
    return this.pageSize;
  }
}
