/** A bounded wait on a run's state: until it reaches an outcome a tool reports, times out, is cancelled or disposed. */
import type { Event } from '../events';
import type { RunState } from './runState';

/**
 * `disposed`: the run was disposed while the wait was pending (the window is closing);
 * `watching`: it completed a watch cycle after the one the wait started from.
 */
export type WaitOutcome = 'completed' | 'waiting_for_input' | 'terminal_closed' | 'timeout' | 'cancelled' | 'disposed' | 'watching';

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Return as soon as the run waits for input (true for every tool wait). */
  readonly stopAtInput?: boolean;
  /** Return `watching` once the run completed a watch cycle after this one (tool waits; 0 for the first). */
  readonly afterCycle?: number;
}

/** What a wait watches. */
export interface Waitable {
  readonly state: RunState;
  readonly disposed: boolean;
  readonly onDidChangeState: Event<RunState>;
  readonly onDidDispose: Event<void>;
  readonly cycles: number;
  readonly onDidCompleteCycle: Event<unknown>;
}

export function waitFor(run: Waitable, options: WaitOptions): Promise<WaitOutcome> {
  const stopAtInput = options.stopAtInput ?? true;
  const settled = (): WaitOutcome | undefined => {
    const kind = run.state.kind;
    if (kind === 'completed' || kind === 'terminal_closed') {
      return kind;
    }
    if (options.afterCycle !== undefined && run.cycles > options.afterCycle) {
      return 'watching';
    }
    return kind === 'waiting_for_input' && stopAtInput ? kind : undefined;
  };
  const immediate = settled();
  if (immediate) {
    return Promise.resolve(immediate);
  }
  if (options.signal?.aborted) {
    return Promise.resolve('cancelled');
  }
  if (run.disposed) {
    return Promise.resolve('disposed');
  }
  return new Promise<WaitOutcome>((resolve) => {
    const finish = (outcome: WaitOutcome): void => {
      clearTimeout(timeout);
      subscription.dispose();
      cycles.dispose();
      disposal.dispose();
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish('cancelled');
    const timeout = setTimeout(() => finish('timeout'), options.timeoutMs);
    const subscription = run.onDidChangeState(() => {
      const outcome = settled();
      if (outcome) {
        finish(outcome);
      }
    });
    const cycles = run.onDidCompleteCycle(() => {
      const outcome = settled();
      if (outcome) {
        finish(outcome);
      }
    });
    // A wait never outlives the run: the window closing ends it at once, not at its timeout.
    const disposal = run.onDidDispose(() => finish('disposed'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
