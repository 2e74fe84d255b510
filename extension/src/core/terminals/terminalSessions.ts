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
import type { StrategyName } from '../../../../common/src/protocol';
import { DisposableStore, Emitter, type Disposable } from '../events';
import { UNKNOWN_ACTIVITY, type ShellActivity } from '../processes/types';
import { CommandRun, type RunConfig } from '../run/commandRun';
import { defaultInputPromptConfig } from '../run/inputPromptDetector';
import type { RunOutput } from '../run/runOutput';
import { busyError, busyReasons, closedAtStartError, noStrategyError, terminalNotFoundError } from '../run/runReport';
import type { ShepherdSettings } from '../settings';
import { prepareCommand, RUNS_DIR_VARIABLE } from './commandText';
import type { IntegrationFiles } from './integration/integrationFiles';
import { managedEnv, shepherdLaunch } from './integration/integrationLaunch';
import { chooseShell, shellInfo, type ShellInfo } from './shellKind';
import { hasScriptCommand, PtyTerminal } from './pty/ptyTerminal';
import { strategyChain } from './strategyChain';
import type { CreateTerminalOptions, ExecutionEndEvent, ExecutionEvent, ShellExecution, ShellTerminal, TerminalCloseEvent, TerminalHost } from './terminalPort';

export interface TerminalSessionsDependencies {
  readonly host: TerminalHost;
  readonly settings: () => ShepherdSettings;
  /** A run's output pipeline; `stripPromptAndEcho` false where the data has no prompt marks to cut at (the extension-owned terminal). */
  readonly createOutput: (terminalName: string, options?: { readonly stripPromptAndEcho?: boolean }) => RunOutput;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  /** Where a new terminal starts when the call gives no cwd; undefined when no folder is open. */
  readonly workspaceFolder: () => string | undefined;
  readonly logger: Logger;
  readonly now: () => number;
  /** Terminal Shepherd's integration scripts, written where shells can read them (asked for once, when first needed). */
  readonly integrationFiles: () => Promise<IntegrationFiles>;
  /** Descendants of a process (the extension-owned terminal finds the program it runs); none known when absent. */
  readonly descendants?: (pid: number) => Promise<Array<{ readonly pid: number; readonly ppid: number }>>;
  /** The OS the shells run on (default: this process's). */
  readonly platform?: NodeJS.Platform;
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
  readonly shell: ShellInfo;
  readonly strategy: StrategyName;
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
/** Probes (and the pause between them) before a foreground job the user started counts as busy. */
const BUSY_PROBES = 3;
const BUSY_PROBE_INTERVAL_MS = 100;

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

  constructor(
    readonly name: string,
    readonly terminal: ShellTerminal,
    readonly shellPid: number | undefined,
    readonly shell: ShellInfo,
    readonly strategy: StrategyName,
    /** The private folder of command files named in the terminal's environment ($TSHEP_R), if any. */
    readonly runsDir: string | undefined,
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
    // The extension-owned terminal's processes are ours: they end with the registry.
    if (this.strategy === 'pseudoterminal') this.terminal.dispose();
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

  /**
   * Sends `command` to the session's terminal as a new run: as typed, or as a line that sources
   * it from a temp file (multi-line commands; see commandText.ts), removed when the run ends.
   */
  async startRun(session: TerminalSession, command: string): Promise<CommandRun> {
    // Files go where the terminal's $TSHEP_R points (the pseudoterminal runs every command from a file of its own).
    const runsDir = session.strategy === 'pseudoterminal' ? undefined : session.runsDir;
    const prepared = await prepareCommand(command, session.shell.kind, session.strategy, runsDir);
    const run = this.newRun(session, command);
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
    let execution: ShellExecution;
    try {
      execution = session.terminal.executeCommand(prepared.line);
    } catch (error) {
      run.terminalClosed(undefined);
      throw error;
    }
    session.runExecutions.add(execution);
    session.sentLine = prepared.line;
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

  /** Opens a terminal with the first strategy of the shell's chain that works (see strategyChain.ts). */
  private async createSession(name: string, cwd: string | undefined): Promise<TerminalSession> {
    const settings = this.deps.settings();
    const startIn = cwd ?? this.deps.workspaceFolder();
    const platform = this.deps.platform ?? process.platform;
    const shell = shellInfo(chooseShell(settings.shellPath, this.deps.host.defaultShell(), platform, process.env.PATH ?? process.env.Path ?? ''));
    const chain = strategyChain({ kind: shell.kind, vscodeInjection: this.deps.host.vscodeInjectionEnabled(), preference: settings.strategy });
    const failures: string[] = [];
    for (const strategy of chain) {
      const opened = await this.openTerminal(name, strategy, shell, startIn, settings);
      if ('failure' in opened) {
        failures.push(`${strategy}: ${opened.failure}`);
        this.deps.logger.warn(`terminal "${name}": ${strategy} strategy failed (${opened.failure}); trying the next one`);
        continue;
      }
      const { terminal, runsDir } = opened;
      const shellPid = await terminal.processId();
      // Checked after the last await: a close event before registration would find no session.
      if (terminal.closed) {
        throw closedAtStartError(name);
      }
      const session = new TerminalSession(name, terminal, shellPid, shell, strategy, runsDir);
      this.closedSessions.get(name)?.dispose();
      this.closedSessions.delete(name);
      this.sessions.set(name, session);
      this.deps.logger.info(
        `terminal "${name}" created (shell ${shell.path ?? 'default'}, pid ${shellPid ?? 'unknown'}, strategy ${strategy}${failures.length > 0 ? ` after ${failures.join('; ')}` : ''})`,
      );
      this.changeEmitter.fire({ kind: 'sessionCreated', session });
      return session;
    }
    throw noStrategyError(name, shell.path ?? 'the default shell', failures);
  }

  /**
   * A terminal running with `strategy`, or why that strategy did not work here (the terminal is
   * disposed then). A shell that exits at once fails the whole creation: every strategy needs it.
   */
  private async openTerminal(
    name: string,
    strategy: StrategyName,
    shell: ShellInfo,
    startIn: string | undefined,
    settings: ShepherdSettings,
  ): Promise<{ terminal: ShellTerminal; runsDir?: string } | { failure: string }> {
    const base: CreateTerminalOptions = {
      name: `${TERMINAL_TITLE_PREFIX}${name}`,
      reveal: settings.revealOnCreate,
      ...(startIn !== undefined ? { cwd: startIn } : {}),
      ...(settings.shellPath ? { shellPath: settings.shellPath } : shell.path !== undefined && shell.path !== this.deps.host.defaultShell() ? { shellPath: shell.path } : {}),
    };
    let options: CreateTerminalOptions;
    switch (strategy) {
      case 'vscode': {
        const runsDir = await this.deps.integrationFiles().then(
          (files) => files.runsDir,
          () => undefined,
        );
        options = { ...base, env: managedEnv(shell.kind, runsDir) };
        break;
      }
      case 'shepherd': {
        let files: IntegrationFiles;
        try {
          files = await this.deps.integrationFiles();
        } catch (error) {
          return { failure: `its scripts could not be written (${error instanceof Error ? error.message : String(error)})` };
        }
        const launch = shepherdLaunch(shell.kind, files, process.env);
        if (!launch) return { failure: `no integration script for ${shell.name}` };
        // The shell is named explicitly so that its arguments apply to it, not to the default profile.
        options = { ...base, shellPath: shell.path ?? shell.name, ...(launch.shellArgs ? { shellArgs: launch.shellArgs } : {}), env: launch.env };
        break;
      }
      case 'pseudoterminal':
        return this.openPseudoterminal(name, shell, startIn, settings);
    }
    const terminal = this.deps.host.create(options);
    const ready = await this.deps.host.waitForShellIntegration(terminal, settings.shellIntegrationTimeoutMs);
    if (ready) {
      const runsDir = options.env?.[RUNS_DIR_VARIABLE];
      return runsDir !== undefined ? { terminal, runsDir } : { terminal };
    }
    if (terminal.closed) {
      throw closedAtStartError(name);
    }
    terminal.dispose();
    return { failure: `shell integration did not activate within ${settings.shellIntegrationTimeoutMs} ms` };
  }

  /** The extension-owned terminal: ready at once (no integration to wait for). */
  private async openPseudoterminal(
    name: string,
    shell: ShellInfo,
    startIn: string | undefined,
    settings: ShepherdSettings,
  ): Promise<{ terminal: ShellTerminal } | { failure: string }> {
    let files: IntegrationFiles;
    try {
      files = await this.deps.integrationFiles();
    } catch (error) {
      return { failure: `no private folder for its command files (${error instanceof Error ? error.message : String(error)})` };
    }
    const platform = this.deps.platform ?? process.platform;
    const terminal = new PtyTerminal(
      {
        name: `${TERMINAL_TITLE_PREFIX}${name}`,
        shell: shell.path !== undefined ? shell : shellInfo(platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
        cwd: startIn,
        env: managedEnv(shell.kind, files.runsDir),
        runsDir: files.runsDir,
        platform,
        hasScript: hasScriptCommand(platform),
      },
      {
        createPseudoterminal: (title, behaviour) => this.deps.host.createPseudoterminal(title, behaviour, settings.revealOnCreate),
        probeShell: this.deps.probeShell,
        descendants: this.deps.descendants ?? (() => Promise.resolve([])),
        onDidStart: (t, execution) => this.onStart({ terminal: t, execution }),
        onDidEnd: (t, execution, exitCode) => this.onEnd({ terminal: t, execution, exitCode }),
        onDidClose: (t, exitCode, reason) => this.onClose({ terminal: t, exitCode, reason }),
        logger: this.deps.logger,
      },
    );
    return { terminal };
  }

  /** The OS's view of the session's shell, or the terminal's own where it knows better. */
  private probe(session: TerminalSession): Promise<ShellActivity> {
    if (session.terminal.probeActivity) return session.terminal.probeActivity();
    return session.shellPid === undefined ? Promise.resolve(UNKNOWN_ACTIVITY) : this.deps.probeShell(session.shellPid);
  }

  private newRun(session: TerminalSession, command: string): CommandRun {
    const config: RunConfig = {
      completion: { graceMs: this.deps.settings().gracePeriodMs, settleMs: SETTLE_MS, probeIntervalMs: PROBE_INTERVAL_MS },
      input: defaultInputPromptConfig,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
    };
    // In the extension-owned terminal every byte is the command's own: a marker a program prints
    // must not hide what follows it.
    const output = this.deps.createOutput(session.name, { stripPromptAndEcho: session.strategy !== 'pseudoterminal' });
    return new CommandRun(command, session.name, session.shellPid, session.strategy, output, config, {
      now: this.deps.now,
      probeShell: () => this.probe(session),
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
    this.deps.logger.debug(`terminal "${session.name}": execution started: ${JSON.stringify(execution.commandLine)}${session.runExecutions.has(execution) ? ' (the run\'s own)' : run?.active ? ' (during the run)' : ' (typed)'}`);
    if (session.runExecutions.has(execution)) {
      run?.executionStarted(execution);
    } else if (run?.active) {
      // A cascade (next line of multi-line input, an activation script): part of the same run.
      // One showing the line we sent is our own reported as another object: without a trusted
      // command line (VS Code's nonce) VS Code reads it from the screen, where a long line
      // wraps and a right prompt may follow it.
      session.runExecutions.add(execution);
      if (session.sentLine !== undefined && showsLine(execution.commandLine, session.sentLine)) run.expectOwnExecution(execution);
      run.attachExecution(execution);
      run.executionStarted(execution);
    } else {
      session.foreignExecutions.add(execution);
    }
  }

  private onEnd({ terminal, execution, exitCode }: ExecutionEndEvent): void {
    const session = this.sessionOf(terminal);
    if (!session) return;
    this.deps.logger.debug(`terminal "${session.name}": execution ended (exit code ${exitCode ?? 'none'}): ${JSON.stringify(execution.commandLine)}`);
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

/** Whether a command line read from the screen shows `sent` (wraps and a right prompt aside). */
export function showsLine(commandLine: string, sent: string): boolean {
  const squash = (text: string): string => text.replace(/\s+/g, '');
  const wanted = squash(sent);
  return wanted.length > 0 && squash(commandLine).startsWith(wanted);
}
