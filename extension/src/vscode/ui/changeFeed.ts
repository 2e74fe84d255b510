/**
 * One "something changed" signal for every view, fed by the ledger and the terminal service.
 * Events are coalesced: the first one schedules a single notification ~100 ms later and the
 * events until then ride along, so a burst (a poll finding ten processes, a terminal opening and
 * its first run) renders once, and a steady stream still renders at least every delay (a
 * resetting debounce could starve). Pure Node (timers only), so it is unit-tested.
 */

export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener to one event source (e.g. `(l) => ledger.onDidChange(l)`). */
export type Subscribe = (listener: () => void) => Disposable;

export interface ChangeFeedOptions {
  readonly sources: readonly Subscribe[];
  readonly delayMs?: number;
  /** A listener threw: reported, never rethrown into the event source. */
  readonly onListenerError: (error: unknown) => void;
}

export const DEFAULT_CHANGE_DELAY_MS = 100;

export class ChangeFeed implements Disposable {
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions: Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(private readonly options: ChangeFeedOptions) {
    this.subscriptions = options.sources.map((subscribe) => subscribe(() => this.signal()));
  }

  onDidChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Something changed (also called directly, e.g. after a refresh the ledger found nothing new in). */
  signal(): void {
    if (this.disposed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.options.delayMs ?? DEFAULT_CHANGE_DELAY_MS);
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        this.options.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.listeners.clear();
  }
}
