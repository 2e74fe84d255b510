/**
 * Decides when a command run has truly finished, from events only (no timers, no I/O), so every
 * rule is unit-testable with synthetic events and an explicit clock.
 *
 * A run is completed only when:
 *  (0) its own execution (the one executeCommand returned, or a start with the same command line)
 *      has been seen, started or ended: a stray end from before it (VS Code reports spurious
 *      executions right after activation, microsoft/vscode#208650, and prompt themes confuse its
 *      command detection) cannot end the run,
 *  (a) every execution it caused has reported its end (with its exit code, when the shell gave one),
 *  (b) no new execution started in the terminal since the last end (a new one, such as the next
 *      line of multi-line input or an activation script, resets the wait), and
 *  (c) the shell is confirmed idle at its prompt: either an OS probe taken after the last end
 *      says so, followed by a short settle, or — when the OS cannot tell — the grace period passed.
 *      An end without an exit code is weak evidence (VS Code reports one when a theme redraws the
 *      prompt while the command line is still being read, and the real execution follows under
 *      another object): after it only the grace period completes the run.
 *  (d) an end the OS contradicts for the whole grace period (a job still holds the terminal: a
 *      program printed an end marker of its own, `ESC ] 633 ; D`, and VS Code took it for the
 *      shell's) is premature: the run waits until the shell is back at its prompt, and then
 *      reports no exit code, since the one reported came before the command finished.
 * Silence is never evidence: a quiet command (sleep) keeps the run open until its end arrives.
 */

export interface CompletionConfig {
  /** Ceiling after the last end when idleness cannot be confirmed by the OS. */
  readonly graceMs: number;
  /** Wait after the last end once the OS confirmed the shell idle, for already-queued starts. */
  readonly settleMs: number;
  /** Pause between shell probes while an end awaits confirmation. */
  readonly probeIntervalMs: number;
}

export type ShellIdleness = 'idle' | 'busy' | 'unknown';

export type CompletionDecision =
  | { readonly kind: 'running' }
  | { readonly kind: 'settling'; readonly wakeAt: number; readonly probeAt?: number }
  | { readonly kind: 'completed'; readonly exitCode: number | undefined; readonly at: number; readonly premature?: true };

export class CompletionTracker {
  private readonly active = new Set<unknown>();
  private readonly ended = new Set<unknown>();
  private readonly own = new Set<unknown>();
  private ownSeen = false;
  private lastEndAt: number | undefined;
  private lastExitCode: number | undefined;
  private lastEndHadCode = false;
  /** The last probe after the last end found a job holding the terminal. */
  private busyAfterEnd = false;
  /** The grace ran out while the OS said a job still held the terminal: the end came early. */
  private premature = false;
  private confirmedAt: number | undefined;
  private lastProbeAt: number | undefined;
  private osCanTell = true;
  private completion: { exitCode: number | undefined; at: number; premature?: true } | undefined;

  constructor(private readonly config: CompletionConfig) {}

  get completed(): boolean {
    return this.completion !== undefined;
  }

  get executionCount(): number {
    return this.active.size + this.ended.size;
  }

  /** `id` is the run's own execution (several ids may stand for it: see the class comment). */
  expectOwn(id: unknown): void {
    this.own.add(id);
    if (this.active.has(id) || this.ended.has(id)) this.ownSeen = true;
  }

  /** Whether the run's own execution has started or ended (always true when none is expected). */
  get ownExecutionSeen(): boolean {
    return this.ownSeen || this.own.size === 0;
  }

  /** An execution began in the terminal (ours or a cascade it caused). */
  executionStarted(id: unknown, _at: number): void {
    if (this.completion || this.ended.has(id)) {
      return;
    }
    this.active.add(id);
    if (this.own.has(id)) this.ownSeen = true;
    this.confirmedAt = undefined;
    this.busyAfterEnd = false;
  }

  /** An execution reported its end. An end without a seen start counts as both. */
  executionEnded(id: unknown, exitCode: number | undefined, at: number): void {
    if (this.completion || this.ended.has(id)) {
      return;
    }
    this.active.delete(id);
    this.ended.add(id);
    if (this.own.has(id)) this.ownSeen = true;
    this.lastEndAt = at;
    // A later end without a code (a spurious execution) does not erase a code already reported.
    if (exitCode !== undefined || this.ended.size === 1) this.lastExitCode = exitCode;
    this.lastEndHadCode = exitCode !== undefined;
    this.busyAfterEnd = false;
    this.premature = false;
    this.confirmedAt = undefined;
    this.lastProbeAt = undefined;
  }

  /** Result of an OS probe of the shell, taken at `at`. */
  shellProbed(idleness: ShellIdleness, at: number): void {
    if (this.completion) {
      return;
    }
    this.lastProbeAt = at;
    if (idleness === 'unknown') {
      this.osCanTell = false;
      return;
    }
    this.osCanTell = true;
    const afterLastEnd = this.lastEndAt !== undefined && at >= this.lastEndAt && this.active.size === 0;
    this.confirmedAt = idleness === 'idle' && afterLastEnd ? at : undefined;
    this.busyAfterEnd = idleness === 'busy' && afterLastEnd;
  }

  /** What the run is doing at `now`; `completed` is sticky once reached. */
  evaluate(now: number): CompletionDecision {
    if (this.completion) {
      return { kind: 'completed', ...this.completion };
    }
    if (this.active.size > 0 || this.lastEndAt === undefined || !this.ownExecutionSeen) {
      return { kind: 'running' };
    }
    const graceEnd = this.lastEndAt + this.config.graceMs;
    if (this.confirmedAt !== undefined && this.lastEndHadCode) {
      const settleEnd = Math.max(this.lastEndAt + this.config.settleMs, this.confirmedAt);
      if (now >= settleEnd) {
        return this.complete(now);
      }
      return { kind: 'settling', wakeAt: Math.min(settleEnd, graceEnd) };
    }
    if (now >= graceEnd) {
      if (!(this.osCanTell && this.lastEndHadCode && (this.busyAfterEnd || this.premature))) {
        return this.complete(now);
      }
      // The OS still sees a job: wait for the prompt (the call's own timeout bounds the wait).
      this.premature = true;
      const probeAt = Math.max(now, (this.lastProbeAt ?? now) + this.config.probeIntervalMs);
      return { kind: 'settling', wakeAt: probeAt, probeAt };
    }
    const wantsProbe = this.osCanTell && this.lastEndHadCode;
    const probeAt = wantsProbe
      ? this.lastProbeAt === undefined || this.lastProbeAt < this.lastEndAt
        ? now
        : Math.max(now, this.lastProbeAt + this.config.probeIntervalMs)
      : undefined;
    const wakeAt = probeAt === undefined ? graceEnd : Math.min(probeAt, graceEnd);
    return probeAt === undefined ? { kind: 'settling', wakeAt } : { kind: 'settling', wakeAt, probeAt };
  }

  private complete(now: number): CompletionDecision {
    this.completion = this.premature ? { exitCode: undefined, at: now, premature: true } : { exitCode: this.lastExitCode, at: now };
    return { kind: 'completed', ...this.completion };
  }
}
