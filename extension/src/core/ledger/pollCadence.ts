/**
 * When the ledger looks at process trees: fast while a command runs somewhere (a new command's
 * first look comes soon), slowly while only live processes remain, not at all otherwise; and
 * which extra checks a look owes (every live process at the idle cadence, ports at most every
 * PORTS_INTERVAL_MS). One timer, on the injected clock. The polls themselves are the tracker's,
 * run under its lock.
 */
import type { Logger } from '../../../../common/src/logger';
import { defaultLedgerSettings, type LedgerSettings } from './api';
import type { PollScope } from './treePoller';

/** First look at a new command's tree: soon, to catch short-lived processes too. */
const FIRST_POLL_MS = 200;
/** Timers fire a little late; a check this close to due counts as due. */
const CADENCE_SLACK_MS = 50;
/**
 * Ports are read at most this often while commands run (and at every idle check): reading the
 * kernel's TCP tables costs milliseconds on machines with much memory, the tree walk far less.
 */
const PORTS_INTERVAL_MS = 2000;

/** `running`: a command runs in some terminal; `idle`: only live processes remain; `quiet`: nothing to watch. */
export type PollActivity = 'running' | 'idle' | 'quiet';

/** When each extra check last ran, in ms on the cadence's clock. */
export interface LastChecks {
  readonly checkAllAt: number;
  readonly portsAt: number;
}

/** A poll the cadence asked for, started at `at`. */
export interface DuePoll extends PollScope {
  readonly at: number;
}

export interface PollCadenceDeps {
  /** Wall clock in ms since the epoch. */
  readonly now: () => number;
  readonly settings: () => LedgerSettings;
  readonly logger: Logger;
  readonly activity: () => PollActivity;
  /** The poll the timer asks for; it calls `due()` once it holds the lock and `polled()` when done. */
  readonly poll: () => Promise<void>;
}

/** The extra checks a poll at `now` owes. Pure. */
export function dueScope(now: number, last: LastChecks, idlePollIntervalMs: number): PollScope {
  const checkAll = now - last.checkAllAt >= idlePollIntervalMs - CADENCE_SLACK_MS;
  return { checkAll, ports: checkAll || now - last.portsAt >= PORTS_INTERVAL_MS - CADENCE_SLACK_MS };
}

export class PollCadence {
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private last: LastChecks = { checkAllAt: Number.NEGATIVE_INFINITY, portsAt: Number.NEGATIVE_INFINITY };
  private stopped = false;

  constructor(private readonly deps: PollCadenceDeps) {}

  /** A command started: its tree gets a first look soon. */
  runStarted(): void {
    this.schedule(Math.min(FIRST_POLL_MS, this.settings().pollIntervalMs));
  }

  /** Next tick: fast while a command runs somewhere, slow while only live processes remain, none otherwise. */
  reschedule(): void {
    const settings = this.settings();
    const activity = this.deps.activity();
    if (activity === 'running') {
      this.schedule(settings.pollIntervalMs);
    } else if (activity === 'idle') {
      this.schedule(settings.idlePollIntervalMs);
    }
  }

  /** What the poll starting now owes; ask under the lock, when the poll really starts. */
  due(): DuePoll {
    const at = this.deps.now();
    return { at, ...dueScope(at, this.last, this.settings().idlePollIntervalMs) };
  }

  /** A poll ran: the checks it made count from when it started. */
  polled(poll: DuePoll): void {
    this.last = { checkAllAt: poll.checkAll ? poll.at : this.last.checkAllAt, portsAt: poll.ports ? poll.at : this.last.portsAt };
  }

  /** Every check just ran outside the cadence (a refresh): the next ones are due from now. */
  checkedAll(): void {
    this.polled({ at: this.deps.now(), checkAll: true, ports: true });
  }

  /** No tick any more (the window is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    const due = this.deps.now() + delayMs;
    if (this.stopped || (this.timer !== undefined && this.timerDue <= due)) {
      return;
    }
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      void this.tick();
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.deps.poll();
    } catch (error) {
      this.deps.logger.warn('ledger: polling processes failed', error);
    }
    this.reschedule();
  }

  /** The settings as given (the settings table holds them to their ranges); idle polls never outpace busy ones. */
  private settings(): LedgerSettings {
    let s: LedgerSettings;
    try {
      s = this.deps.settings();
    } catch (error) {
      this.deps.logger.warn('ledger: reading settings failed; using defaults', error);
      s = defaultLedgerSettings;
    }
    return { ...s, idlePollIntervalMs: Math.max(s.idlePollIntervalMs, s.pollIntervalMs) };
  }
}
