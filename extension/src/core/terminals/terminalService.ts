/**
 * The terminal tools as the bridge serves them: terminal_run, terminal_state, terminal_input and
 * terminal_list, over the registry of managed terminals (terminalSessions.ts). Each call waits on
 * its run per its wait mode and reports it through runReport.ts, which owns every message.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { InputParams, RunParams, StateParams, TerminalInfo, TerminalRunResult } from '../../../../common/src/protocol';
import type { Disposable } from '../events';
import { samePath } from '../fsUtil';
import type { CommandRun, RunProgress } from '../run/commandRun';
import {
  cancelledBeforeStartError,
  cancelledMessage,
  changeDirectoryError,
  cwdNotADirectoryError,
  alreadyRunningResult,
  exitCodeOf,
  keySentWithoutRunError,
  notReadyMessage,
  portConflictMessage,
  readyMessage,
  readyPatternModeError,
  restartFailedError,
  serversUnavailableError,
  noRunYetError,
  nothingRunningError,
  relativeCwdError,
  runResult,
  statusOf,
  terminalClosedError,
  timeoutMessage,
  windowClosingError,
} from '../run/runReport';
import type { DevServers } from '../servers/devServers';
import { changeDirectoryCommand, isControlKey } from './shellCommands';
import { shellLabel } from './shellKind';
import { TerminalSessions, type TerminalSession, type TerminalSessionView, type TerminalSessionsDependencies } from './terminalSessions';

export type { TerminalServiceEvent, TerminalSessionView } from './terminalSessions';

export interface TerminalServiceDependencies extends Omit<TerminalSessionsDependencies, 'now'> {
  readonly now?: () => number;
  /** Dev-server support: the duplicate rule, restarts, waitMode "ready", port conflicts. */
  readonly servers?: DevServers;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Called about once a second while the call waits. */
  readonly onProgress?: (progress: RunProgress) => void;
}

const BACKGROUND_GLANCE_MS = 300;
const CANCEL_WAIT_MS = 3000;
const CD_TIMEOUT_MS = 10_000;
const PROGRESS_INTERVAL_MS = 1000;

export class TerminalService implements Disposable {
  private readonly sessions: TerminalSessions;
  /** Sessions opening, runs starting and changing state, sessions closing. */
  readonly onDidChange: TerminalSessions['onDidChange'];

  constructor(private readonly deps: TerminalServiceDependencies) {
    this.sessions = new TerminalSessions({ ...deps, now: deps.now ?? (() => performance.now()) });
    this.onDidChange = this.sessions.onDidChange;
  }

  /** The open terminals, read-only (for the ledger and the views). */
  sessionViews(): TerminalSessionView[] {
    return this.sessions.open();
  }

  /** terminal_run: send a command and wait per waitMode. */
  async run(params: RunParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    if (options.signal?.aborted) {
      throw cancelledBeforeStartError();
    }
    const waitMode = params.waitMode ?? (params.readyPattern !== undefined ? 'ready' : 'completion');
    if (params.readyPattern !== undefined && waitMode !== 'ready') {
      throw readyPatternModeError(waitMode);
    }
    let name = params.name ?? 'default';
    const timeoutMs = params.timeoutMs ?? this.deps.settings().defaultTimeoutMs;
    const cwd = params.cwd === undefined ? undefined : await this.resolveCwd(params.cwd);
    const servers = this.deps.servers;
    if (servers && waitMode !== 'completion') {
      // Never twice: the same server in the same directory is reported (or, asked to, replaced).
      const running = servers.findRunning(params.command, cwd ?? this.sessions.get(name)?.terminal.cwd ?? this.deps.workspaceFolder(), this.sessions.open());
      if (running && !params.restart) {
        const { server, tail } = await servers.describe(running);
        return alreadyRunningResult(server, tail, running.session.strategy);
      }
      if (running) {
        if (!(await servers.stop(running))) throw restartFailedError({ command: running.command, terminal: running.session.name });
        name = params.name ?? running.session.name;
      }
    }
    const reservation = await this.sessions.reserve(name, cwd);
    const { session } = reservation;
    let run: CommandRun;
    try {
      if (cwd !== undefined && !reservation.created && !samePath(session.terminal.cwd, cwd)) {
        await this.changeDirectory(session, cwd);
      }
      // A caller that gave up while the terminal was prepared gets nothing typed on its behalf.
      if (options.signal?.aborted) {
        throw cancelledBeforeStartError();
      }
      run = await this.sessions.startRun(session, params.command);
      servers?.noteStarted(run, cwd ?? session.terminal.cwd ?? (reservation.created ? this.deps.workspaceFolder() : undefined), waitMode);
    } finally {
      reservation.release();
    }
    if (waitMode === 'background') {
      const outcome = await run.wait({ timeoutMs: BACKGROUND_GLANCE_MS, signal: options.signal });
      // `cancelled` promises Ctrl+C was sent, in this mode as in the others.
      if (outcome === 'cancelled') return this.cancel(session, run);
      if (outcome === 'disposed') throw windowClosingError(session.name, run.command);
      return this.explainPortConflict(await runResult(run, outcome === 'timeout' ? 'running' : outcome));
    }
    if (waitMode === 'ready') {
      return this.waitReady(session, run, timeoutMs, params.readyPattern, options);
    }
    return this.explainPortConflict(await this.waitAndReport(session, run, timeoutMs, options));
  }

  /** terminal_state: the current or last run of a terminal, optionally waiting for it. */
  async state(params: StateParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const session = this.sessions.find(params.name);
    const run = session.currentRun;
    if (!run) {
      throw noRunYetError(params.name);
    }
    if (params.wait && run.active) {
      const timeoutMs = params.timeoutMs ?? this.deps.settings().defaultTimeoutMs;
      return this.waitAndReport(session, run, timeoutMs, options);
    }
    return runResult(run, statusOf(run));
  }

  /** terminal_input: type text into a running command (an answer, or a key such as Ctrl+C), then wait. */
  async input(params: InputParams, options: CallOptions = {}): Promise<TerminalRunResult> {
    const session = this.sessions.find(params.name);
    if (session.closed) {
      throw terminalClosedError(params.name);
    }
    const run = session.currentRun;
    const key = isControlKey(params.text);
    if (!run?.active && !key) {
      throw nothingRunningError(params.name, run);
    }
    session.terminal.sendText(params.text, (params.enter ?? true) && !key);
    if (!run) {
      throw keySentWithoutRunError(params.name);
    }
    run.inputSent();
    const timeoutMs = params.timeoutMs ?? this.deps.settings().defaultTimeoutMs;
    return this.waitAndReport(session, run, timeoutMs, options);
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
        strategy: session.strategy,
      };
      if (session.shellPid !== undefined) info.pid = session.shellPid;
      if (session.terminal.cwd !== undefined) info.cwd = session.terminal.cwd;
      const typed = [...session.foreignExecutions][0];
      if (typed && !run?.active) {
        // What the user typed is what runs there now, not our last (ended) run.
        info.command = typed.commandLine;
      } else if (run) {
        info.command = run.command;
        info.status = statusOf(run);
        const exitCode = exitCodeOf(run);
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

  // -------------------------------------------------------------------------------------------

  private async waitAndReport(session: TerminalSession, run: CommandRun, timeoutMs: number, options: CallOptions): Promise<TerminalRunResult> {
    const progress = options.onProgress ? this.reportProgress(run, options.onProgress) : undefined;
    try {
      const outcome = await run.wait({ timeoutMs, signal: options.signal });
      if (outcome === 'cancelled') {
        return await this.cancel(session, run);
      }
      if (outcome === 'disposed') {
        throw windowClosingError(session.name, run.command);
      }
      return await runResult(run, outcome, outcome === 'timeout' ? timeoutMessage(session.name, timeoutMs) : undefined);
    } finally {
      progress?.dispose();
    }
  }

  /** waitMode "ready": until the server or watcher answers, or it fails fast (ended, asks, cancelled, timeout). */
  private async waitReady(session: TerminalSession, run: CommandRun, timeoutMs: number, readyPattern: string | undefined, options: CallOptions): Promise<TerminalRunResult> {
    const servers = this.deps.servers;
    if (!servers) throw serversUnavailableError();
    const progress = options.onProgress ? this.reportProgress(run, options.onProgress) : undefined;
    try {
      const outcome = await servers.waitReady(run, {
        timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(readyPattern !== undefined ? { readyPattern: new RegExp(readyPattern) } : {}),
      });
      switch (outcome.kind) {
        case 'ready':
          return { ...(await runResult(run, 'running', readyMessage(session.name, outcome.info))), ready: outcome.info };
        case 'cancelled':
          return await this.cancel(session, run);
        case 'waiting_for_input':
          return await runResult(run, 'waiting_for_input');
        case 'ended':
          return await this.explainPortConflict(await runResult(run, statusOf(run)));
        case 'disposed':
          throw windowClosingError(session.name, run.command);
      }
      return await runResult(run, 'timeout', notReadyMessage(session.name, timeoutMs, outcome.seen));
    } finally {
      progress?.dispose();
    }
  }

  /** A command that failed because a port was taken: who holds the port, and the next step. */
  private async explainPortConflict(result: TerminalRunResult): Promise<TerminalRunResult> {
    const servers = this.deps.servers;
    if (!servers || result.status !== 'completed' || result.exitCode === 0 || result.command === undefined) return result;
    const conflict = await servers.portConflict(result.output, result.command);
    return conflict ? { ...result, portConflict: conflict, message: portConflictMessage(conflict) } : result;
  }

  /** Calls `onProgress` about once a second with the run's figures until disposed; a failing callback is logged. */
  private reportProgress(run: CommandRun, onProgress: (p: RunProgress) => void): Disposable {
    const interval = setInterval(() => {
      try {
        onProgress(run.progress());
      } catch (error) {
        this.deps.logger.warn('progress listener failed', error);
      }
    }, PROGRESS_INTERVAL_MS);
    return { dispose: () => clearInterval(interval) };
  }

  /** Ctrl+C for a run whose caller gave up, then a bounded wait for the shell to report the end. */
  private async cancel(session: TerminalSession, run: CommandRun): Promise<TerminalRunResult> {
    if (run.active && !session.closed) {
      session.terminal.sendText('\u0003', false);
      run.inputSent();
      if ((await run.wait({ timeoutMs: CANCEL_WAIT_MS, stopAtInput: false })) === 'disposed') {
        throw windowClosingError(session.name, run.command);
      }
    }
    return runResult(run, 'cancelled', cancelledMessage(session.name, run.active, CANCEL_WAIT_MS));
  }

  /** Changes an existing shell's directory with its own execution, so the run reports only the command. */
  private async changeDirectory(session: TerminalSession, cwd: string): Promise<void> {
    const cd = await this.sessions.startRun(session, changeDirectoryCommand(session.shell.kind, cwd));
    const outcome = await cd.wait({ timeoutMs: CD_TIMEOUT_MS, stopAtInput: true });
    if (outcome === 'disposed') {
      throw windowClosingError(session.name, cd.command);
    }
    const result = await runResult(cd, outcome === 'timeout' ? 'timeout' : outcome);
    if (outcome !== 'completed' || (result.exitCode !== undefined && result.exitCode !== 0)) {
      // A cd still going (a hung mount, a prompt) must not leave the terminal busy with it.
      if (cd.active) {
        session.terminal.sendText('\u0003', false);
      }
      throw changeDirectoryError(session.name, cwd, outcome, result);
    }
  }

  private async resolveCwd(cwd: string): Promise<string> {
    const base = this.deps.workspaceFolder();
    if (!path.isAbsolute(cwd) && base === undefined) {
      throw relativeCwdError(cwd);
    }
    const resolved = path.resolve(base ?? '/', cwd);
    const stat = await fs.stat(resolved).catch(() => undefined);
    if (!stat?.isDirectory()) {
      throw cwdNotADirectoryError(cwd, resolved, stat !== undefined);
    }
    return resolved;
  }
}
