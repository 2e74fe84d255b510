/**
 * The event and lifetime primitives of the extension, modelled on VS Code's own (and
 * microsoft/vscode-js-debug's src/common/events.ts and disposable.ts): an Emitter per listener
 * set, an Event to subscribe with, a Disposable for everything that must be undone and a
 * DisposableStore to undo many at once. Free of the vscode module (vscode.Disposable fits
 * Disposable structurally, so the vscode/ folder uses the same store).
 *
 * A listener that throws never reaches the code that fired the event, and a dispose that throws
 * never stops the others: both go to one handler, which the composition root points at the log.
 */

export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener; dispose the result to unsubscribe. */
export type Event<T> = (listener: (event: T) => void) => Disposable;

type ErrorHandler = (error: unknown, where: string) => void;

const reportToStderr: ErrorHandler = (error, where) => {
  console.error(`terminal-shepherd: ${where} failed:`, error);
};
let errorHandler: ErrorHandler = reportToStderr;

/**
 * Where listener and dispose failures go (the extension's log). Returns a Disposable that puts
 * the previous handler back, so tests and reloads leave no trace.
 */
export function setListenerErrorHandler(handler: ErrorHandler): Disposable {
  const previous = errorHandler;
  errorHandler = handler;
  return toDisposable(() => {
    if (errorHandler === handler) errorHandler = previous;
  });
}

function reportError(error: unknown, where: string): void {
  try {
    errorHandler(error, where);
  } catch {
    // The handler itself failed (a closed channel): nothing is left to tell.
  }
}

/** A Disposable that runs `fn` once, however often it is disposed. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** One listener set: `event` subscribes, `fire` calls every listener subscribed at that moment. */
export class Emitter<T> implements Disposable {
  // Entries rather than the functions themselves: one function subscribed twice is two listeners.
  private listeners: Set<{ readonly listener: (event: T) => void }> | undefined = new Set();

  readonly event: Event<T> = (listener) => {
    const listeners = this.listeners;
    if (!listeners) return toDisposable(() => undefined);
    const entry = { listener };
    listeners.add(entry);
    return toDisposable(() => listeners.delete(entry));
  };

  fire(event: T): void {
    if (!this.listeners || this.listeners.size === 0) return;
    for (const { listener } of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        reportError(error, 'an event listener');
      }
    }
  }

  /** Drops every listener; later subscriptions are no-ops and `fire` does nothing. */
  dispose(): void {
    this.listeners?.clear();
    this.listeners = undefined;
  }
}

/** Disposables with one lifetime, disposed together, newest first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Adds `item` (disposing it at once when the store is already disposed) and returns it. */
  add<D extends Disposable>(item: D): D {
    if (this.disposed) {
      safeDispose(item);
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) safeDispose(item);
  }
}

function safeDispose(item: Disposable): void {
  try {
    item.dispose();
  } catch (error) {
    reportError(error, 'a dispose');
  }
}
