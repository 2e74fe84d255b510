/**
 * One command sent to a managed terminal, from executeCommand until it has truly finished (or the
 * terminal closed). It outlives the tool call that started it: a run that timed out or waits for
 * input stays reachable so later calls (terminal_state, terminal_input) can wait on it again.
 *
 * It owns the timers of its own lifecycle: probing the shell after an end (completion) and while
 * the output is silent (input prompts). Every timer is cleared on completion and on dispose.
 */
import type { Logger } from '../../../../common/src/logger';
import type { StrategyName } from '../../../../common/src/protocol';
import { Emitter, type Disposable } from '../events';
import type { ShellActivity } from '../processes/types';
import type { RunOutput, RunOutputSnapshot } from './runOutput';
import { CompletionTracker, type CompletionConfig, type ShellIdleness } from './completionTracker';
import { detectInputPrompt, lastNonEmptyLine, type InputPromptConfig } from './inputPromptDetector';

/**
 * Why a run ended with its terminal: VS Code closed it because its shell exited (`shell_exit`),
 * the user closed it (`user`), the window is closing or reloading (`window`), or for a reason it
 * did not say (`closed`); `shell_gone`: the OS says the shell process is gone while VS Code kept
 * the terminal and said nothing (as when a shell exits during VS Code's launch phase);
 * `unreported_exit`: VS Code reported exit code 0, which it also reports for a shell killed by a
 * signal, so the real status is unknown.
 */
export type TerminalEnd = 'shell_exit' | 'user' | 'window' | 'closed' | 'shell_gone' | 'unreported_exit';

export type RunState =
  | { readonly kind: 'running' }
  | { readonly kind: 'waiting_for_input'; readonly prompt: string }
  /** `endedEarly`: the end event came while the command still ran (see CompletionTracker (d)). */
  | { readonly kind: 'completed'; readonly exitCode: number | undefined; readonly endedEarly?: true }
  | { readonly kind: 'terminal_closed'; readonly exitCode: number | undefined; readonly end: TerminalEnd };

export interface RunConfig {
  readonly completion: CompletionConfig;
  readonly input: InputPromptConfig;
  /** Longest wait for an ended execution's output stream to drain before completing anyway. */
  readonly drainTimeoutMs: number;
}

export interface RunEnvironment {
  readonly now: () => number;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  readonly logger: Logger;
}

/** The subset of an execution a run consumes: its raw output stream. */
export interface ExecutionSource {
  read(): AsyncIterable<string>;
}

export interface RunProgress {
  readonly elapsedMs: number;
  readonly outputChars: number;
  readonly lastLine: string;
}

/** `disposed`: the run was disposed while the wait was pending (the window is closing). */
export type WaitOutcome = 'completed' | 'waiting_for_input' | 'terminal_closed' | 'timeout' | 'cancelled' | 'disposed';

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Return as soon as the run waits for input (true for every tool wait). */
  readonly stopAtInput?: boolean;
}

const INPUT_CHECK_INTERVAL_MS = 250;
/**
 * Where the OS cannot tell whether the foreground reads the terminal (macOS, Windows), a silent
 * run still asks it this often whether the shell lives: one ps or CIM query a second.
 */
const LIVENESS_INTERVAL_MS = 1000;
/**
 * Once the OS says the shell is gone, how long VS Code gets to report the terminal's close (with
 * the shell's exit code) before the run ends without it: VS Code keeps some terminals whose shell
 * died and never reports them.
 */
const SHELL_GONE_GRACE_MS = 2000;
/**
 * A terminal read must be seen for this long with no output in between before it counts: the
 * prompt a program printed just before blocking may still be on its way through VS Code.
 */
const READ_CONFIRM_MS = 150;

let nextRunId = 1;

export class CommandRun {
  readonly id = nextRunId++;
  readonly startedAt: number;
  private endedAt: number | undefined;
  private runState: RunState = { kind: 'running' };
  private readonly tracker: CompletionTracker;
  private readonly drains = new Set<Promise<void>>();
  private lastActivityAt: number;
  private readingTerminalKnown = true;
  /** When a probe first saw the foreground blocked on a terminal read since the last activity. */
  private readingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private probing = false;
  private lastForeground: string | undefined;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private goneTimer: NodeJS.Timeout | undefined;
  private finishing = false;
  private wasDisposed = false;
  private readonly disposeEmitter = new Emitter<void>();
  private readonly outputSubscription: Disposable;
  private readonly stateEmitter = new Emitter<RunState>();
  /** Fires with the new state on every change (running <-> waiting_for_input, then the end). */
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(
    readonly command: string,
    readonly terminalName: string,
    readonly shellPid: number | undefined,
    /** How the terminal runs commands (reported in every result). */
    readonly strategy: StrategyName,
    private readonly output: RunOutput,
    private readonly config: RunConfig,
    private readonly env: RunEnvironment,
  ) {
    this.startedAt = env.now();
    this.lastActivityAt = this.startedAt;
    this.tracker = new CompletionTracker(config.completion);
    this.outputSubscription = this.output.onDidWrite(() => this.onOutput());
    this.reschedule();
  }

  get state(): RunState {
    return this.runState;
  }

  /** Disposed (the window is closing): every wait on it ends at once with `disposed`. */
  get disposed(): boolean {
    return this.wasDisposed;
  }

  /** Running or waiting for input: the terminal is busy with this run. */
  get active(): boolean {
    return this.runState.kind === 'running' || this.runState.kind === 'waiting_for_input';
  }

  get durationMs(): number {
    return Math.max(0, Math.round((this.endedAt ?? this.env.now()) - this.startedAt));
  }

  /** Starts consuming an execution's output; call synchronously after it was created or seen. */
  attachExecution(execution: ExecutionSource): void {
    const drain = (async () => {
      try {
        for await (const chunk of execution.read()) {
          // Backpressure: a fast producer must not pile up unrendered data in memory.
          if (!this.output.write(chunk)) await this.output.flush();
        }
      } catch (error) {
        this.env.logger.warn(`run ${this.id}: reading output failed`, error);
      }
    })();
    this.drains.add(drain);
    void drain.finally(() => this.drains.delete(drain));
  }

  /** The command line of the terminal's foreground job at the last OS probe, when one held it. */
  get foregroundCommand(): string | undefined {
    return this.lastForeground;
  }

  /** Whether the run's own execution has been seen starting or ending. */
  get ownExecutionSeen(): boolean {
    return this.tracker.ownExecutionSeen;
  }

  /** `id` stands for the run's own execution (see CompletionTracker.expectOwn). */
  expectOwnExecution(id: unknown): void {
    this.tracker.expectOwn(id);
    this.reschedule();
  }

  executionStarted(id: unknown): void {
    this.markActivity();
    this.tracker.executionStarted(id, this.env.now());
    this.reschedule();
  }

  executionEnded(id: unknown, exitCode: number | undefined): void {
    this.tracker.executionEnded(id, exitCode, this.env.now());
    this.reschedule();
  }

  /** Text was sent to the terminal: any prompt seen so far is answered. */
  inputSent(): void {
    this.markActivity();
    this.reschedule();
  }

  /** The terminal ended under the run; `end` says how much of VS Code's exit code can be believed. */
  terminalClosed(exitCode: number | undefined, end: TerminalEnd = 'closed'): void {
    if (!this.active) {
      return;
    }
    this.endedAt = this.env.now();
    this.stopTimers();
    this.setState({ kind: 'terminal_closed', exitCode, end });
  }

  progress(): RunProgress {
    return {
      elapsedMs: this.durationMs,
      outputChars: this.output.totalChars,
      lastLine: lastNonEmptyLine(this.output.lastLines(3)),
    };
  }

  /** Resolves when the run reaches an outcome a tool reports, or the wait times out / is aborted. */
  wait(options: WaitOptions): Promise<WaitOutcome> {
    const stopAtInput = options.stopAtInput ?? true;
    const settled = (): WaitOutcome | undefined => {
      const kind = this.runState.kind;
      if (kind === 'completed' || kind === 'terminal_closed') {
        return kind;
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
    if (this.wasDisposed) {
      return Promise.resolve('disposed');
    }
    return new Promise<WaitOutcome>((resolve) => {
      const finish = (outcome: WaitOutcome): void => {
        clearTimeout(timeout);
        subscription.dispose();
        disposal.dispose();
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = (): void => finish('cancelled');
      const timeout = setTimeout(() => finish('timeout'), options.timeoutMs);
      const subscription = this.onDidChangeState(() => {
        const outcome = settled();
        if (outcome) {
          finish(outcome);
        }
      });
      // A wait never outlives the run: the window closing ends it at once, not at its timeout.
      const disposal = this.disposeEmitter.event(() => finish('disposed'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The output as it stands, once everything received so far is rendered. */
  async outputSnapshot(): Promise<RunOutputSnapshot> {
    await this.output.flush();
    return this.output.snapshot();
  }

  dispose(): void {
    if (this.wasDisposed) {
      return;
    }
    this.wasDisposed = true;
    this.stopTimers();
    this.outputSubscription.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.stateEmitter.dispose();
    void this.output.close().catch((error) => this.env.logger.warn(`run ${this.id}: closing output failed`, error));
  }

  /** Output, input or a new execution: silence restarts and any prompt seen so far is answered. */
  private markActivity(): void {
    this.lastActivityAt = this.env.now();
    this.readingSince = undefined;
    if (this.runState.kind === 'waiting_for_input') {
      this.setState({ kind: 'running' });
    }
  }

  private onOutput(): void {
    this.markActivity();
    this.reschedule();
  }

  private setState(state: RunState): void {
    this.runState = state;
    this.stateEmitter.fire(state);
  }

  /** Computes the next moment something must be checked and arms one timer for it. */
  private reschedule(): void {
    if (!this.active || this.finishing || this.wasDisposed) {
      return;
    }
    const now = this.env.now();
    const decision = this.tracker.evaluate(now);
    if (decision.kind === 'completed') {
      void this.finish(decision.exitCode, decision.premature === true);
      return;
    }
    let wakeAt: number;
    if (decision.kind === 'settling') {
      wakeAt = decision.wakeAt;
      if (decision.probeAt !== undefined && decision.probeAt <= now) {
        this.probe('settling');
      }
    } else if (this.runState.kind === 'waiting_for_input') {
      // Nothing to check until output, input or an end arrives; each of those reschedules.
      this.stopTimer();
      return;
    } else {
      const silence = Math.min(this.config.input.strongSilenceMs, this.config.input.readingSilenceMs);
      wakeAt = Math.max(this.lastActivityAt + silence, now + INPUT_CHECK_INTERVAL_MS / 2);
    }
    this.armTimer(wakeAt);
  }

  private armTimer(at: number): void {
    if (this.timer && at >= this.timerAt) {
      return;
    }
    this.stopTimer();
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.onTimer();
    }, Math.max(0, at - this.env.now()));
  }

  /** Every timer of the run, the shell-gone grace included (at its end). */
  private stopTimers(): void {
    this.stopTimer();
    clearTimeout(this.goneTimer);
    this.goneTimer = undefined;
  }

  private stopTimer(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
    }
  }

  private onTimer(): void {
    if (!this.active || this.wasDisposed) {
      return;
    }
    const decision = this.tracker.evaluate(this.env.now());
    if (decision.kind === 'running' && this.runState.kind === 'running') {
      this.probe('input');
      this.armTimer(this.env.now() + INPUT_CHECK_INTERVAL_MS);
      return;
    }
    this.reschedule();
  }

  /** Asks the OS about the shell; the answer feeds completion or input detection. */
  private probe(purpose: 'settling' | 'input'): void {
    if (this.probing) {
      return;
    }
    if (this.shellPid === undefined) {
      if (purpose === 'settling') {
        this.tracker.shellProbed('unknown', this.env.now());
      } else {
        void this.checkInputPrompt('unknown');
      }
      return;
    }
    if (purpose === 'input' && !this.readingTerminalKnown && this.env.now() - this.lastProbeAt < LIVENESS_INTERVAL_MS) {
      void this.checkInputPrompt('unknown');
      return;
    }
    this.probing = true;
    this.lastProbeAt = this.env.now();
    void this.env
      .probeShell(this.shellPid)
      .then(
        (activity) => activity,
        (error): ShellActivity => {
          this.env.logger.debug(`run ${this.id}: shell probe failed`, error);
          return { foreground: 'unknown', readingTerminal: 'unknown' };
        },
      )
      .then((activity) => {
        this.probing = false;
        if (!this.active || this.wasDisposed) {
          return;
        }
        if (activity.foreground === 'gone') {
          this.shellGone();
          return;
        }
        const at = this.env.now();
        // After an end, the shell reading its own prompt is the idle state, so only the foreground counts.
        const idleness: ShellIdleness =
          activity.foreground === 'unknown' ? 'unknown' : activity.foreground === 'shell' ? 'idle' : 'busy';
        this.tracker.shellProbed(idleness, at);
        this.lastForeground = activity.foreground === 'job' ? activity.foregroundCommand : undefined;
        if (activity.readingTerminal === 'unknown') {
          this.readingTerminalKnown = false;
        }
        if (this.tracker.evaluate(at).kind === 'running' && this.runState.kind === 'running') {
          void this.checkInputPrompt(this.confirmedReading(activity.readingTerminal, at));
        }
        this.reschedule();
      })
      .catch((error: unknown) => {
        this.probing = false;
        this.env.logger.error(`run ${this.id}: handling a shell probe failed`, error);
      });
  }

  /**
   * The OS says the shell is gone. VS Code normally closes the terminal soon, with the shell's
   * exit code; but it keeps some terminals whose shell died and never says so. The OS has the
   * last word after a short grace.
   */
  private shellGone(): void {
    if (this.goneTimer) {
      return;
    }
    this.goneTimer = setTimeout(() => {
      this.goneTimer = undefined;
      if (this.active && !this.wasDisposed) {
        this.env.logger.info(`run ${this.id}: the shell (pid ${this.shellPid}) is gone and VS Code did not close its terminal; the run ends with it`);
        this.terminalClosed(undefined, 'shell_gone');
      }
    }, SHELL_GONE_GRACE_MS);
  }

  /** The OS's "blocked on a terminal read", once it held with no activity for READ_CONFIRM_MS. */
  private confirmedReading(reading: boolean | 'unknown', at: number): boolean | 'unknown' {
    if (reading !== true) {
      this.readingSince = undefined;
      return reading;
    }
    this.readingSince ??= at;
    return at - this.readingSince >= READ_CONFIRM_MS;
  }

  private async checkInputPrompt(readingTerminal: boolean | 'unknown'): Promise<void> {
    // The prompt is the rendered tail: let the renderer catch up with what arrived.
    await this.output.flush();
    if (this.runState.kind !== 'running' || this.wasDisposed) {
      return;
    }
    const detected = detectInputPrompt(
      {
        lastLines: this.output.lastLines(5),
        silentForMs: this.env.now() - this.lastActivityAt,
        readingTerminal,
      },
      this.config.input,
    );
    if (detected && this.runState.kind === 'running') {
      this.setState({ kind: 'waiting_for_input', prompt: detected.prompt });
    }
  }

  /** Completion: let the output streams drain (bounded), then report completed. */
  private async finish(exitCode: number | undefined, endedEarly: boolean): Promise<void> {
    this.finishing = true;
    this.stopTimers();
    const completedAt = this.env.now();
    if (this.drains.size > 0) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...this.drains]),
        new Promise<void>((resolve) => {
          timeout = setTimeout(resolve, this.config.drainTimeoutMs);
        }),
      ]);
      clearTimeout(timeout);
    }
    // The output is final: close it so the log file holds everything before anyone reads it.
    await this.output.close();
    if (!endedEarly && this.output.reportedExitCode !== undefined) {
      exitCode = this.output.reportedExitCode;
    }
    if (!this.active) {
      return;
    }
    this.endedAt = completedAt;
    this.setState(endedEarly ? { kind: 'completed', exitCode, endedEarly } : { kind: 'completed', exitCode });
  }
}
