/**
 * The registry of managed terminals: creates a terminal for a new name, reuses an idle one,
 * refuses a busy one, starts runs in them, routes the editor's execution and close events to the
 * run they belong to, and keeps a closed terminal's last run reachable. Free of the vscode module
 * (the editor comes in through TerminalHost).
 *
 * A terminal busy with a command (ours, or one the user typed) is never typed into:
 * executeCommand would interrupt it with Ctrl+C, so a run aimed at it is refused with what runs
 * there.
 */
import type { Logger } from '../../../../common/src/logger';
import { DisposableStore, Emitter, type Disposable } from '../events';
import type { ShellActivity } from '../processes/types';
import { CommandRun, type RunConfig } from '../run/commandRun';
import { defaultInputPromptConfig } from '../run/inputPromptDetector';
import type { RunOutput } from '../run/runOutput';
import { busyError, busyReasons, closedAtStartError, shellIntegrationUnavailableError, terminalNotFoundError } from '../run/runReport';
import type { ShepherdSettings } from '../settings';
import type { ExecutionEndEvent, ExecutionEvent, ShellExecution, ShellTerminal, TerminalCloseEvent, TerminalHost } from './terminalPort';

export interface TerminalSessionsDependencies {
  readonly host: TerminalHost;
  readonly settings: () => ShepherdSettings;
  readonly createOutput: (terminalName: string) => RunOutput;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  /** Where a new terminal starts when the call gives no cwd; undefined when no folder is open. */
  readonly workspaceFolder: () => string | undefined;
  readonly logger: Logger;
  readonly now: () => number;
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
  /** Commands the user typed there that still run. */
  readonly foreignExecutions: ReadonlySet<{ readonly commandLine: string }>;
  readonly closed: boolean;
}

/** A terminal reserved for one call while it prepares a run; release() when the run started (or failed to). */
export interface Reservation {
  readonly session: TerminalSession;
  /** The terminal was created for this call (so it already starts in the wanted cwd). */
  readonly created: boolean;
  release(): void;
}

const TERMINAL_TITLE_PREFIX = 'Shepherd: ';
/** After the OS confirmed the shell idle: lets events already queued behind the end arrive. */
const SETTLE_MS = 2;
const PROBE_INTERVAL_MS = 50;
const DRAIN_TIMEOUT_MS = 1000;

export class TerminalSession implements TerminalSessionView {
  currentRun: CommandRun | undefined;
  /** Executions of the current run (its own command and cascades it caused). */
  readonly runExecutions = new Set<ShellExecution>();
  /** Executions the user started by typing, still running. */
  readonly foreignExecutions = new Set<ShellExecution>();
  closed = false;
  /** Set while a call prepares a run, so a concurrent call sees the terminal as taken. */
  reserved = false;
  private runSubscription: Disposable | undefined;

  constructor(
    readonly name: string,
    readonly terminal: ShellTerminal,
    readonly shellPid: number | undefined,
  ) {}

  /** Busy with a run of ours or with a command the user typed. */
  get busy(): boolean {
    return (this.currentRun?.active ?? false) || this.foreignExecutions.size > 0;
  }

  /** Makes `run` the session's run; the previous one is disposed (its result was reported). */
  replaceRun(run: CommandRun, subscription: Disposable): void {
    const previous = this.currentRun;
    this.runSubscription?.dispose();
    this.currentRun = run;
    this.runSubscription = subscription;
    this.runExecutions.clear();
    previous?.dispose();
  }

  dispose(): void {
    this.runSubscription?.dispose();
    this.currentRun?.dispose();
  }
}

export class TerminalSessions implements Disposable {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Closed sessions keep their last run reachable for terminal_state. */
  private readonly closedSessions = new Map<string, TerminalSession>();
  private readonly creating = new Map<string, Promise<TerminalSession>>();
  private disposed = false;
  private readonly subscriptions = new DisposableStore();
  private readonly changeEmitter = new Emitter<TerminalServiceEvent>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly deps: TerminalSessionsDependencies) {
    const host = deps.host;
    this.subscriptions.add(host.onDidStartExecution((e) => this.onStart(e)));
    this.subscriptions.add(host.onDidEndExecution((e) => this.onEnd(e)));
    this.subscriptions.add(host.onDidCloseTerminal((e) => this.onClose(e)));
  }

  /** The open sessions. */
  open(): TerminalSession[] {
    return [...this.sessions.values()];
  }

  /** An open session by name. */
  get(name: string): TerminalSession | undefined {
    return this.sessions.get(name);
  }

  /** An open or closed session by name; a name never used is an error that lists the known ones. */
  find(name: string): TerminalSession {
    const session = this.sessions.get(name) ?? this.closedSessions.get(name);
    if (!session) {
      throw terminalNotFoundError(name, [...this.sessions.keys()]);
    }
    return session;
  }

  /** The named terminal, created (in `cwd`) if needed, reserved for a new run; refuses a busy one. */
  async reserve(name: string, cwd: string | undefined): Promise<Reservation> {
    const existing = this.sessions.get(name);
    if (existing) {
      const alive = await this.ensureIdle(existing);
      if (alive && !existing.closed) {
        return this.reservation(existing, false);
      }
      // Closed meanwhile, or its shell is gone while VS Code kept the terminal: start afresh.
      this.retire(existing);
    }
    if (this.creating.has(name)) {
      throw busyError(name, busyReasons.starting);
    }
    const pending = this.createSession(name, cwd);
    this.creating.set(name, pending);
    try {
      return this.reservation(await pending, true);
    } finally {
      this.creating.delete(name);
    }
  }

  /** Sends `command` to the session's terminal as a new run. */
  startRun(session: TerminalSession, command: string): CommandRun {
    const run = this.newRun(session, command);
    session.replaceRun(
      run,
      run.onDidChangeState((state) => {
        this.changeEmitter.fire({ kind: 'runStateChanged', session, run });
        if (state.kind === 'terminal_closed' && state.end === 'shell_gone') {
          this.retire(session);
        }
      }),
    );
    const execution = session.terminal.executeCommand(command);
    session.runExecutions.add(execution);
    run.attachExecution(execution);
    this.deps.logger.info(`terminal "${session.name}": run ${run.id} started: ${command}`);
    this.changeEmitter.fire({ kind: 'runStarted', session, run });
    return run;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.subscriptions.dispose();
    for (const session of [...this.sessions.values(), ...this.closedSessions.values()]) {
      session.dispose();
    }
    this.sessions.clear();
    this.closedSessions.clear();
    this.changeEmitter.dispose();
  }

  // ---- creating and reserving -----------------------------------------------------------------

  private reservation(session: TerminalSession, created: boolean): Reservation {
    session.reserved = true;
    return { session, created, release: () => (session.reserved = false) };
  }

  /** Refuses a busy terminal; false when the OS says its shell is gone (the session is dead). */
  private async ensureIdle(session: TerminalSession): Promise<boolean> {
    if (session.reserved) {
      throw busyError(session.name, busyReasons.starting);
    }
    const run = session.currentRun;
    if (run?.active) {
      throw busyError(session.name, busyReasons.run(run));
    }
    const typed = [...session.foreignExecutions][0];
    if (typed) {
      throw busyError(session.name, busyReasons.typed(typed.commandLine));
    }
    if (session.shellPid === undefined) {
      return true;
    }
    // The probe is asynchronous: hold the terminal meanwhile so a concurrent call is refused.
    session.reserved = true;
    try {
      const activity = await this.deps.probeShell(session.shellPid).catch(() => undefined);
      if (activity?.foreground === 'job') {
        throw busyError(session.name, busyReasons.foreground(activity.foregroundCommand));
      }
      return activity?.foreground !== 'gone';
    } finally {
      session.reserved = false;
    }
  }

  private async createSession(name: string, cwd: string | undefined): Promise<TerminalSession> {
    const settings = this.deps.settings();
    const startIn = cwd ?? this.deps.workspaceFolder();
    const terminal = this.deps.host.create({
      name: `${TERMINAL_TITLE_PREFIX}${name}`,
      reveal: settings.revealOnCreate,
      ...(startIn !== undefined ? { cwd: startIn } : {}),
      ...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
    });
    const ready = await this.deps.host.waitForShellIntegration(terminal, settings.shellIntegrationTimeoutMs);
    if (!ready) {
      terminal.dispose();
      throw shellIntegrationUnavailableError(name, settings.shellIntegrationTimeoutMs);
    }
    const shellPid = await terminal.processId();
    // Checked after the last await: a close event before registration would find no session.
    if (terminal.closed) {
      throw closedAtStartError(name);
    }
    const session = new TerminalSession(name, terminal, shellPid);
    this.closedSessions.get(name)?.dispose();
    this.closedSessions.delete(name);
    this.sessions.set(name, session);
    this.deps.logger.info(`terminal "${name}" created (shell pid ${shellPid ?? 'unknown'}, ${terminal.shellType ?? 'unknown shell'})`);
    this.changeEmitter.fire({ kind: 'sessionCreated', session });
    return session;
  }

  private newRun(session: TerminalSession, command: string): CommandRun {
    const config: RunConfig = {
      completion: { graceMs: this.deps.settings().gracePeriodMs, settleMs: SETTLE_MS, probeIntervalMs: PROBE_INTERVAL_MS },
      input: defaultInputPromptConfig,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    };
    return new CommandRun(command, session.name, session.shellPid, this.deps.createOutput(session.name), config, {
      now: this.deps.now,
      probeShell: this.deps.probeShell,
      logger: this.deps.logger,
    });
  }

  // ---- editor events (the Emitter reports a handler that throws; none reaches the editor) -----

  private sessionOf(terminal: ShellTerminal): TerminalSession | undefined {
    for (const session of this.sessions.values()) {
      if (session.terminal === terminal) return session;
    }
    return undefined;
  }

  private onStart({ terminal, execution }: ExecutionEvent): void {
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

  private onEnd({ terminal, execution, exitCode }: ExecutionEndEvent): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    if (session.foreignExecutions.delete(execution)) return;
    const run = session.currentRun;
    if (run?.active) {
      session.runExecutions.add(execution);
      run.executionEnded(execution, exitCode);
    }
  }

  private onClose({ terminal, exitCode, reason }: TerminalCloseEvent): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    this.markClosed(session);
    const run = session.currentRun;
    if (run?.active) {
      if (reason === 'window' || reason === 'user') {
        run.terminalClosed(undefined, reason);
      } else if (exitCode === 0) {
        // VS Code reports 0 for a shell killed by a signal too: a run it cut short never gets a success.
        run.terminalClosed(undefined, 'unreported_exit');
      } else {
        run.terminalClosed(exitCode, reason === 'shell' ? 'shell_exit' : 'closed');
      }
    }
    this.deps.logger.info(`terminal "${session.name}" closed (${reason}${exitCode !== undefined ? `, shell exit code ${exitCode}` : ''})`);
    this.changeEmitter.fire({ kind: 'sessionClosed', session });
  }

  /**
   * A session whose shell is gone while VS Code keeps its terminal (and may never close it): closed
   * here, its terminal disposed, so the name gets a fresh terminal next time.
   */
  private retire(session: TerminalSession): void {
    if (session.closed) return;
    this.markClosed(session);
    session.currentRun?.terminalClosed(undefined, 'shell_gone');
    this.deps.logger.info(`terminal "${session.name}": its shell (pid ${session.shellPid ?? 'unknown'}) is gone; closing the terminal`);
    this.changeEmitter.fire({ kind: 'sessionClosed', session });
    session.terminal.dispose();
  }

  private markClosed(session: TerminalSession): void {
    session.closed = true;
    session.foreignExecutions.clear();
    this.sessions.delete(session.name);
    const previous = this.closedSessions.get(session.name);
    if (previous !== session) previous?.dispose();
    this.closedSessions.set(session.name, session);
  }
}
