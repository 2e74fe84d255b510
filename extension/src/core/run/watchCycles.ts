/**
 * The cycles of a run that turned into a watcher (vitest, jest --watch, tsc -w, ...): once output
 * goes quiet, the tail is read for a known watcher's banner (watchOutput.ts); a banner after new
 * output completes a cycle, with its summary. Output after that starts the next cycle. One timer,
 * armed only while output flows, cleared by stop() and dispose().
 */
import { Emitter, type Disposable } from '../events';
import type { RunOutput } from '../output/runOutput';
import { findCycleEnd, type CycleEnd } from './watchOutput';

/** A completed cycle: what watchOutput found, numbered. */
export interface WatchCycleEnd extends CycleEnd {
  readonly cycle: number;
}

/**
 * How long the output stays quiet before its tail is read: a watcher prints its summary and
 * banner in one burst, so this is most of the time from its summary to the tool's return.
 */
export const WATCH_SETTLE_MS = 100;
/** Lines of the tail a summary is looked for in. */
const TAIL_LINES = 80;

export class WatchCycles implements Disposable {
  private completed: WatchCycleEnd | undefined;
  /** Output arrived since the last completed cycle (or since the start). */
  private outputSinceCycle = false;
  private lastOutputAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private stopped = false;
  private readonly emitter = new Emitter<WatchCycleEnd>();
  /** Fires when a cycle completes. */
  readonly onDidComplete = this.emitter.event;

  constructor(
    private readonly command: string,
    private readonly output: Pick<RunOutput, 'flush' | 'lastLines'>,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
    private readonly settleMs = WATCH_SETTLE_MS,
  ) {}

  /** Cycles completed so far. */
  get cycles(): number {
    return this.completed?.cycle ?? 0;
  }

  /** The last completed cycle, if any. */
  get latest(): WatchCycleEnd | undefined {
    return this.completed;
  }

  /** A cycle completed and no output came since: the watcher waits for file changes. */
  get idle(): boolean {
    return this.completed !== undefined && !this.outputSinceCycle;
  }

  /** Visible output arrived. */
  activity(): void {
    if (this.stopped) return;
    this.outputSinceCycle = true;
    this.lastOutputAt = this.now();
    if (!this.timer && !this.checking) this.arm(this.settleMs);
  }

  /** The run ended: no more cycles. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.stop();
    this.emitter.dispose();
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check().catch((error: unknown) => {
        this.checking = false;
        this.onError(error);
      });
    }, Math.max(0, ms));
  }

  /** Once the output has been quiet for settleMs: its tail, looked at for a cycle's end. */
  private async check(): Promise<void> {
    const quietFor = this.now() - this.lastOutputAt;
    if (this.stopped || !this.outputSinceCycle) return;
    if (quietFor < this.settleMs) {
      this.arm(this.settleMs - quietFor);
      return;
    }
    this.checking = true;
    await this.output.flush();
    this.checking = false;
    if (this.stopped) return;
    if (this.now() - this.lastOutputAt < this.settleMs) {
      this.arm(this.settleMs);
      return;
    }
    const end = findCycleEnd(this.command, this.output.lastLines(TAIL_LINES));
    if (!end) return; // quiet without a banner: looked at again after the next output
    this.outputSinceCycle = false;
    this.completed = { ...end, cycle: this.cycles + 1 };
    this.emitter.fire(this.completed);
  }
}
