/**
 * The terminal tools as the bridge serves them: terminal_run, terminal_state, terminal_input and
 * terminal_list. A call builds its context once (callContext.ts), and a call that types reads as
 * plan (runPlan.ts, no side effects), check (checks/, every command decided before anything
 * happens), start (runStart.ts) and await (awaitRun.ts, the one place a wait becomes a result).
 */
import { limits, type InputParams, type PreviousRun, type RunParams, type SandboxReport, type StateParams, type TerminalInfo, type TerminalRunResult } from '../../../../common/src/protocol';
import type { ApprovalPort, CommandCheck } from '../checks/commandCheck';
import { ANSWER_TIMEOUT_MS, checkCall, type DecisionRecord } from '../checks/checkCall';
import { devServerOnceCheck } from '../checks/devServerOnce';
import { workspaceTrustCheck } from '../checks/workspaceTrust';
import { cancelledBeforeStartError, noRunYetError, sandboxedInputError, windowClosingError } from '../errors';
import { Emitter, type Disposable } from '../events';
import type { CommandRun } from '../run/commandRun';
import type { Redactor } from '../secrets/redaction';
import { describeEnd, exitCodeOf } from '../run/runState';
import { TerminalSecrets } from '../secrets/terminalSecrets';
import type { CallServers } from '../servers/devServers';
import type { ShepherdSettings } from '../settings';
import { shellLabel } from '../terminals/shellKind';
import type { TerminalSession, TerminalSessionView } from '../terminals/terminalSession';
import { TerminalSessions, type TerminalSessionsDependencies } from '../terminals/terminalSessions';
import { awaitRun, lineTakenBeforeInterrupt, reportNow, type AwaitDetails } from './awaitRun';
import { callContext, type CallContext, type CallOptions, type CallParts } from './callContext';
import { CallTimings } from './callTimings';
import { describeCallPath } from './callDeadline';
import { previousRunNote } from './runMessages';
import { keySentResult, type ResultDetails } from './runResult';
import { callTimeout, planInput, planRun, type RunPlan, type WaitHow } from './runPlan';
import { startRun, type StartedRun } from './runStart';
import { guardSecretPrompt, redactedCall, redactedProgress } from './secretGuard';
import { deniedNote, leaveOffer, sandboxChecks, sandboxFor, sandboxReport } from './sandboxRun';
import { sandboxMode, type CommandSandbox, type PreparedSandbox } from '../sandbox/commandSandbox';
import { SecretQuestions, type SecretPrompt } from './secretQuestion';

export interface TerminalServiceDependencies extends Omit<TerminalSessionsDependencies, 'now'> {
  readonly now?: () => number;
  /** The settings, read once per call (callContext.ts) and handed to every stage. */
  readonly settings: () => ShepherdSettings;
  /** Where a new terminal starts when the call gives no cwd; undefined when no folder is open. */
  readonly workspaceFolder: () => string | undefined;
  /** Workspace trust: an untrusted workspace runs nothing (the first check). */
  readonly isTrusted: () => boolean;
  /** Dev-server support: the never-twice rule, restarts, waitMode "ready", port conflicts (noDevServers where a window has none). */
  readonly servers: CallServers;
  /** Checks after the built-in ones (trust, then never twice), in order. */
  readonly checks?: readonly CommandCheck[];
  /** Who is asked when a check says so and the call brings no way to ask of its own; without one nothing a check asks about runs. */
  readonly approver?: ApprovalPort;
  /** Every decision of the safety check, for the process log. */
  readonly audit?: (record: DecisionRecord) => void;
  /** How long a question waits for the person's answer (default ANSWER_TIMEOUT_MS, 5 minutes). */
  readonly answerTimeoutMs?: number;
  /** Each terminal's own secret-named variables, for its redactor (shared with the run log files'). */
  readonly terminalSecrets?: TerminalSecrets;
  /** The window's sandbox: VS Code's chat.agent.sandbox.* honoured, and auto-approved lines confined (core/sandbox/). */
  readonly sandbox?: CommandSandbox;
  /** The OS the sandbox is chosen for (process.platform). */
  readonly platform?: NodeJS.Platform;
}

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
  /** What every call works with (callContext.ts). */
  private readonly parts: CallParts;
  /** Sessions opening, runs starting and changing state, sessions closing. */
  readonly onDidChange: TerminalSessions['onDidChange'];
  private readonly abandonEmitter = new Emitter<AbandonedRun>();
  /** A call was cancelled and its command keeps running. */
  readonly onDidAbandonRun = this.abandonEmitter.event;
  private readonly secretPromptEmitter = new Emitter<SecretPrompt>();
  /** A run waits for a secret the person must type and the call brought no client to ask (never under global auto-approve: the command is cancelled). */
  readonly onDidAskForSecret = this.secretPromptEmitter.event;
  private readonly secretQuestions: SecretQuestions;
  /** Runs terminal_run started, and what their calls reported of them. */
  private readonly reported = new WeakMap<CommandRun, Reported>();
  private readonly secrets: TerminalSecrets;
  private readonly forgetClosed: Disposable;
  private readonly sandbox: CommandSandbox | undefined;
  private readonly platform: NodeJS.Platform;

  constructor(deps: TerminalServiceDependencies) {
    const now = deps.now ?? (() => performance.now());
    this.sessions = new TerminalSessions({ ...deps, now });
    this.onDidChange = this.sessions.onDidChange;
    this.secrets = deps.terminalSecrets ?? new TerminalSecrets();
    this.sandbox = deps.sandbox;
    this.platform = deps.platform ?? process.platform;
    this.secretQuestions = new SecretQuestions((prompt) => this.secretPromptEmitter.fire(prompt), deps.logger);
    this.forgetClosed = this.sessions.onDidChange((change) => {
      if (change.kind === 'sessionClosed') this.secrets.forget(change.session.name);
    });
    this.parts = {
      sessions: this.sessions,
      servers: deps.servers,
      checks: [workspaceTrustCheck(deps.isTrusted), devServerOnceCheck(deps.servers), ...(deps.checks ?? [])],
      settings: deps.settings,
      workspaceFolder: deps.workspaceFolder,
      approver: deps.approver,
      answerTimeoutMs: deps.answerTimeoutMs ?? ANSWER_TIMEOUT_MS,
      audit: deps.audit,
      logger: deps.logger,
      now,
    };
  }

  /** The open terminals, read-only (for the ledger and the views). */
  sessionViews(): TerminalSessionView[] {
    return this.sessions.open();
  }

  /** terminal_run: plan, check, start (stop a restarted server, reserve the terminal in the call's directory, type), await per waitMode; what the model reads is redacted. */
  async run(params: RunParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    return this.timed(options, (timed) => redactedCall(this.runCall(params, redactedProgress(timed, this.redactorOf(params.name))), this.redactorOf));
  }

  /** terminal_state: the current or last run of a terminal, optionally waiting for it (redacted). */
  async state(params: StateParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    return this.timed(options, (timed) => redactedCall(this.stateCall(params, redactedProgress(timed, this.redactorOf(params.name))), this.redactorOf));
  }

  /** terminal_input: type text into a running command (an answer, a key such as Ctrl+C, or a command at a nested shell's prompt), then wait (redacted). */
  async input(params: InputParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    return this.timed(options, (timed) => redactedCall(this.inputCall(params, redactedProgress(timed, this.redactorOf(params.name))), this.redactorOf));
  }

  /** Carries the call's stage marks from its arrival; the result has them only when the caller asked (meta.timings). */
  private async timed(options: CallOptions, call: (options: CallOptions) => Promise<TerminalRunResult>): Promise<TerminalRunResult> {
    const timings = options.timings ?? new CallTimings(this.parts.now);
    const result = await call({ ...options, timings });
    timings.mark('redaction');
    return options.meta?.timings ? { ...result, timings: timings.done() } : result;
  }

  private async runCall(params: RunParams, options: CallOptions): Promise<TerminalRunResult> {
    if (options.signal?.aborted) throw cancelledBeforeStartError();
    const call = this.callContext(options);
    call.logger.info(`terminal_run from ${describeCallPath(call.meta, call.deadline)}`);
    // A task's client follows it to the end: without a timeout of its own, it waits as long as any call may.
    const asked = call.meta?.task && params.timeoutMs === undefined ? { ...params, timeoutMs: limits.maxTimeoutMs } : params;
    const planned = await planRun(asked, call);
    call.timings.mark('plan');
    // VS Code's sandbox on: refused here before any question when it cannot run, and its allowAutoApprove heeded.
    const checks = await sandboxChecks(this.sandbox, planned.command, call.settings, this.platform, call.checks);
    const checked = await checkCall(planned, { ...call, checks }, (_, command) => planRun({ ...asked, command }, call));
    call.timings.mark('checks');
    if (checked.kind === 'answer') return checked.result;
    const plan = checked.call;
    // Fail closed: a sandbox that should confine it and cannot run here refuses the call before anything is typed.
    const sandbox = await sandboxFor(this.sandbox, plan.command, call.settings, checked.safety, this.platform);
    const previous = await this.unreportedEnd(plan.session);
    const details = { ...(checked.safety ? { safety: checked.safety } : {}), ...(previous ? { previous } : {}) };
    const result = await this.startAndAwait(plan, call, details, sandbox);
    return sandbox ? this.afterSandboxed(asked, plan.terminal, result, sandbox, call, details) : result;
  }

  private async startAndAwait(plan: RunPlan, call: CallContext, details: AwaitDetails, sandbox: PreparedSandbox | undefined): Promise<TerminalRunResult> {
    // The terminal's own environment is read before the run's output (and its log file's redactor) exists.
    const started = await startRun(
      plan,
      call,
      async (session) => {
        call.timings.mark('start');
        await this.secrets.refresh(session.name, session.shellPid);
        call.timings.mark('environment');
      },
      sandbox,
    );
    call.timings.mark('start');
    this.reported.set(started.run, { final: false, cycle: 0 });
    return this.await(started, plan.wait, call, details);
  }

  /** The sandbox's report on the result; after a denial, the person asked whether to run it outside (or with the network), and that run's result when approved. */
  private async afterSandboxed(params: RunParams, terminal: string, result: TerminalRunResult, sandbox: PreparedSandbox, call: CallContext, details: AwaitDetails): Promise<TerminalRunResult> {
    const report = sandboxReport(result, sandbox);
    // As VS Code: only a command that failed is offered a way out; one that succeeded despite a denial is only told.
    const failed = result.status === 'completed' && result.exitCode !== undefined && result.exitCode !== 0;
    const offer = failed ? leaveOffer(params.command, report, call.settings) : { kind: 'none' as const, note: undefined };
    if (offer.kind === 'none') return withSandbox(result, report, offer.note ?? deniedNote(report));
    const again = await planRun({ ...params, name: terminal }, call);
    const asked = await checkCall(again, { ...call, checks: [offer.check], audit: undefined }, (_, command) => planRun({ ...params, name: terminal, command }, call));
    if (asked.kind === 'answer') {
      // checkCall's not_approved result says which (no offer, so no safety to read it from).
      const answered = { ...report, retry: { as: offer.as, answer: asked.result.message?.startsWith('The user did not answer') ? ('unanswered' as const) : ('declined' as const) } };
      return withSandbox(result, answered, deniedNote(answered));
    }
    const retried = offer.as === 'network' ? await this.sandbox?.prepare(params.command, sandbox.mode, call.settings.vscodeSandbox, { allowNetwork: true }) : undefined;
    const second = await this.startAndAwait(asked.call, call, details, retried);
    const answered = { ...report, retry: { as: offer.as, answer: 'approved' as const } };
    return withSandbox(second, answered, deniedNote(answered));
  }

  private async stateCall(params: StateParams, options: CallOptions): Promise<TerminalRunResult> {
    const session = this.sessions.find(params.name);
    const run = session.currentRun;
    if (!run) {
      throw noRunYetError(params.name);
    }
    if (params.wait && run.active) {
      const call = this.callContext(options);
      const timeoutMs = callTimeout(params.timeoutMs, call.settings);
      // A server not ready yet is waited on until it is; anything else until it ends, asks, or (a watcher) completes a cycle.
      const how: WaitHow = call.servers.awaitsReady(run) ? { mode: 'ready', timeoutMs, readyPattern: undefined } : { mode: 'completion', timeoutMs };
      return this.await({ session, run }, how, call, { afterCycle: this.reported.get(run)?.cycle ?? 0 });
    }
    return this.noteReported(run, await reportNow(run));
  }

  private async inputCall(params: InputParams, options: CallOptions): Promise<TerminalRunResult> {
    const call = this.callContext(options);
    const planned = planInput(params, call);
    const checked = await checkCall(planned, call, (_, text) => Promise.resolve(planInput({ ...params, text }, call)));
    if (checked.kind === 'answer') return checked.result;
    const { session, run, text, enter, timeoutMs, command } = checked.call;
    // A program started in the sandbox confines what is typed into it; one started outside does not, and then nothing is typed while the sandbox is on.
    if (command && run && !run.launch.sandbox && sandboxMode(call.settings, this.platform, checked.safety)) throw sandboxedInputError(session.name, command.shell.kind);
    if (run && text.includes('\u0003') && !(await lineTakenBeforeInterrupt(run))) throw windowClosingError(session.name, run.command);
    session.type(text, enter);
    if (!run) return keySentResult(session.name, session.strategy.name);
    // A key such as "a" to a watcher starts its next cycle: that is what the call waits for.
    return this.await({ session, run }, { mode: 'completion', timeoutMs }, call, { afterCycle: run.cycles, ...(checked.safety ? { safety: checked.safety } : {}) });
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
        if (run.launch.agentSession) info.agentSession = run.launch.agentSession;
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
    this.forgetClosed.dispose();
    this.secretQuestions.dispose();
    this.sessions.dispose();
    this.abandonEmitter.dispose();
    this.secretPromptEmitter.dispose();
  }

  /** The redactor for what a terminal printed (the window's, plus that terminal's own secret-named variables), under the current settings. */
  private readonly redactorOf = (terminal: string | undefined): Redactor => this.secrets.redactor(terminal, this.parts.settings());

  /** The call's context, built once as the call arrives: every stage takes it. */
  private callContext(options: CallOptions): CallContext {
    return callContext(this.parts, options);
  }

  /** awaitRun, then what the result told the caller, and a cancelled call whose command goes on. */
  private async await(started: StartedRun, how: WaitHow, call: CallContext, details: AwaitDetails): Promise<TerminalRunResult> {
    const { session, run } = started;
    const outcome = await awaitRun(started, how, call, details);
    // From typing to VS Code's start event, to its end event, the shell's confirmation (probe, settle), the drains and output close, then the result.
    const { startEvent, endEvent, finishing, finished } = run.marks;
    if (startEvent !== undefined) call.timings.mark('typing', startEvent);
    if (endEvent !== undefined) call.timings.mark('shell', endEvent);
    if (finishing !== undefined) call.timings.mark('completion', finishing);
    if (finished !== undefined) call.timings.mark('drain', finished);
    call.timings.mark('report');
    // What the command's processes hold now (a variable the shell's rc exported) is redacted from this result on.
    await this.secrets.refresh(session.name, session.shellPid);
    call.timings.mark('environment');
    const awaited = await guardSecretPrompt(outcome, started, call.settings, (prompt) => this.secretQuestions.tell(prompt, session, run, call.secretAsker, call.answerTimeoutMs));
    const result = this.noteReported(run, awaited);
    if (result.status === 'cancelled' && run.active) {
      call.logger.info(`the client cancelled its call; \`${run.command}\` keeps running in terminal "${session.name}"`);
      this.abandonEmitter.fire({ runId: run.id, terminal: session.name, command: run.command, client: call.meta?.client?.name });
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
  private async unreportedEnd(session: TerminalSession | undefined): Promise<ResultDetails['previous']> {
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
}

function withSandbox(result: TerminalRunResult, sandbox: SandboxReport, note: string | undefined): TerminalRunResult {
  return { ...result, sandbox, ...(note ? { message: result.message ? `${result.message} ${note}` : note } : {}) };
}
