/**
 * The terminal tools as the bridge serves them: terminal_run, terminal_state, terminal_input and
 * terminal_list. A call that types reads as three steps: plan (runPlan.ts, no side effects),
 * check (checks/, every command decided before anything happens) and execute (runStart.ts, then
 * awaitRun.ts, the one place a wait becomes a result).
 */
import { limits, type InputParams, type PreviousRun, type RunParams, type StateParams, type TerminalInfo, type TerminalRunResult } from '../../../../common/src/protocol';
import type { ApprovalPort, CheckedCall, CommandCheck } from '../checks/commandCheck';
import { checkCall, type CheckOutcome, type DecisionRecord } from '../checks/checkCall';
import { devServerOnceCheck } from '../checks/devServerOnce';
import { workspaceTrustCheck } from '../checks/workspaceTrust';
import { cancelledBeforeStartError, keySentWithoutRunError, noRunYetError } from '../errors';
import { Emitter, type Disposable } from '../events';
import type { CommandRun, RunProgress } from '../run/commandRun';
import { describeEnd, exitCodeOf } from '../run/runState';
import type { DevServers } from '../servers/devServers';
import { shellLabel } from '../terminals/shellKind';
import type { TerminalSession, TerminalSessionView } from '../terminals/terminalSession';
import { TerminalSessions, type TerminalSessionsDependencies } from '../terminals/terminalSessions';
import { awaitRun, reportNow, type AwaitOptions, type WaitHow } from './awaitRun';
import { callDeadline, describeCallPath, type CallMeta } from './callDeadline';
import { previousRunNote } from './runMessages';
import { callTimeout, planInput, planRun, type PlanContext } from './runPlan';
import { startRun } from './runStart';

export interface TerminalServiceDependencies extends Omit<TerminalSessionsDependencies, 'now'> {
  readonly now?: () => number;
  /** Where a new terminal starts when the call gives no cwd; undefined when no folder is open. */
  readonly workspaceFolder: () => string | undefined;
  /** Workspace trust: an untrusted workspace runs nothing (the first check). */
  readonly isTrusted: () => boolean;
  /** Dev-server support: the never-twice rule, restarts, waitMode "ready", port conflicts. */
  readonly servers?: DevServers;
  /** Checks after the built-in ones (trust, then never twice), in order. */
  readonly checks?: readonly CommandCheck[];
  /** Who is asked when a check says so and the call brings no way to ask of its own; without one nothing a check asks about runs. */
  readonly approver?: ApprovalPort;
  /** Every decision of the safety check, for the process log. */
  readonly audit?: (record: DecisionRecord) => void;
  /** How long a question waits for the person's answer (default 5 minutes). */
  readonly answerTimeoutMs?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Called about once a second while the call waits. */
  readonly onProgress?: (progress: RunProgress) => void;
  /** What the MCP server said about the client: its name, its deadline, whether the call is an MCP task. */
  readonly meta?: CallMeta;
  /** The session (an MCP client's connection) allows are kept for; one of its own when absent. */
  readonly session?: string;
  /** Asks the person for this call (the client's elicitation) instead of the default approver. */
  readonly approver?: ApprovalPort;
}

/** Calls that bring no session share this one. */
const DEFAULT_SESSION = 'window';

/** A call was cancelled while its command goes on (the person pressed Stop, or the client gave up). */
export interface AbandonedRun {
  /** The run's id: one run may be abandoned by several calls in turn. */
  readonly runId: number;
  readonly terminal: string;
  readonly command: string;
  /** The client, as it names itself. */
  readonly client: string | undefined;
}

/** What the calls of a terminal_run have reported of its run so far. */
interface Reported {
  /** Its end (completed, terminal closed) reached a caller. */
  final: boolean;
  /** The last watch cycle a caller saw. */
  cycle: number;
}

/** Lines of an unreported earlier run's output a terminal_run result carries. */
const PREVIOUS_TAIL_LINES = 20;

export class TerminalService implements Disposable {
  private readonly sessions: TerminalSessions;
  private readonly checks: readonly CommandCheck[];
  /** Sessions opening, runs starting and changing state, sessions closing. */
  readonly onDidChange: TerminalSessions['onDidChange'];
  private readonly abandonEmitter = new Emitter<AbandonedRun>();
  /** A call was cancelled and its command keeps running. */
  readonly onDidAbandonRun = this.abandonEmitter.event;
  /** Runs terminal_run started, and what their calls reported of them. */
  private readonly reported = new WeakMap<CommandRun, Reported>();
  private readonly now: () => number;

  constructor(private readonly deps: TerminalServiceDependencies) {
    this.now = deps.now ?? (() => performance.now());
    this.sessions = new TerminalSessions({ ...deps, now: this.now });
    this.onDidChange = this.sessions.onDidChange;
    this.checks = [workspaceTrustCheck(deps.isTrusted), ...(deps.servers ? [devServerOnceCheck(deps.servers)] : []), ...(deps.checks ?? [])];
  }

  /** The open terminals, read-only (for the ledger and the views). */
  sessionViews(): TerminalSessionView[] {
    return this.sessions.open();
  }

  /** terminal_run: plan, check, then send the command and wait per waitMode. */
  async run(params: RunParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const { signal } = options;
    if (signal?.aborted) throw cancelledBeforeStartError();
    const waitOptions = this.waitOptions(options, 0);
    this.deps.logger.info(`terminal_run from ${describeCallPath(options.meta, waitOptions.deadline)}`);
    // A task's client follows it to the end: without a timeout of its own, it waits as long as any call may.
    const asked = options.meta?.task && params.timeoutMs === undefined ? { ...params, timeoutMs: limits.maxTimeoutMs } : params;
    const planned = await planRun(asked, this.planContext());
    const checked = await checkCall(planned, {
      ...this.checkEnvironment(options),
      replan: (_, command) => planRun({ ...asked, command }, this.planContext()),
    });
    if (checked.kind === 'answer') return checked.result;
    const plan = checked.call;
    const previous = await this.unreportedEnd(plan.session);
    const { session, run } = await startRun(plan, { sessions: this.sessions, servers: this.deps.servers, workspaceFolder: this.deps.workspaceFolder(), ...(signal ? { signal } : {}) });
    this.reported.set(run, { final: false, cycle: 0 });
    const result = withSafety(checked, await this.await(session, run, plan.wait, waitOptions, options));
    return previous ? { ...result, previous: previous.run, message: [result.message, previous.note].filter(Boolean).join(' ') } : result;
  }

  /** terminal_state: the current or last run of a terminal, optionally waiting for it. */
  async state(params: StateParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const session = this.sessions.find(params.name);
    const run = session.currentRun;
    if (!run) {
      throw noRunYetError(params.name);
    }
    if (params.wait && run.active) {
      const timeoutMs = callTimeout(params.timeoutMs, this.deps.settings());
      // A server not ready yet is waited on until it is; anything else until it ends, asks, or (a watcher) completes a cycle.
      const how: WaitHow = this.deps.servers?.awaitsReady(run) ? { mode: 'ready', timeoutMs, readyPattern: undefined } : { mode: 'completion', timeoutMs };
      return this.await(session, run, how, this.waitOptions(options, this.reported.get(run)?.cycle ?? 0), options);
    }
    return this.noteReported(run, await reportNow(run));
  }

  /** terminal_input: type text into a running command (an answer, a key such as Ctrl+C, or a command at a nested shell's prompt), then wait. */
  async input(params: InputParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const planned = planInput(params, { sessions: this.sessions, settings: this.deps.settings() });
    const checked = await checkCall(planned, {
      ...this.checkEnvironment(options),
      replan: (_, text) => Promise.resolve(planInput({ ...params, text }, { sessions: this.sessions, settings: this.deps.settings() })),
    });
    if (checked.kind === 'answer') return checked.result;
    const { session, run, text, enter, timeoutMs } = checked.call;
    session.type(text, enter);
    if (!run) {
      throw keySentWithoutRunError(params.name);
    }
    // A key such as "a" to a watcher starts its next cycle: that is what the call waits for.
    return withSafety(checked, await this.await(session, run, { mode: 'completion', timeoutMs }, this.waitOptions(options, run.cycles), options));
  }

  /** terminal_list: every managed terminal that is still open. */
  list(): TerminalInfo[] {
    return this.sessions.open().map((session) => {
      const run = session.currentRun;
      const info: TerminalInfo = {
        name: session.name,
        busy: session.busy,
        shellIntegration: session.terminal.hasShellIntegration,
        shell: shellLabel(session.shell),
        strategy: session.strategy.name,
      };
      if (session.shellPid !== undefined) info.pid = session.shellPid;
      if (session.terminal.cwd !== undefined) info.cwd = session.terminal.cwd;
      const typed = [...session.foreignExecutions][0];
      if (typed && !run?.active) {
        // What the user typed is what runs there now, not our last (ended) run.
        info.command = typed.commandLine;
      } else if (run) {
        info.command = run.command;
        info.status = run.state.kind;
        const exitCode = exitCodeOf(run.state);
        if (exitCode !== undefined) info.exitCode = exitCode;
      }
      return info;
    });
  }

  /** Ctrl+C to the command running in a managed terminal (the person's Stop, from the views); false when nothing runs there. */
  interrupt(name: string): boolean {
    const session = this.sessions.get(name);
    if (!session?.currentRun?.active || session.closed) return false;
    session.interrupt();
    return true;
  }

  /** Shows a managed terminal to the user (used by the views). */
  reveal(name: string): boolean {
    const session = this.sessions.get(name);
    session?.terminal.show(false);
    return session !== undefined;
  }

  dispose(): void {
    this.sessions.dispose();
    this.abandonEmitter.dispose();
  }

  /** How a call waits: before its client's deadline, from the watch cycle its caller last saw. */
  private waitOptions(options: CallOptions, afterCycle: number): AwaitOptions {
    const settings = this.deps.settings();
    const deadline = callDeadline(options.meta, settings.clientTimeoutMs, this.now());
    return {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(this.deps.servers ? { servers: this.deps.servers } : {}),
      ...(deadline ? { deadline } : {}),
      logger: this.deps.logger,
      now: this.now,
      cancelInterrupts: settings.cancelInterrupts,
      afterCycle,
    };
  }

  /** awaitRun, then what the result told the caller, and a cancelled call whose command goes on. */
  private async await(session: TerminalSession, run: CommandRun, how: WaitHow, waitOptions: AwaitOptions, options: CallOptions): Promise<TerminalRunResult> {
    const result = this.noteReported(run, await awaitRun(session, run, how, waitOptions));
    if (result.status === 'cancelled' && run.active) {
      this.deps.logger.info(`the client cancelled its call; \`${run.command}\` keeps running in terminal "${session.name}"`);
      this.abandonEmitter.fire({ runId: run.id, terminal: session.name, command: run.command, client: options.meta?.client?.name });
    }
    return result;
  }

  /** Records what a result told its caller about a run terminal_run started. */
  private noteReported(run: CommandRun, result: TerminalRunResult): TerminalRunResult {
    const reported = this.reported.get(run);
    if (reported) {
      reported.final ||= result.status === 'completed' || result.status === 'terminal_closed' || (result.status === 'cancelled' && !run.active);
      reported.cycle = Math.max(reported.cycle, result.watch?.cycle ?? 0);
    }
    return result;
  }

  /** The terminal's last run when it ended while no call waited on it: terminal_run says how it ended. */
  private async unreportedEnd(session: TerminalSession | undefined): Promise<{ run: PreviousRun; note: string } | undefined> {
    const run = session?.currentRun;
    const reported = run && this.reported.get(run);
    if (!session || !run || run.active || !reported || reported.final) return undefined;
    reported.final = true;
    const snap = await run.outputSnapshot();
    const exitCode = exitCodeOf(run.state);
    const previous: PreviousRun = {
      command: run.command,
      status: run.state.kind,
      ...(exitCode !== undefined ? { exitCode } : {}),
      durationMs: run.durationMs,
      output: snap.output.split('\n').slice(-PREVIOUS_TAIL_LINES).join('\n'),
      ...(snap.outputFile ? { outputFile: snap.outputFile } : {}),
    };
    return { run: previous, note: previousRunNote(session.name, run.command, describeEnd(run.state)) };
  }

  private planContext(): PlanContext {
    return { sessions: this.sessions, servers: this.deps.servers, settings: this.deps.settings(), workspaceFolder: this.deps.workspaceFolder() };
  }

  private checkEnvironment(options: CallOptions) {
    const { deps } = this;
    return {
      checks: this.checks,
      approver: options.approver ?? deps.approver,
      logger: deps.logger,
      caller: { session: options.session ?? DEFAULT_SESSION },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(deps.audit ? { audit: deps.audit } : {}),
      ...(deps.answerTimeoutMs !== undefined ? { answerTimeoutMs: deps.answerTimeoutMs } : {}),
    };
  }
}

/** A run's result with the safety check's decision, so the model and the person see why it ran. */
function withSafety(checked: CheckOutcome<CheckedCall> & { kind: 'proceed' }, result: TerminalRunResult): TerminalRunResult {
  return checked.safety ? { ...result, safety: checked.safety } : result;
}
