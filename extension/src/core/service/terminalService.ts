/**
 * The terminal tools as the bridge serves them: terminal_run, terminal_state, terminal_input and
 * terminal_list. A call that types reads as three steps: plan (runPlan.ts, no side effects),
 * check (checks/, every command decided before anything happens) and execute (runStart.ts, then
 * awaitRun.ts, the one place a wait becomes a result).
 */
import type { InputParams, RunParams, StateParams, TerminalInfo, TerminalRunResult } from '../../../../common/src/protocol';
import type { ApprovalPort, CheckedCall, CommandCheck } from '../checks/commandCheck';
import { checkCall, type CheckOutcome, type DecisionRecord } from '../checks/checkCall';
import { devServerOnceCheck } from '../checks/devServerOnce';
import { workspaceTrustCheck } from '../checks/workspaceTrust';
import { cancelledBeforeStartError, keySentWithoutRunError, noRunYetError } from '../errors';
import type { Disposable } from '../events';
import type { RunProgress } from '../run/commandRun';
import { exitCodeOf } from '../run/runState';
import type { DevServers } from '../servers/devServers';
import { shellLabel } from '../terminals/shellKind';
import type { TerminalSessionView } from '../terminals/terminalSession';
import { TerminalSessions, type TerminalSessionsDependencies } from '../terminals/terminalSessions';
import { awaitRun } from './awaitRun';
import { runResult } from './runResult';
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
  /** The session (an MCP client's connection) allows are kept for; one of its own when absent. */
  readonly session?: string;
  /** Asks the person for this call (the client's elicitation) instead of the default approver. */
  readonly approver?: ApprovalPort;
}

/** Calls that bring no session share this one. */
const DEFAULT_SESSION = 'window';

export class TerminalService implements Disposable {
  private readonly sessions: TerminalSessions;
  private readonly checks: readonly CommandCheck[];
  /** Sessions opening, runs starting and changing state, sessions closing. */
  readonly onDidChange: TerminalSessions['onDidChange'];

  constructor(private readonly deps: TerminalServiceDependencies) {
    this.sessions = new TerminalSessions({ ...deps, now: deps.now ?? (() => performance.now()) });
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
    const planned = await planRun(params, this.planContext());
    const checked = await checkCall(planned, {
      ...this.checkEnvironment(options),
      replan: (_, command) => planRun({ ...params, command }, this.planContext()),
    });
    if (checked.kind === 'answer') return checked.result;
    const plan = checked.call;
    const { servers } = this.deps;
    const { session, run } = await startRun(plan, { sessions: this.sessions, servers, workspaceFolder: this.deps.workspaceFolder(), ...(signal ? { signal } : {}) });
    return withSafety(checked, await awaitRun(session, run, plan.wait, { ...options, ...(servers ? { servers } : {}), logger: this.deps.logger }));
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
      return awaitRun(session, run, { mode: 'completion', timeoutMs }, { ...options, logger: this.deps.logger });
    }
    return runResult(run, run.state.kind);
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
    return withSafety(checked, await awaitRun(session, run, { mode: 'completion', timeoutMs }, { ...options, logger: this.deps.logger }));
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

  /** Shows a managed terminal to the user (used by the views). */
  reveal(name: string): boolean {
    const session = this.sessions.get(name);
    session?.terminal.show(false);
    return session !== undefined;
  }

  dispose(): void {
    this.sessions.dispose();
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
