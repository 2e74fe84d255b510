/**
 * Gets the tracker's changes to disk: events are appended at once (in order, one write per
 * batch); active-processes.json and the session summary are rewritten debounced, but at most
 * `maxDelayMs` after a change, because a window can die without warning. Failures are logged
 * and retried, never thrown at the tracker.
 */
import type { Logger } from '../../../../common/src/logger';
import { BoundedDebounce } from './boundedDebounce';
import type { ActiveEntry, DecisionEvent, LedgerEvent, SessionSummary } from './formats';
import type { LedgerStore } from './ledgerStore';

export interface PersistenceTiming {
  /** Quiet time before active-processes.json is rewritten after a change. */
  readonly activeDelayMs: number;
  /** Longest delay from a change to its write. */
  readonly activeMaxDelayMs: number;
  readonly sessionDelayMs: number;
  readonly sessionMaxDelayMs: number;
}

export const DEFAULT_TIMING: PersistenceTiming = { activeDelayMs: 200, activeMaxDelayMs: 1000, sessionDelayMs: 1000, sessionMaxDelayMs: 5000 };

export interface LedgerWriterSources {
  /** This window's entries as they are now (may wait, e.g. for startup's claim). */
  activeEntries(): Promise<ActiveEntry[]>;
  sessionSummary(): SessionSummary;
}

const MAX_RETRY_MS = 60_000;

export class LedgerWriter {
  private appending: Promise<void> = Promise.resolve();
  private readonly active: BoundedDebounce;
  private readonly session: BoundedDebounce;

  constructor(
    private readonly store: LedgerStore,
    private readonly sessionId: string,
    sources: LedgerWriterSources,
    timing: PersistenceTiming,
    private readonly logger: Logger,
    /** Every write failure, for the user's one notice (the log has each). */
    private readonly onWriteFailure: (path: string, error: unknown) => void = () => undefined,
  ) {
    this.active = new BoundedDebounce(() => this.writeActive(sources), {
      delayMs: timing.activeDelayMs,
      maxDelayMs: timing.activeMaxDelayMs,
      maxRetryMs: MAX_RETRY_MS,
      onError: (error) => {
        logger.warn(`ledger: could not write ${store.activePath}; will retry`, error);
        onWriteFailure(store.activePath, error);
      },
    });
    this.session = new BoundedDebounce(() => store.writeSession(sources.sessionSummary()), {
      delayMs: timing.sessionDelayMs,
      maxDelayMs: timing.sessionMaxDelayMs,
      maxRetryMs: MAX_RETRY_MS,
      onError: (error) => {
        logger.warn('ledger: could not write the session summary; will retry', error);
        onWriteFailure(store.dir, error);
      },
    });
  }

  append(events: (LedgerEvent | DecisionEvent)[]): void {
    if (events.length === 0) {
      return;
    }
    this.appending = this.appending
      .then(() => this.store.append(events))
      .catch((error: unknown) => {
        this.logger.warn(`ledger: could not append ${events.length} event(s) to the process log`, error);
        this.onWriteFailure(this.store.logPath, error);
      });
  }

  /** Settles when every event appended so far is written (or failed and was logged). */
  appended(): Promise<void> {
    return this.appending;
  }

  /** The processes changed: rewrite both files soon. */
  changed(): void {
    this.active.trigger();
    this.session.trigger();
  }

  /** The session summary changed alone (e.g. the session started or ended). */
  sessionChanged(): void {
    this.session.trigger();
  }

  /** Writes everything a last time and stops the timers. */
  async close(): Promise<void> {
    this.changed();
    await Promise.all([this.active.flush(), this.session.flush(), this.appending]);
    this.active.dispose();
    this.session.dispose();
  }

  /** Rewrites this window's entries, keeping every other window's. */
  private async writeActive(sources: LedgerWriterSources): Promise<void> {
    const mine = await sources.activeEntries();
    await this.store.updateActive((current) => ({ entries: [...current.filter((e) => e.sessionId !== this.sessionId), ...mine], result: undefined }));
  }
}
