/**
 * One managed terminal: its shell, the strategy it runs commands with, its current (or last) run,
 * the commands the user typed there that still run, and whether a call holds it while preparing a
 * run. The registry (terminalSessions.ts) owns sessions; everyone else sees TerminalSessionView.
 */
import { busyReasons } from '../errors';
import type { Disposable } from '../events';
import { batchJobAnswer } from '../run/batchJobPrompt';
import type { CommandRun } from '../run/commandRun';
import type { ShellInfo } from './shellKind';
import type { ExecutionStrategy } from './strategies';
import type { ShellExecution, ShellTerminal } from './terminalPort';

/** Events other parts (process tracking, views) follow. */
export type TerminalSessionEvent =
  | { readonly kind: 'sessionCreated'; readonly session: TerminalSessionView }
  | { readonly kind: 'runStarted'; readonly session: TerminalSessionView; readonly run: CommandRun }
  | { readonly kind: 'runStateChanged'; readonly session: TerminalSessionView; readonly run: CommandRun }
  | { readonly kind: 'sessionClosed'; readonly session: TerminalSessionView };

export interface TerminalSessionView {
  readonly name: string;
  readonly shellPid: number | undefined;
  readonly terminal: ShellTerminal;
  readonly shell: ShellInfo;
  readonly strategy: ExecutionStrategy;
  readonly currentRun: CommandRun | undefined;
  /** Commands the user typed there that still run. */
  readonly foreignExecutions: ReadonlySet<{ readonly commandLine: string }>;
  readonly closed: boolean;
  /** Why a new run cannot start here now (as far as known without asking the OS), or undefined. */
  busyReason(): string | undefined;
  /** Ctrl+C to whatever runs in the terminal; the current run counts it as input. */
  interrupt(): void;
  /** Text typed into the terminal (terminal_input); a Ctrl+C in it counts as an interrupt. */
  type(text: string, enter: boolean): void;
}

export class TerminalSession implements TerminalSessionView {
  currentRun: CommandRun | undefined;
  /** Executions of the current run (its own command and cascades it caused). */
  readonly runExecutions = new Set<ShellExecution>();
  /** The command line sent for the current run (a start with this line is the run's own). */
  sentLine: string | undefined;
  /** Executions the user started by typing, still running. */
  readonly foreignExecutions = new Set<ShellExecution>();
  closed = false;
  /** Set while a call prepares a run, so a concurrent call sees the terminal as taken. */
  reserved = false;
  private runSubscription: Disposable | undefined;
  private batchPromptWatch: Disposable | undefined;
  /** The run our last Ctrl+C went to: cmd.exe's batch-job question after it is answered yes. */
  private interruptedRun: CommandRun | undefined;

  constructor(
    readonly name: string,
    readonly terminal: ShellTerminal,
    readonly shellPid: number | undefined,
    readonly shell: ShellInfo,
    readonly strategy: ExecutionStrategy,
    /** The private folder of command files named in the terminal's environment ($TSHEP_R), if any. */
    readonly runsDir: string | undefined,
  ) {}

  /** Busy with a run of ours or with a command the user typed. */
  get busy(): boolean {
    return (this.currentRun?.active ?? false) || this.foreignExecutions.size > 0;
  }

  busyReason(): string | undefined {
    if (this.reserved) return busyReasons.starting;
    const run = this.currentRun;
    if (run?.active) return busyReasons.run(run.command, run.state.kind === 'waiting_for_input', run.durationMs);
    const typed = [...this.foreignExecutions][0];
    return typed ? busyReasons.typed(typed.commandLine) : undefined;
  }

  interrupt(): void {
    this.type('\u0003', false);
  }

  type(text: string, enter: boolean): void {
    if (this.closed) return;
    this.terminal.sendText(text, enter);
    if (text.includes('\u0003')) this.interruptedRun = this.currentRun;
    if (this.currentRun?.active) this.currentRun.inputSent(text, enter);
  }

  /** cmd.exe stops a batch file on Ctrl+C only after a yes: the interrupt we sent meant it. */
  private answerBatchPrompt(run: CommandRun): void {
    const state = run.state;
    const answer = state.kind === 'waiting_for_input' ? batchJobAnswer(state.prompt) : undefined;
    if (answer === undefined || run !== this.interruptedRun || this.closed) return;
    this.interruptedRun = undefined;
    this.type(answer, true);
  }

  /** Makes `run` the session's run; the previous one is disposed (its result was reported). */
  replaceRun(run: CommandRun, subscription: Disposable): void {
    const previous = this.currentRun;
    this.runSubscription?.dispose();
    this.currentRun = run;
    this.runSubscription = subscription;
    this.batchPromptWatch?.dispose();
    this.batchPromptWatch = run.onDidChangeState(() => this.answerBatchPrompt(run));
    this.interruptedRun = undefined;
    this.runExecutions.clear();
    previous?.dispose();
  }

  dispose(): void {
    this.runSubscription?.dispose();
    this.batchPromptWatch?.dispose();
    this.currentRun?.dispose();
    if (this.strategy.ownsProcesses) this.terminal.dispose();
  }
}
