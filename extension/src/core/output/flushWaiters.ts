/**
 * The callers waiting for the renderer to go idle (its `flush()`). xterm can stop calling back (an
 * exception inside its parser leaves its write queue stuck), so while anyone waits, a watchdog
 * checks that it keeps making progress; after `stallMs` without any, the wait ends instead of
 * never.
 */

/** What the watchdog asks the renderer, and tells it. */
export interface FlushSubject {
  /** Nothing left to process (or nothing ever will be: disposed, stalled). */
  isIdle(): boolean;
  /** A slice is in xterm's hands. */
  inFlight(): boolean;
  /** xterm made no progress for `stallMs`: the renderer drops its input; the waiters are released after. */
  stalled(error: Error): void;
}

export class FlushWaiters {
  private readonly waiters: Array<() => void> = [];
  private watchdog: NodeJS.Timeout | undefined;
  private lastProgressAt = 0;

  constructor(
    private readonly stallMs: number,
    private readonly subject: FlushSubject,
  ) {}

  /** xterm took a slice or finished one. */
  progress(): void {
    this.lastProgressAt = Date.now();
  }

  /** Resolves once the subject is idle (see `releaseAll`), or after a stall. */
  wait(): Promise<void> {
    if (this.subject.isIdle()) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.watch();
    });
  }

  /** The subject went idle (or was disposed): every waiter resolves. */
  releaseAll(): void {
    const waiters = this.waiters.splice(0);
    for (const resolve of waiters) {
      resolve();
    }
  }

  dispose(): void {
    this.stopWatch();
    this.releaseAll();
  }

  private watch(): void {
    if (this.watchdog) {
      return;
    }
    this.watchdog = setInterval(() => {
      if (this.subject.isIdle() || this.waiters.length === 0) {
        this.stopWatch();
        return;
      }
      if (this.subject.inFlight() && Date.now() - this.lastProgressAt > this.stallMs) {
        this.subject.stalled(new Error(`the terminal emulator made no progress for ${this.stallMs} ms; output after this point is dropped`));
        this.stopWatch();
        this.releaseAll();
      }
    }, Math.min(1000, this.stallMs));
    this.watchdog.unref?.();
  }

  private stopWatch(): void {
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }
}
