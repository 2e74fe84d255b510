/**
 * Coalesces bursts of changes into one write, but never delays a write longer than `maxDelayMs`
 * after the first unwritten change: a window can die without warning, and what it tracked must
 * already be on disk. Runs never overlap; a change during a run schedules another. A failed run
 * is retried with a growing pause (so an unwritable disk does not spin).
 */
export interface BoundedDebounceOptions {
  /** Quiet time after the last change before writing. */
  readonly delayMs: number;
  /** Longest time from the first unwritten change to the write. */
  readonly maxDelayMs: number;
  /** Longest pause between retries after failures. */
  readonly maxRetryMs: number;
  readonly onError: (error: unknown) => void;
}

export class BoundedDebounce {
  private timer: NodeJS.Timeout | undefined;
  private pendingSince: number | undefined;
  private running: Promise<void> = Promise.resolve();
  private retryMs: number;
  private disposed = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly options: BoundedDebounceOptions,
  ) {
    this.retryMs = options.maxDelayMs;
  }

  /** A change happened: write within delayMs of quiet, at the latest maxDelayMs from the first change. */
  trigger(): void {
    if (this.disposed) {
      return;
    }
    const now = Date.now();
    this.pendingSince ??= now;
    this.arm(Math.min(now + this.options.delayMs, this.pendingSince + this.options.maxDelayMs) - now);
  }

  /** Writes now if a change is pending, and waits for any write in flight. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingSince !== undefined) {
      this.running = this.running.then(() => this.runPending());
    }
    return this.running;
  }

  /** Stops the timer; a pending change is dropped (flush() first to keep it). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async runPending(): Promise<void> {
    if (this.pendingSince === undefined) {
      return; // an earlier queued run already wrote it
    }
    this.pendingSince = undefined;
    try {
      await this.task();
      this.retryMs = this.options.maxDelayMs;
    } catch (error) {
      this.options.onError(error);
      if (!this.disposed) {
        this.pendingSince ??= Date.now();
        this.arm(this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs);
      }
    }
  }
}
