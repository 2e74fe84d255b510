/**
 * One command sent to a managed terminal, from executeCommand until it has truly finished (or the
 * terminal closed). It outlives the tool call that started it: a run that timed out or waits for
 * input stays reachable so later calls (terminal_state, terminal_input) can wait on it again.
 *
 * It owns the timers of its own lifecycle: probing the shell after an end (completion) and while
 * the output is silent (input prompts). Every timer is cleared on completion and on dispose.
 */
import type { Logger } from '../../../../common/src/logger';
import type { AgentSession, StrategyName, WaitMode } from '../../../../common/src/protocol';
import { Emitter, type Disposable } from '../events';
import type { RunOutput, RunOutputSnapshot } from '../output/runOutput';
import type { ShellActivity } from '../processes/types';
import { CompletionTracker, type CompletionConfig, type ShellIdleness } from './completionTracker';
import { lastNonEmptyLine, type InputPromptConfig } from './inputPromptDetector';
import { ExecutionDrains, type ExecutionSource } from './executionDrains';
import { InputWatch } from './inputWatch';
import type { RunState, TerminalEnd } from './runState';
import { waitFor, type WaitOptions, type WaitOutcome } from './runWait';
import { ShellProbes } from './shellProbes';
import { WatchCycles, type WatchCycleEnd } from './watchCycles';

export interface RunConfig {
  readonly completion: CompletionConfig;
  readonly input: InputPromptConfig;
  /** Longest wait for an ended execution's output stream to drain before completing anyway. */
  readonly drainTimeoutMs: number;
}

export interface RunEnvironment {
  readonly now: () => number;
  /** What the OS (or the terminal itself) says the run's shell is doing. */
  readonly probeShell: () => Promise<ShellActivity>;
  readonly logger: Logger;
}

/** Where and how a run was launched: the facts the never-twice rule, readiness and the servers list read. */
export interface RunLaunch {
  /** The directory it runs in; undefined when the terminal's is not known. */
  readonly cwd: string | undefined;
  readonly waitMode: WaitMode;
  /** The agent session whose call started it (the ledger records it on what the run starts). */
  readonly agentSession?: AgentSession;
  /** It runs in the sandbox (core/sandbox/): why (`vscode`, `confined`), and whether the network is open inside. */
  readonly sandbox?: { readonly mode: 'vscode' | 'confined'; readonly network: boolean };
  /** The line typed instead of the command (the command wrapped in the sandbox runtime); results still name the command. */
  readonly typedLine?: string;
  /** The output limit its calling MCP client takes (output/outputLimit.ts). */
  readonly clientOutputLimitChars?: number;
}

export interface RunProgress {
  readonly elapsedMs: number;
  readonly outputChars: number;
  readonly lastLine: string;
}

const INPUT_CHECK_INTERVAL_MS = 250;

let nextRunId = 1;

export class CommandRun {
  readonly id = nextRunId++;
  readonly startedAt: number;
  private endedAt: number | undefined;
  /** When the first execution started and the last end event came, completion began (drains, output close) and the state was set: a call's stage timings. */
  readonly marks: { startEvent?: number; endEvent?: number; finishing?: number; finished?: number } = {};
  private runState: RunState = { kind: 'running' };
  private readonly tracker: CompletionTracker;
  private readonly drains: ExecutionDrains;
  private lastActivityAt: number;
  private readonly inputWatch: InputWatch;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly probes: ShellProbes;
  private finishing = false;
  private wasDisposed = false;
  private readonly disposeEmitter = new Emitter<void>();
  /** Fires once when the run is disposed (the window is closing). */
  readonly onDidDispose = this.disposeEmitter.event;
  private readonly outputSubscription: Disposable;
  private readonly stateEmitter = new Emitter<RunState>();
  /** Fires with the new state on every change (running <-> waiting_for_input, then the end). */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly ownSeenEmitter = new Emitter<void>();
  /** Fires when the run's own execution is seen starting or ending: the shell took the line. */
  readonly onDidSeeOwnExecution = this.ownSeenEmitter.event;
  private readonly watcher: WatchCycles;
  /** Fires when the command, turned watcher, completes a cycle (see watchCycles.ts). */
  readonly onDidCompleteCycle: WatchCycles['onDidComplete'];

  constructor(
    readonly command: string,
    readonly terminalName: string,
    readonly shellPid: number | undefined,
    /** How the terminal runs commands (reported in every result). */
    readonly strategy: StrategyName,
    private readonly output: RunOutput,
    private readonly config: RunConfig,
    private readonly env: RunEnvironment,
    readonly launch: RunLaunch = { cwd: undefined, waitMode: 'completion' },
  ) {
    this.startedAt = env.now();
    this.lastActivityAt = this.startedAt;
    this.tracker = new CompletionTracker(config.completion);
    this.inputWatch = new InputWatch(config.input, env.now);
    this.drains = new ExecutionDrains(output, (error) => env.logger.warn(`run ${this.id}: reading output failed`, error));
    this.watcher = new WatchCycles(command, output, env.now, (error) => env.logger.warn(`run ${this.id}: reading a watcher's cycle failed`, error));
    this.onDidCompleteCycle = this.watcher.onDidComplete;
    this.probes = new ShellProbes({
      probeShell: env.probeShell,
      logger: env.logger,
      label: `run ${this.id}`,
      wanted: () => this.active && !this.wasDisposed,
      onGone: () => {
        this.env.logger.info(`run ${this.id}: the shell (pid ${this.shellPid}) is gone and VS Code did not close its terminal; the run ends with it`);
        this.terminalClosed(undefined, 'shell_gone');
      },
    });
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

  /** Cycles the command completed as a watcher (0 while it is not one). */
  get cycles(): number {
    return this.watcher.cycles;
  }

  /** Its last completed watch cycle, if it turned into a watcher. */
  get watchCycle(): WatchCycleEnd | undefined {
    return this.watcher.latest;
  }

  /** A watcher that finished its last cycle and waits for file changes. */
  get watching(): boolean {
    return this.active && this.watcher.idle;
  }

  /** Starts consuming an execution's output; call synchronously after it was created or seen. */
  attachExecution(execution: ExecutionSource): void {
    this.drains.attach(execution);
  }

  /** The command line of the terminal's foreground job at the last OS probe, when one held it. */
  get foregroundCommand(): string | undefined {
    return this.probes.foregroundCommand;
  }

  /** Whether the run's own execution has been seen starting or ending. */
  get ownExecutionSeen(): boolean {
    return this.tracker.ownExecutionSeen;
  }

  /** `id` stands for the run's own execution (see CompletionTracker.expectOwn). */
  expectOwnExecution(id: unknown): void {
    this.ownSeen(() => this.tracker.expectOwn(id));
    this.reschedule();
  }

  executionStarted(id: unknown): void {
    this.markActivity();
    this.marks.startEvent ??= this.env.now();
    this.ownSeen(() => this.tracker.executionStarted(id, this.env.now()));
    this.reschedule();
  }

  executionEnded(id: unknown, exitCode: number | undefined): void {
    const at = (this.marks.endEvent = this.env.now());
    this.ownSeen(() => this.tracker.executionEnded(id, exitCode, at));
    this.reschedule();
  }

  /** Applies an execution event; fires onDidSeeOwnExecution when it made the own execution seen. */
  private ownSeen(apply: () => void): void {
    const before = this.tracker.ownExecutionSeen;
    apply();
    if (!before && this.tracker.ownExecutionSeen) this.ownSeenEmitter.fire();
  }

  /** `text` was sent to the terminal (with Enter when `enter`): any prompt seen so far is answered. */
  inputSent(text: string, enter: boolean): void {
    // Text typed without Enter answers nothing yet: the prompt still waits.
    if (enter || /[\r\n]/.test(text)) this.inputWatch.typed(lastNonEmptyLine(this.output.lastLines(5)), text);
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
    return waitFor(this, options);
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
    this.watcher.dispose();
    this.outputSubscription.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.stateEmitter.dispose();
    this.ownSeenEmitter.dispose();
    // Disposed with its terminal or window: its live log stays, the only record left of a run cut short.
    void this.output.close({ keepLog: true }).catch((error) => this.env.logger.warn(`run ${this.id}: closing output failed`, error));
  }

  /** Output, input or a new execution: silence restarts and any prompt seen so far is answered. */
  private markActivity(): void {
    this.lastActivityAt = this.env.now();
    this.inputWatch.activity();
    if (this.runState.kind === 'waiting_for_input') {
      this.setState({ kind: 'running' });
    }
  }

  private onOutput(): void {
    this.inputWatch.output();
    this.markActivity();
    this.watcher.activity();
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
        // Its answer reschedules: until then a wake only bounds a probe that never answers (no spin on a timer of 0).
        if (this.probes.pending) wakeAt = Math.max(wakeAt, now + this.config.completion.probeIntervalMs);
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

  /** Every timer of the run, the shell-gone grace and the watcher's included (at its end). */
  private stopTimers(): void {
    this.stopTimer();
    this.watcher.stop();
    this.probes.stop();
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
    if (this.probes.pending) {
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
    if (purpose === 'input' && !this.inputWatch.wantsProbe()) {
      void this.checkInputPrompt('unknown');
      return;
    }
    this.inputWatch.probed();
    this.probes.ask((activity) => {
      const at = this.env.now();
      // After an end, the shell reading its own prompt is the idle state, so only the foreground counts.
      const idleness: ShellIdleness = activity.foreground === 'unknown' ? 'unknown' : activity.foreground === 'shell' ? 'idle' : 'busy';
      this.tracker.shellProbed(idleness, at);
      if (this.tracker.evaluate(at).kind === 'running' && this.runState.kind === 'running') {
        void this.checkInputPrompt(this.inputWatch.confirmedReading(activity, at));
      }
      this.reschedule();
    });
  }

  private async checkInputPrompt(readingTerminal: boolean | 'unknown'): Promise<void> {
    // The prompt is the rendered tail: let the renderer catch up with what arrived.
    await this.output.flush();
    if (this.runState.kind !== 'running' || this.wasDisposed) {
      return;
    }
    const detected = this.inputWatch.detect(this.output.lastLines(5), this.env.now() - this.lastActivityAt, readingTerminal);
    if (detected && this.runState.kind === 'running') {
      this.setState({ kind: 'waiting_for_input', prompt: detected.prompt });
    }
  }

  /** Completion: let the output streams drain (bounded), then report completed. */
  private async finish(exitCode: number | undefined, endedEarly: boolean): Promise<void> {
    this.finishing = true;
    this.stopTimers();
    const completedAt = this.env.now();
    this.marks.finishing = completedAt;
    await this.drains.settle(this.config.drainTimeoutMs);
    // The output is final: close it so the log file holds everything before anyone reads it.
    await this.output.close();
    if (!endedEarly && this.output.reportedExitCode !== undefined) {
      exitCode = this.output.reportedExitCode;
    }
    const exitCodeSource = !endedEarly && exitCode !== undefined ? this.output.reportedExitSource : undefined;
    if (!this.active) {
      return;
    }
    this.endedAt = completedAt;
    this.marks.finished = this.env.now();
    this.setState(endedEarly ? { kind: 'completed', exitCode, endedEarly } : { kind: 'completed', exitCode, ...(exitCodeSource ? { exitCodeSource } : {}) });
  }
}
