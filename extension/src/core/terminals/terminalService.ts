/**
 * Named managed terminals and the runs in them: terminal_run, terminal_state, terminal_input and
 * terminal_list, free of the vscode module (the editor comes in through TerminalHost).
 *
 * A terminal busy with a command (ours, or one the user typed) is never typed into: executeCommand
 * would interrupt it with Ctrl+C, so a run aimed at it is refused with what runs there.
 */
import { formatDuration } from '../../../../common/src/format';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../../common/src/logger';
import type {
  InputParams,
  RunParams,
  RunStatus,
  StateParams,
  TerminalInfo,
  TerminalRunResult,
} from '../../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../errors';
import type { ShellActivity } from '../processes/types';
import { CommandRun, type RunConfig, type RunProgress } from '../run/commandRun';
import { defaultInputPromptConfig } from '../run/inputPromptDetector';
import type { RunOutput } from '../run/runOutput';
import type { ShepherdSettings } from '../settings';
import { changeDirectoryCommand, isControlKey } from './shellCommands';
import type { Disposable, ShellExecution, ShellTerminal, TerminalHost } from './terminalPort';

export interface TerminalServiceDependencies {
  readonly host: TerminalHost;
  readonly settings: () => ShepherdSettings;
  readonly createOutput: (terminalName: string) => RunOutput;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  /** Base for relative cwd values; undefined when no folder is open. */
  readonly workspaceFolder: () => string | undefined;
  readonly logger: Logger;
  readonly now?: () => number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress) => void;
}

/** Events other parts (process tracking, views) follow. */
export type TerminalServiceEvent =
  | { readonly kind: 'sessionCreated'; readonly session: TerminalSessionView }
  | { readonly kind: 'runStarted'; readonly session: TerminalSessionView; readonly run: CommandRun }
  | { readonly kind: 'runStateChanged'; readonly session: TerminalSessionView; readonly run: CommandRun }
  | { readonly kind: 'sessionClosed'; readonly session: TerminalSessionView };

export interface TerminalSessionView {
  readonly name: string;
  readonly shellPid: number | undefined;
  readonly terminal: ShellTerminal;
  readonly currentRun: CommandRun | undefined;
  readonly closed: boolean;
}

const TERMINAL_TITLE_PREFIX = 'Shepherd: ';
/** After the OS confirmed the shell idle: lets events already queued behind the end arrive. */
const SETTLE_MS = 2;
const PROBE_INTERVAL_MS = 50;
const DRAIN_TIMEOUT_MS = 1000;
const BACKGROUND_GLANCE_MS = 300;
const CANCEL_WAIT_MS = 3000;
const CD_TIMEOUT_MS = 10_000;
const PROGRESS_INTERVAL_MS = 1000;

class TerminalSession implements TerminalSessionView {
  currentRun: CommandRun | undefined;
  /** Executions of the current run (its own command and cascades it caused). */
  readonly runExecutions = new Set<ShellExecution>();
  /** Executions the user started by typing, still running. */
  readonly foreignExecutions = new Set<ShellExecution>();
  closed = false;
  /** Set while a run is being prepared, so a concurrent call sees the terminal as taken. */
  starting = false;

  constructor(
    readonly name: string,
    readonly terminal: ShellTerminal,
    readonly shellPid: number | undefined,
  ) {}
}

export class TerminalService implements Disposable {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Closed sessions keep their last run reachable for terminal_state. */
  private readonly closedSessions = new Map<string, TerminalSession>();
  private readonly creating = new Map<string, Promise<TerminalSession>>();
  private readonly subscriptions: Disposable[] = [];
  private readonly listeners = new Set<(event: TerminalServiceEvent) => void>();
  private readonly now: () => number;

  constructor(private readonly deps: TerminalServiceDependencies) {
    this.now = deps.now ?? (() => performance.now());
    const host = deps.host;
    this.subscriptions.push(
      host.onDidStartExecution((terminal, execution) => this.guard(() => this.onStart(terminal, execution))),
      host.onDidEndExecution((terminal, execution, exitCode) => this.guard(() => this.onEnd(terminal, execution, exitCode))),
      host.onDidCloseTerminal((terminal, exitCode) => this.guard(() => this.onClose(terminal, exitCode))),
    );
  }

  onDidChange(listener: (event: TerminalServiceEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  sessionViews(): TerminalSessionView[] {
    return [...this.sessions.values()];
  }

  /** terminal_run: send a command and wait per waitMode. */
  async run(params: RunParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const settings = this.deps.settings();
    const name = params.name ?? 'default';
    const timeoutMs = params.timeoutMs ?? settings.defaultTimeoutMs;
    const cwd = params.cwd === undefined ? undefined : await this.resolveCwd(params.cwd);
    const { session, created } = await this.acquire(name, cwd);
    let run: CommandRun;
    try {
      if (cwd !== undefined && !created && !samePath(session.terminal.cwd, cwd)) {
        await this.changeDirectory(session, cwd);
      }
      run = this.startRun(session, params.command);
    } finally {
      session.starting = false;
    }
    if (params.waitMode === 'background') {
      const outcome = await run.wait({ timeoutMs: BACKGROUND_GLANCE_MS, signal: options.signal });
      return this.report(session, run, outcome === 'timeout' ? 'running' : outcome);
    }
    return this.waitAndReport(session, run, timeoutMs, options);
  }

  /** terminal_state: the current or last run of a terminal, optionally waiting for it. */
  async state(params: StateParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const session = this.findSession(params.name);
    const run = session.currentRun;
    if (!run) {
      throw new ShepherdError(
        BridgeErrorCode.NoActiveRun,
        `Terminal "${params.name}" has not run a command yet. Start one with terminal_run {name: "${params.name}", command}.`,
      );
    }
    if (params.wait && run.active) {
      const timeoutMs = params.timeoutMs ?? this.deps.settings().defaultTimeoutMs;
      return this.waitAndReport(session, run, timeoutMs, options);
    }
    return this.report(session, run, statusOf(run));
  }

  /** terminal_input: type text into a running command (an answer, or a key such as Ctrl+C), then wait. */
  async input(params: InputParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const session = this.findSession(params.name);
    if (session.closed) {
      throw new ShepherdError(
        BridgeErrorCode.TerminalClosed,
        `Terminal "${params.name}" was closed. Start a new one with terminal_run {name: "${params.name}", command}.`,
      );
    }
    const run = session.currentRun;
    const key = isControlKey(params.text);
    if (!run?.active && !key) {
      const last = run ? ` (its last command \`${run.command}\` has ${describeStatus(run)})` : '';
      throw new ShepherdError(
        BridgeErrorCode.NoActiveRun,
        `Nothing is running in terminal "${params.name}"${last}, so there is no prompt to answer. To run a command use terminal_run.`,
      );
    }
    session.terminal.sendText(params.text, (params.enter ?? true) && !key);
    if (!run) {
      throw new ShepherdError(
        BridgeErrorCode.NoActiveRun,
        `Sent the key to terminal "${params.name}", which has not run a command yet.`,
      );
    }
    run.inputSent();
    const timeoutMs = params.timeoutMs ?? this.deps.settings().defaultTimeoutMs;
    return this.waitAndReport(session, run, timeoutMs, options);
  }

  /** terminal_list: every managed terminal that is still open. */
  list(): TerminalInfo[] {
    return [...this.sessions.values()].map((session) => {
      const run = session.currentRun;
      const info: TerminalInfo = {
        name: session.name,
        busy: (run?.active ?? false) || session.foreignExecutions.size > 0,
        shellIntegration: session.terminal.hasShellIntegration,
      };
      if (session.shellPid !== undefined) info.pid = session.shellPid;
      if (session.terminal.cwd !== undefined) info.cwd = session.terminal.cwd;
      if (run) {
        info.command = run.command;
        info.status = statusOf(run);
        const state = run.state;
        if ((state.kind === 'completed' || state.kind === 'terminal_closed') && state.exitCode !== undefined) {
          info.exitCode = state.exitCode;
        }
      } else {
        const foreign = [...session.foreignExecutions][0];
        if (foreign) info.command = foreign.commandLine;
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
    for (const s of this.subscriptions.splice(0)) s.dispose();
    for (const session of [...this.sessions.values(), ...this.closedSessions.values()]) {
      session.currentRun?.dispose();
    }
    this.sessions.clear();
    this.closedSessions.clear();
    this.listeners.clear();
  }

  // -------------------------------------------------------------------------------------------

  private async waitAndReport(
    session: TerminalSession,
    run: CommandRun,
    timeoutMs: number,
    options: CallOptions,
  ): Promise<TerminalRunResult> {
    const progress = options.onProgress ? this.reportProgress(run, options.onProgress) : undefined;
    try {
      const outcome = await run.wait({ timeoutMs, signal: options.signal });
      if (outcome === 'cancelled') {
        return await this.cancel(session, run);
      }
      return await this.report(session, run, outcome, outcome === 'timeout' ? timeoutMessage(session, timeoutMs) : undefined);
    } finally {
      progress?.dispose();
    }
  }

  /** Ctrl+C for a run whose caller gave up, then a bounded wait for the shell to report the end. */
  private async cancel(session: TerminalSession, run: CommandRun): Promise<TerminalRunResult> {
    if (run.active && !session.closed) {
      session.terminal.sendText('\u0003', false);
      run.inputSent();
      await run.wait({ timeoutMs: CANCEL_WAIT_MS, stopAtInput: false });
    }
    const still = run.active ? ' The command did not stop within 3 s of Ctrl+C and may still be running; check with terminal_state.' : '';
    return run.result('cancelled', `Cancelled by the client: Ctrl+C was sent to terminal "${session.name}".${still}`);
  }

  /** The result of a run, with the next step for statuses that are not final (structured clients read only this). */
  private report(session: TerminalSession, run: CommandRun, status: RunStatus, message?: string): Promise<TerminalRunResult> {
    const name = JSON.stringify(session.name);
    if (message === undefined) {
      if (status === 'terminal_closed') {
        message = `Terminal ${name} was closed (by the user or because its shell exited) before the command finished.`;
      } else if (status === 'waiting_for_input') {
        message = `The command waits for input. Answer with terminal_input {name: ${name}, text: "..."}, or stop it with terminal_input {name: ${name}, text: "\\u0003"}.`;
      } else if (status === 'running') {
        message = `It keeps running. Check on it with terminal_state {name: ${name}} (wait: true blocks until it ends), stop it with terminal_input {name: ${name}, text: "\\u0003"}.`;
      }
    }
    return run.result(status, message);
  }

  private reportProgress(run: CommandRun, onProgress: (p: RunProgress) => void): Disposable {
    const emit = (): void => {
      try {
        onProgress(run.progress());
      } catch (error) {
        this.deps.logger.warn('progress listener failed', error);
      }
    };
    const interval = setInterval(emit, PROGRESS_INTERVAL_MS);
    return { dispose: () => clearInterval(interval) };
  }

  private findSession(name: string): TerminalSession {
    const session = this.sessions.get(name) ?? this.closedSessions.get(name);
    if (!session) {
      const known = [...this.sessions.keys()];
      const hint = known.length > 0 ? `Managed terminals: ${known.map((n) => `"${n}"`).join(', ')}.` : 'No managed terminal exists yet.';
      throw new ShepherdError(
        BridgeErrorCode.TerminalNotFound,
        `No terminal named "${name}". ${hint} terminal_run creates a terminal for a new name.`,
      );
    }
    return session;
  }

  /** The named terminal, created if needed, reserved for a new run; refuses a busy one. */
  private async acquire(name: string, cwd: string | undefined): Promise<{ session: TerminalSession; created: boolean }> {
    let session = this.sessions.get(name);
    if (!session) {
      let pending = this.creating.get(name);
      if (!pending) {
        pending = this.createSession(name, cwd);
        this.creating.set(name, pending);
        void pending.finally(() => this.creating.delete(name)).catch(() => undefined);
      } else {
        throw busyError(name, 'another call is starting a command there right now');
      }
      session = await pending;
      session.starting = true;
      return { session, created: true };
    }
    await this.ensureIdle(session);
    session.starting = true;
    return { session, created: false };
  }

  private async ensureIdle(session: TerminalSession): Promise<void> {
    const run = session.currentRun;
    if (session.starting) {
      throw busyError(session.name, 'another call is starting a command there right now');
    }
    if (run?.active) {
      const what = run.state.kind === 'waiting_for_input' ? 'is waiting for input' : 'is running';
      throw busyError(session.name, `\`${run.command}\` ${what} (started ${formatDuration(run.durationMs)} ago)`);
    }
    const foreign = [...session.foreignExecutions][0];
    if (foreign) {
      throw busyError(session.name, `\`${foreign.commandLine}\` is running (typed in the terminal, not started by Terminal Shepherd)`);
    }
    if (session.shellPid !== undefined) {
      session.starting = true;
      try {
        const activity = await this.deps.probeShell(session.shellPid).catch(() => undefined);
        if (activity?.foreground === 'job') {
          const what = activity.foregroundCommand ? `\`${activity.foregroundCommand}\`` : 'a program';
          throw busyError(session.name, `${what} holds the terminal's foreground`);
        }
      } finally {
        session.starting = false;
      }
    }
  }

  private async createSession(name: string, cwd: string | undefined): Promise<TerminalSession> {
    const settings = this.deps.settings();
    const terminal = this.deps.host.create({
      name: `${TERMINAL_TITLE_PREFIX}${name}`,
      reveal: settings.revealOnCreate,
      ...(cwd !== undefined ? { cwd } : this.deps.workspaceFolder() !== undefined ? { cwd: this.deps.workspaceFolder()! } : {}),
      ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
    });
    const ready = await this.deps.host.waitForShellIntegration(terminal, settings.shellIntegrationTimeoutMs);
    if (!ready) {
      terminal.dispose();
      throw new ShepherdError(
        BridgeErrorCode.ShellIntegrationUnavailable,
        `Shell integration did not activate in terminal "${name}" within ${settings.shellIntegrationTimeoutMs} ms, so Terminal Shepherd cannot see when commands end. ` +
          'Check that the setting terminal.integrated.shellIntegration.enabled is on and that the shell is bash, zsh, fish or pwsh ' +
          '(choose one with terminalShepherd.terminal.shellPath), then retry.',
      );
    }
    if (terminal.closed) {
      throw new ShepherdError(BridgeErrorCode.TerminalClosed, `Terminal "${name}" closed right after it started; check the shell setting terminalShepherd.terminal.shellPath.`);
    }
    const shellPid = await terminal.processId();
    const session = new TerminalSession(name, terminal, shellPid);
    this.closedSessions.delete(name);
    this.sessions.set(name, session);
    this.deps.logger.info(`terminal "${name}" created (shell pid ${shellPid ?? 'unknown'}, ${terminal.shellType ?? 'unknown shell'})`);
    this.emit({ kind: 'sessionCreated', session });
    return session;
  }

  private startRun(session: TerminalSession, command: string): CommandRun {
    const previous = session.currentRun;
    const run = this.newRun(session, command);
    session.currentRun = run;
    session.runExecutions.clear();
    previous?.dispose();
    const execution = session.terminal.executeCommand(command);
    session.runExecutions.add(execution);
    run.attachExecution(execution);
    run.onDidChangeState(() => this.emit({ kind: 'runStateChanged', session, run }));
    this.deps.logger.info(`terminal "${session.name}": run ${run.id} started: ${command}`);
    this.emit({ kind: 'runStarted', session, run });
    return run;
  }

  private newRun(session: TerminalSession, command: string): CommandRun {
    const settings = this.deps.settings();
    const config: RunConfig = {
      completion: { graceMs: settings.gracePeriodMs, settleMs: SETTLE_MS, probeIntervalMs: PROBE_INTERVAL_MS },
      input: defaultInputPromptConfig,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    };
    return new CommandRun(command, session.name, session.shellPid, this.deps.createOutput(session.name), config, {
      now: this.now,
      probeShell: this.deps.probeShell,
      logger: this.deps.logger,
    });
  }

  /** Changes an existing shell's directory with its own execution, so the run reports only the command. */
  private async changeDirectory(session: TerminalSession, cwd: string): Promise<void> {
    const cd = this.startRun(session, changeDirectoryCommand(session.terminal.shellType, cwd));
    const outcome = await cd.wait({ timeoutMs: CD_TIMEOUT_MS, stopAtInput: true });
    const result = await cd.result(outcome === 'timeout' ? 'timeout' : outcome);
    if (outcome !== 'completed' || (result.exitCode !== undefined && result.exitCode !== 0)) {
      throw new ShepherdError(
        BridgeErrorCode.InvalidInput,
        `Could not change terminal "${session.name}" to cwd "${cwd}" (${outcome}${result.exitCode !== undefined ? `, exit code ${result.exitCode}` : ''}): ${result.output.trim() || 'no output'}`,
      );
    }
  }

  private async resolveCwd(cwd: string): Promise<string> {
    const base = this.deps.workspaceFolder();
    if (!path.isAbsolute(cwd) && base === undefined) {
      throw new ShepherdError(BridgeErrorCode.InvalidInput, `cwd "${cwd}" is relative but no workspace folder is open; give an absolute path.`);
    }
    const resolved = path.resolve(base ?? '/', cwd);
    const stat = await fs.stat(resolved).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw new ShepherdError(
        BridgeErrorCode.InvalidInput,
        `cwd "${cwd}" (${resolved}) ${stat ? 'is not a directory' : 'does not exist'}. Give an existing directory, absolute or relative to the workspace folder.`,
      );
    }
    return resolved;
  }

  // ---- editor events ----------------------------------------------------------------------------

  private sessionOf(terminal: ShellTerminal): TerminalSession | undefined {
    for (const session of this.sessions.values()) {
      if (session.terminal === terminal) return session;
    }
    return undefined;
  }

  private onStart(terminal: ShellTerminal, execution: ShellExecution): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    const run = session.currentRun;
    if (session.runExecutions.has(execution)) {
      run?.executionStarted(execution);
    } else if (run?.active) {
      // A cascade (next line of multi-line input, an activation script): part of the same run.
      session.runExecutions.add(execution);
      run.attachExecution(execution);
      run.executionStarted(execution);
    } else {
      session.foreignExecutions.add(execution);
    }
  }

  private onEnd(terminal: ShellTerminal, execution: ShellExecution, exitCode: number | undefined): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    if (session.foreignExecutions.delete(execution)) return;
    const run = session.currentRun;
    if (run?.active) {
      session.runExecutions.add(execution);
      run.executionEnded(execution, exitCode);
    }
  }

  private onClose(terminal: ShellTerminal, exitCode: number | undefined): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    session.closed = true;
    session.foreignExecutions.clear();
    session.currentRun?.terminalClosed(exitCode);
    this.sessions.delete(session.name);
    this.closedSessions.set(session.name, session);
    this.deps.logger.info(`terminal "${session.name}" closed${exitCode !== undefined ? ` (shell exit code ${exitCode})` : ''}`);
    this.emit({ kind: 'sessionClosed', session });
  }

  private emit(event: TerminalServiceEvent): void {
    for (const listener of [...this.listeners]) {
      this.guard(() => listener(event));
    }
  }

  /** Event handlers never throw into the editor. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.deps.logger.error('terminal event handler failed', error);
    }
  }
}

function statusOf(run: CommandRun): RunStatus {
  const kind = run.state.kind;
  return kind === 'running' ? 'running' : kind;
}

function describeStatus(run: CommandRun): string {
  const state = run.state;
  if (state.kind === 'completed') {
    return state.exitCode === undefined ? 'completed' : `completed with exit code ${state.exitCode}`;
  }
  return state.kind === 'terminal_closed' ? 'ended with the terminal' : state.kind.replace(/_/g, ' ');
}

function busyError(name: string, what: string): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.TerminalBusy,
    `Terminal "${name}" is busy: ${what}. Use another name (for example "${name}-2"), ` +
      `wait for it with terminal_state {name: "${name}", wait: true}, or stop it with terminal_input {name: "${name}", text: "\\u0003"}.`,
  );
}

function timeoutMessage(session: TerminalSession, timeoutMs: number): string {
  return (
    `Still running after ${formatDuration(timeoutMs)}; the command keeps running in terminal "${session.name}". ` +
    `Wait more with terminal_state {name: "${session.name}", wait: true}, or stop it with terminal_input {name: "${session.name}", text: "\\u0003"}.`
  );
}


function samePath(a: string | undefined, b: string): boolean {
  return a !== undefined && path.resolve(a) === path.resolve(b);
}
