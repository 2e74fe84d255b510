/**
 * Synchronous reads of small /proc files into one reused buffer.
 *
 * Why sync: a snapshot reads ~2 files per process; through the thread pool every file costs
 * three round trips (open, read, close) and measured 2-4x slower than doing it inline. procfs
 * never blocks on disk, so each call is microseconds; callers yield between batches instead.
 */
import { closeSync, openSync, readlinkSync, readSync } from 'node:fs';

/** Yield to the event loop every this many processes, so a walk of /proc never blocks it for long. */
export const YIELD_EVERY = 512;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ProcReader {
  private buf = Buffer.allocUnsafe(64 * 1024);

  /**
   * The whole file as UTF-8, or undefined when it cannot be read (the process vanished, or no
   * permission). By default one short read means the end: true for single-record procfs files
   * (stat, cmdline, wchan). Multi-record seq files (net/tcp, children) need `toEof`, since the
   * kernel stops filling a read when the next record does not fit.
   */
  read(path: string, toEof = false): string | undefined {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return undefined;
    }
    try {
      let total = 0;
      for (;;) {
        if (total === this.buf.length) {
          const bigger = Buffer.allocUnsafe(this.buf.length * 2);
          this.buf.copy(bigger, 0, 0, total);
          this.buf = bigger;
        }
        const room = this.buf.length - total;
        const n = readSync(fd, this.buf, total, room, null);
        total += n;
        if (n === 0 || (!toEof && n < room)) {
          break;
        }
      }
      return this.buf.toString('utf8', 0, total);
    } catch {
      return undefined; // ESRCH/EACCES mid-read: the process exited or hid its details
    } finally {
      closeSync(fd);
    }
  }

  /** Where a link points (an fd's socket or tty, a namespace), or undefined when it cannot be read. */
  readLink(path: string): string | undefined {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  }
}
