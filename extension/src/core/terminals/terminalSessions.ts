/**
 * The registry of managed terminals: opens a terminal for a new name, reuses an idle one, refuses
 * a busy one, starts runs in them, routes the editor's execution and close events to the run they
 * belong to (executionRouting.ts), and keeps a closed terminal's last run reachable. Free of the
 * vscode module (the editor comes in through TerminalHost).
 *
 * A terminal busy with a command (ours, or one the user typed) is never typed into:
 * executeCommand would interrupt it with Ctrl+C, so a run aimed at it is refused with what runs
 * there.
 */
import type { Logger } from '../../../../common/src/logger';
import { busyError, busyReasons, changeDirectoryError, terminalNotFoundError, windowClosingError } from '../errors';
import { DisposableStore, Emitter, type Disposable } from '../events';
import { samePath } from '../fsUtil';
import type { RunOutput } from '../output/runOutput';
import type { RunOutputOptions } from '../output/runOutputFactory';
import { UNKNOWN_ACTIVITY, type ShellActivity } from '../processes/types';
import { CommandRun, type RunConfig, type RunLaunch } from '../run/commandRun';
import { defaultInputPromptConfig } from '../run/inputPromptDetector';
import { exitCodeOf } from '../run/runState';
import type { ShepherdSettings } from '../settings';
import type { IntegrationFiles } from './integration/integrationFiles';
import { changeDirectoryCommand } from './shellCommands';
import type { StrategyContext } from './strategies/executionStrategy';
import { historyFreeLine } from './agentMarks';
import { endRunOnClose, routeExecutionEnd, routeExecutionStart } from './executionRouting';
import { openSession, planNewTerminal, type NewTerminal } from './terminalFactory';
import type { ExecutionEndEvent, ExecutionEvent, ShellExecution, ShellTerminal, TerminalCloseEvent, TerminalHost } from './terminalPort';
import type { TerminalSession, TerminalSessionEvent } from './terminalSession';

export interface TerminalSessionsDependencies {
  readonly host: TerminalHost;
  /** A run's output pipeline; `stripPromptAndEcho` false where the data has no prompt marks to cut at (the extension-owned terminal). */
  readonly createOutput: (terminalName: string, options?: RunOutputOptions) => RunOutput;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  readonly logger: Logger;
  readonly now: () => number;
  /** Terminal Shepherd's integration scripts, written where shells can read them (asked for once, when first needed). */
  readonly integrationFiles: () => Promise<IntegrationFiles>;
  /** Descendants of a process (the extension-owned terminal finds the program it runs); none known when absent. */
  readonly descendants?: (pid: number) => Promise<Array<{ readonly pid: number; readonly ppid: number }>>;
  /** The OS the shells run on (default: this process's). */
  readonly platform?: NodeJS.Platform;
  /** The ledger session every terminal's environment names (ledger/processMarks.ts). */
  readonly ledgerSession?: string;
}

/** Where a call runs its command: the directory it asked for, else the terminal's own; a terminal opened for it starts in the workspace folder. */
export interface Place {
  readonly cwd: string | undefined;
  readonly workspaceFolder: string | undefined;
}

/** A terminal reserved for one call while it prepares a run; release() when the run started (or failed to). */
export interface Reservation {
  readonly session: TerminalSession;
  /** The directory the terminal is in now (the call's, when it asked for one); undefined when not known. */
  readonly cwd: string | undefined;
  release(): void;
}

/** After the OS confirmed the shell idle: lets events already queued behind the end arrive. */
const SETTLE_MS = 2;
const PROBE_INTERVAL_MS = 50;
const DRAIN_TIMEOUT_MS = 1000;
/** Probes (and the pause between them) before a foreground job the user started counts as busy. */
const BUSY_PROBES = 3;
const BUSY_PROBE_INTERVAL_MS = 100;
/** How long the `cd` that moves an open terminal to a call's directory may take. */
const CD_TIMEOUT_MS = 10_000;

export class TerminalSessions implements Disposable {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Closed sessions keep their last run reachable for terminal_state. */
  private readonly closedSessions = new Map<string, TerminalSession>();
  private readonly creating = new Map<string, Promise<TerminalSession>>();
  private disposed = false;
  private readonly subscriptions = new DisposableStore();
  private readonly changeEmitter = new Emitter<TerminalSessionEvent>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly strategyContext: StrategyContext;

  constructor(private readonly deps: TerminalSessionsDependencies) {
    const host = deps.host;
    this.subscriptions.add(host.onDidStartExecution((e) => this.onStart(e)));
    this.subscriptions.add(host.onDidEndExecution((e) => this.onEnd(e)));
    this.subscriptions.add(host.onDidCloseTerminal((e) => this.onClose(e)));
    this.strategyContext = {
      host,
      integrationFiles: deps.integrationFiles,
      probeShell: deps.probeShell,
      descendants: deps.descendants ?? (() => Promise.resolve([])),
      platform: this.platform,
      logger: deps.logger,
      ...(deps.ledgerSession !== undefined ? { ledgerSession: deps.ledgerSession } : {}),
      events: { start: (e) => this.onStart(e), end: (e) => this.onEnd(e), close: (e) => this.onClose(e) },
    };
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

  /** What a terminal opened now would be under the call's settings: its shell and the strategies it would try (no side effect). */
  planNew(settings: ShepherdSettings, clientName?: string): NewTerminal {
    return planNewTerminal(settings, this.deps.host, this.platform, clientName);
  }

  /** Why a call cannot start a run in `name` now, as far as known without the OS; undefined when it may try. */
  busyReason(name: string): string | undefined {
    return this.creating.has(name) ? busyReasons.starting : this.sessions.get(name)?.busyReason();
  }

  /** Where a command would run in the terminal `name` now (see Place). */
  cwdIn(name: string, place: Place): string | undefined {
    const session = this.sessions.get(name);
    return placeCwd(place, session, session === undefined);
  }

  /**
   * The named terminal reserved for a new run, in the place's directory: the open one when it is
   * idle (a busy one is refused; one elsewhere is moved there with a `cd` of its own, so the run
   * reports only its command), else a new one opened there as `newTerminal` says, under the call's settings.
   */
  async reserve(name: string, place: Place, newTerminal: NewTerminal, settings: ShepherdSettings): Promise<Reservation> {
    const existing = this.sessions.get(name);
    if (existing) {
      const alive = await this.ensureIdle(existing);
      if (alive && !existing.closed) {
        const reservation = this.reservation(existing, place, false);
        try {
          if (place.cwd !== undefined && !samePath(existing.terminal.cwd, place.cwd)) await this.changeDirectory(existing, place.cwd, settings);
        } catch (error) {
          reservation.release();
          throw error;
        }
        return reservation;
      }
      // Closed meanwhile, or its shell is gone while VS Code kept the terminal: start afresh.
      this.retire(existing);
    }
    if (this.creating.has(name)) {
      throw busyError(name, busyReasons.starting);
    }
    const pending = this.createSession(name, place.cwd ?? place.workspaceFolder, newTerminal, settings);
    this.creating.set(name, pending);
    try {
      return this.reservation(await pending, place, true);
    } finally {
      this.creating.delete(name);
    }
  }

  /**
   * Sends `command` to the session's terminal as a new run: the line its strategy prepares (as
   * typed, or sourcing a temp file that is removed when the run ends). The run keeps where and how
   * it was launched.
   */
  async startRun(session: TerminalSession, command: string, launch: RunLaunch, settings: ShepherdSettings): Promise<CommandRun> {
    const prepared = await session.strategy.prepareCommand(launch.typedLine ?? command, session.shell.kind, session.runsDir);
    const run = this.newRun(session, command, launch, settings);
    const subscriptions = new DisposableStore();
    subscriptions.add(
      run.onDidChangeState((state) => {
        this.changeEmitter.fire({ kind: 'runStateChanged', session, run });
        if (!run.active) prepared.dispose();
        if (state.kind === 'terminal_closed' && state.end === 'shell_gone') {
          this.retire(session);
        }
      }),
    );
    subscriptions.add(prepared);
    session.replaceRun(run, subscriptions);
    const line = historyFreeLine(session.shell.kind, prepared.line, settings.preventShellHistory);
    let execution: ShellExecution;
    try {
      execution = session.terminal.executeCommand(line);
    } catch (error) {
      run.terminalClosed(undefined);
      throw error;
    }
    session.runExecutions.add(execution);
    session.sentLine = line;
    run.expectOwnExecution(execution);
    run.attachExecution(execution);
    this.deps.logger.info(`terminal "${session.name}": run ${run.id} started: ${command}${prepared.line !== command ? ` (sent as: ${prepared.line})` : ''}`);
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

  private get platform(): NodeJS.Platform {
    return this.deps.platform ?? process.platform;
  }

  private reservation(session: TerminalSession, place: Place, created: boolean): Reservation {
    session.reserved = true;
    return {
      session,
      get cwd() {
        return placeCwd(place, session, created);
      },
      release: () => (session.reserved = false),
    };
  }

  /** Changes an open shell's directory with its own execution; a cd that fails or hangs is an error (and interrupted). */
  private async changeDirectory(session: TerminalSession, cwd: string, settings: ShepherdSettings): Promise<void> {
    const cd = await this.startRun(session, changeDirectoryCommand(session.shell.kind, cwd), { cwd: session.terminal.cwd, waitMode: 'completion' }, settings);
    const outcome = await cd.wait({ timeoutMs: CD_TIMEOUT_MS, stopAtInput: true });
    if (outcome === 'disposed') {
      throw windowClosingError(session.name, cd.command);
    }
    const exitCode = exitCodeOf(cd.state);
    if (outcome !== 'completed' || (exitCode !== undefined && exitCode !== 0)) {
      // A cd still going (a hung mount, a prompt) must not leave the terminal busy with it.
      if (cd.active) session.interrupt();
      const output = (await cd.outputSnapshot()).output;
      throw changeDirectoryError(session.name, cwd, `${outcome}${exitCode !== undefined ? `, exit code ${exitCode}` : ''}`, output);
    }
  }

  /** Refuses a busy terminal; false when the OS says its shell is gone (the session is dead). */
  private async ensureIdle(session: TerminalSession): Promise<boolean> {
    const reason = session.busyReason();
    if (reason !== undefined) {
      throw busyError(session.name, reason);
    }
    if (session.shellPid === undefined && !session.terminal.probeActivity) {
      return true;
    }
    // The probe is asynchronous: hold the terminal meanwhile so a concurrent call is refused.
    // A job only counts if it holds the terminal on a few probes in a row: shells and prompt
    // themes run short helpers at the prompt (fish's `kill -L`, a theme's git status).
    session.reserved = true;
    try {
      let activity: ShellActivity | undefined;
      for (let probe = 0; probe < BUSY_PROBES; probe++) {
        if (probe > 0) await new Promise((resolve) => setTimeout(resolve, BUSY_PROBE_INTERVAL_MS));
        activity = await this.probe(session).catch(() => undefined);
        if (activity?.foreground !== 'job') return activity?.foreground !== 'gone';
      }
      throw busyError(session.name, busyReasons.foreground(activity?.foregroundCommand));
    } finally {
      session.reserved = false;
    }
  }

  private async createSession(name: string, startIn: string | undefined, newTerminal: NewTerminal, settings: ShepherdSettings): Promise<TerminalSession> {
    const session = await openSession(name, newTerminal, startIn, settings, this.strategyContext);
    this.closedSessions.get(name)?.dispose();
    this.closedSessions.delete(name);
    this.sessions.set(name, session);
    this.changeEmitter.fire({ kind: 'sessionCreated', session });
    return session;
  }

  /** The OS's view of the session's shell, or the terminal's own where it knows better. */
  private probe(session: TerminalSession): Promise<ShellActivity> {
    if (session.terminal.probeActivity) return session.terminal.probeActivity();
    return session.shellPid === undefined ? Promise.resolve(UNKNOWN_ACTIVITY) : this.deps.probeShell(session.shellPid);
  }

  private newRun(session: TerminalSession, command: string, launch: RunLaunch, settings: ShepherdSettings): CommandRun {
    const config: RunConfig = {
      completion: { graceMs: settings.gracePeriodMs, settleMs: session.strategy.lateExecutions ? SETTLE_MS : 0, probeIntervalMs: PROBE_INTERVAL_MS },
      input: defaultInputPromptConfig,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    };
    const { clientOutputLimitChars } = launch;
    const output = this.deps.createOutput(session.name, { stripPromptAndEcho: session.strategy.stripsPromptAndEcho, ...(clientOutputLimitChars ? { clientOutputLimitChars } : {}) });
    return new CommandRun(command, session.name, session.shellPid, session.strategy.name, output, config, {
      now: this.deps.now,
      probeShell: () => this.probe(session),
      logger: this.deps.logger,
    }, launch);
  }

  // ---- editor events (the Emitter reports a handler that throws; none reaches the editor) -----

  private sessionOf(terminal: ShellTerminal): TerminalSession | undefined {
    for (const session of this.sessions.values()) {
      if (session.terminal === terminal) return session;
    }
    return undefined;
  }

  private onStart(event: ExecutionEvent): void {
    const session = this.sessionOf(event.terminal);
    if (session) routeExecutionStart(session, event, this.deps.logger);
  }

  private onEnd(event: ExecutionEndEvent): void {
    const session = this.sessionOf(event.terminal);
    if (session) routeExecutionEnd(session, event, this.deps.logger);
  }

  private onClose(event: TerminalCloseEvent): void {
    const { terminal, exitCode, reason } = event;
    const session = this.sessionOf(terminal);
    if (!session) return;
    this.markClosed(session);
    endRunOnClose(session, event);
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

/** The place's directory, else the terminal's own; a terminal opened for the call starts in the workspace folder. */
function placeCwd(place: Place, session: TerminalSession | undefined, opened: boolean): string | undefined {
  return place.cwd ?? session?.terminal.cwd ?? (opened ? place.workspaceFolder : undefined);
}
