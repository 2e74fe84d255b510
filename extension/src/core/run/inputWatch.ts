/**
 * Whether a running command that went silent waits for input: the OS's "the foreground is blocked
 * on a terminal read", believed once it held with no activity in between, together with the
 * prompt-like tail of the output (inputPromptDetector.ts has the rules).
 */
import type { ShellActivity } from '../processes/types';
import { detectInputPrompt, type InputPromptConfig } from './inputPromptDetector';

/**
 * Where the OS cannot tell whether the foreground reads the terminal (macOS, Windows), a silent
 * run still asks it this often whether the shell lives: one ps or CIM query a second.
 */
const LIVENESS_INTERVAL_MS = 1000;
/**
 * A terminal read must be seen for this long with no output in between before it counts: the
 * prompt a program printed just before blocking may still be on its way through VS Code.
 */
const READ_CONFIRM_MS = 150;

export class InputWatch {
  private readingTerminalKnown = true;
  /** When a probe first saw the foreground blocked on a terminal read since the last activity. */
  private readingSince: number | undefined;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  /** Whose read the last probe saw: the shell's own (a builtin, or its prompt) or a job's. */
  private reader: 'shell' | 'job' = 'job';

  constructor(
    private readonly config: InputPromptConfig,
    private readonly now: () => number,
  ) {}

  /** Output, input or a new execution: a read seen so far is answered. */
  activity(): void {
    this.readingSince = undefined;
  }

  /** False while the OS cannot tell reads and was asked less than a second ago (the check goes on without it). */
  wantsProbe(): boolean {
    return this.readingTerminalKnown || this.now() - this.lastProbeAt >= LIVENESS_INTERVAL_MS;
  }

  probed(): void {
    this.lastProbeAt = this.now();
  }

  /** The OS's answer at `at`, confirmed: true only once it held for READ_CONFIRM_MS. */
  confirmedReading(activity: Pick<ShellActivity, 'foreground' | 'readingTerminal'>, at: number): boolean | 'unknown' {
    const reading = activity.readingTerminal;
    this.reader = activity.foreground === 'shell' ? 'shell' : 'job';
    if (reading === 'unknown') this.readingTerminalKnown = false;
    if (reading !== true) {
      this.readingSince = undefined;
      return reading;
    }
    this.readingSince ??= at;
    return at - this.readingSince >= READ_CONFIRM_MS;
  }

  /** The prompt the run waits at, judged from its last lines and how long it has been silent. */
  detect(lastLines: readonly string[], silentForMs: number, readingTerminal: boolean | 'unknown'): { prompt: string } | undefined {
    return detectInputPrompt({ lastLines, silentForMs, readingTerminal, reader: this.reader }, this.config);
  }
}
