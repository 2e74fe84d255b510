/**
 * Whether a running command that went silent waits for input: the OS's "the foreground is blocked
 * on a terminal read", believed once it held with no activity in between, together with the
 * prompt-like tail of the output (inputPromptDetector.ts has the rules).
 */
import type { ShellActivity } from '../processes/types';
import { detectInputPrompt, lastNonEmptyLine, type InputPromptConfig } from './inputPromptDetector';

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
  /** The prompt line showing when text was last typed, what was typed, and whether output came since. */
  private answer: { line: string; text: string; outputSince: boolean } | undefined;

  constructor(
    private readonly config: InputPromptConfig,
    private readonly now: () => number,
  ) {}

  /** Output, input or a new execution: a read seen so far is answered. */
  activity(): void {
    this.readingSince = undefined;
  }

  /** Text was typed while `line` was the last line shown: that line is answered. */
  typed(line: string, text: string): void {
    this.answer = { line: line.trimEnd(), text: text.trim(), outputSince: false };
  }

  /** The program printed something (the answer's echo, or what it does next). */
  output(): void {
    if (this.answer) this.answer.outputSince = true;
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
    const answered = this.isAnswered(lastNonEmptyLine(lastLines));
    return detectInputPrompt({ lastLines, silentForMs, readingTerminal, reader: this.reader, answered }, this.config);
  }

  /**
   * The last line is the prompt that was answered: still without the answer's echo (nothing printed
   * since), or followed by it. On a busy machine the program may not have read the answer yet, and
   * `Continue? [y/N] yes` still looks like a question; a fresh line asking again is not answered.
   */
  private isAnswered(line: string): boolean {
    const answer = this.answer;
    if (!answer || !line.startsWith(answer.line)) return false;
    const echo = line.slice(answer.line.length).trim();
    return echo.length === 0 ? !answer.outputSince : answer.text.length > 0 && answer.text.startsWith(echo);
  }
}
