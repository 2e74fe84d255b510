/**
 * A run's questions to the OS about its shell: one at a time (a probe still out is not asked
 * again), a failed one read as "cannot tell", the foreground job's command line at the last
 * answer, and the last word on a shell that is gone: VS Code normally closes the terminal soon,
 * with the shell's exit code, but it keeps some terminals whose shell died and never says so, so
 * after a short grace the run ends with the OS's word.
 */
import type { Logger } from '../../../../common/src/logger';
import type { ShellActivity } from '../processes/types';

/** Once the OS says the shell is gone, how long VS Code gets to report the terminal's close before the run ends without it. */
const SHELL_GONE_GRACE_MS = 2000;

export interface ShellProbesDeps {
  /** What the OS (or the terminal itself) says the run's shell is doing. */
  readonly probeShell: () => Promise<ShellActivity>;
  readonly logger: Logger;
  /** Names the run in log lines. */
  readonly label: string;
  /** Whether an answer still matters (the run is active and not disposed). */
  readonly wanted: () => boolean;
  /** The shell stayed gone for the whole grace. */
  readonly onGone: () => void;
}

export class ShellProbes {
  private out = false;
  private goneTimer: NodeJS.Timeout | undefined;
  private foreground: string | undefined;

  constructor(private readonly deps: ShellProbesDeps) {}

  /** A probe is out: its answer will come. */
  get pending(): boolean {
    return this.out;
  }

  /** The command line of the terminal's foreground job at the last answer, when one held it. */
  get foregroundCommand(): string | undefined {
    return this.foreground;
  }

  /** Asks the OS once (nothing when a probe is out); `answer` gets what it said while it matters, unless the shell is gone. */
  ask(answer: (activity: ShellActivity) => void): void {
    if (this.out) return;
    this.out = true;
    void this.deps
      .probeShell()
      .then(
        (activity) => activity,
        (error): ShellActivity => {
          this.deps.logger.debug(`${this.deps.label}: shell probe failed`, error);
          return { foreground: 'unknown', readingTerminal: 'unknown' };
        },
      )
      .then((activity) => {
        this.out = false;
        if (!this.deps.wanted()) return;
        if (activity.foreground === 'gone') {
          this.gone();
          return;
        }
        this.foreground = activity.foreground === 'job' ? activity.foregroundCommand : undefined;
        answer(activity);
      })
      .catch((error: unknown) => {
        this.out = false;
        this.deps.logger.error(`${this.deps.label}: handling a shell probe failed`, error);
      });
  }

  /** No grace timer left behind (the run ended or was disposed). */
  stop(): void {
    clearTimeout(this.goneTimer);
    this.goneTimer = undefined;
  }

  private gone(): void {
    if (this.goneTimer) return;
    this.goneTimer = setTimeout(() => {
      this.goneTimer = undefined;
      if (this.deps.wanted()) this.deps.onGone();
    }, SHELL_GONE_GRACE_MS);
  }
}
