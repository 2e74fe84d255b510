/**
 * One "something changed" signal for every view, fed by the ledger and the terminal service.
 * Events are coalesced: the first one schedules a single notification ~100 ms later and the
 * events until then ride along, so a burst (a poll finding ten processes, a terminal opening and
 * its first run) renders once, and a steady stream still renders at least every delay (a
 * resetting debounce could starve). Pure Node (timers only), so it is unit-tested.
 */
import { DisposableStore, Emitter, type Disposable, type Event } from '../../core/events';

export interface ChangeFeedOptions {
  /** What to follow (for example the ledger's and the terminal service's onDidChange). */
  readonly sources: readonly Event<unknown>[];
  readonly delayMs?: number;
}

export const DEFAULT_CHANGE_DELAY_MS = 100;

export class ChangeFeed implements Disposable {
  private readonly disposables = new DisposableStore();
  private readonly changeEmitter = this.disposables.add(new Emitter<void>());
  /** Fires at most once per delay after something changed; listener failures go to the log (core/events). */
  readonly onDidChange = this.changeEmitter.event;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ChangeFeedOptions) {
    for (const source of options.sources) {
      this.disposables.add(source(() => this.signal()));
    }
    this.disposables.add({ dispose: () => clearTimeout(this.timer) });
  }

  /** Something changed (also called directly, e.g. after a refresh the ledger found nothing new in). */
  signal(): void {
    if (this.disposables.isDisposed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changeEmitter.fire();
    }, this.options.delayMs ?? DEFAULT_CHANGE_DELAY_MS);
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
