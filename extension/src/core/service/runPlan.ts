/**
 * Plan: what a call would do, decided without side effects, so every check sees it before
 * anything happens. A terminal_run plan names the command, the terminal it would use or open
 * (with that terminal's shell and strategy), the directory it would run in, its wait, and the
 * dev server a restart would stop. A terminal_input plan names the terminal and run it types into,
 * and the command the text is when it ends a line at a shell prompt.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { InputParams, RunParams, WaitMode } from '../../../../common/src/protocol';
import type { InputCall, RunCall } from '../checks/commandCheck';
import { busyError, cwdNotADirectoryError, nothingRunningError, readyPatternModeError, relativeCwdError, serversUnavailableError, terminalClosedError } from '../errors';
import type { CommandRun } from '../run/commandRun';
import { describeEnd } from '../run/runState';
import type { DevServers, RunningServer } from '../servers/devServers';
import type { ShepherdSettings } from '../settings';
import { isControlKey } from '../terminals/shellCommands';
import { shellInfo } from '../terminals/shellKind';
import type { NewTerminal } from '../terminals/terminalFactory';
import type { TerminalSession } from '../terminals/terminalSession';
import type { TerminalSessions } from '../terminals/terminalSessions';
import type { WaitHow } from './awaitRun';
import { nestedSession } from './runMessages';

export interface PlanContext {
  readonly sessions: TerminalSessions;
  readonly servers: DevServers | undefined;
  readonly settings: ShepherdSettings;
  readonly workspaceFolder: string | undefined;
}

export interface RunPlan extends RunCall {
  /** How the call waits once the command started. */
  readonly wait: WaitHow;
  /** The directory the call asked for, resolved; undefined keeps the terminal's own. */
  readonly requestedCwd: string | undefined;
  /** The open terminal it would use; undefined when one is opened. */
  readonly session: TerminalSession | undefined;
  /** The terminal opened when none is open under the name (or the open one turns out dead). */
  readonly newTerminal: NewTerminal;
  /** The dev server a restart stops before the command starts. */
  readonly replaces: RunningServer | undefined;
}

export interface InputPlan extends InputCall {
  readonly session: TerminalSession;
  /** The run the text goes to; undefined when the terminal never ran one (only a key may go there). */
  readonly run: CommandRun | undefined;
  readonly enter: boolean;
  readonly timeoutMs: number;
}

export async function planRun(params: RunParams, context: PlanContext): Promise<RunPlan> {
  const { sessions, servers, workspaceFolder } = context;
  const waitMode = params.waitMode ?? (params.readyPattern !== undefined ? 'ready' : 'completion');
  if (params.readyPattern !== undefined && waitMode !== 'ready') throw readyPatternModeError(waitMode);
  if (waitMode === 'ready' && !servers) throw serversUnavailableError();
  const requestedCwd = params.cwd === undefined ? undefined : await resolveCwd(params.cwd, workspaceFolder);
  const restart = params.restart ?? false;
  let name = params.name ?? 'default';
  // Never twice: the same server, or watcher, in the same directory is reported (or, asked to, replaced where it runs).
  const named = sessions.get(name);
  const running = servers?.findRunning(params.command, effectiveCwd(requestedCwd, named?.terminal.cwd, named === undefined, workspaceFolder), sessions.open());
  const duplicate = running && (waitMode !== 'completion' || (running.run?.cycles ?? 0) > 0) ? running : undefined;
  const replaces = restart ? duplicate : undefined;
  if (replaces && params.name === undefined) name = replaces.session.name;
  const session = sessions.get(name);
  // A terminal known to be busy is refused before anyone is asked anything (the one a restart frees excepted).
  const busy = duplicate && !restart ? undefined : session === replaces?.session ? undefined : sessions.busyReason(name);
  if (busy !== undefined) throw busyError(name, busy);
  const newTerminal = sessions.planNew();
  return {
    kind: 'run',
    command: params.command,
    terminal: name,
    shell: session?.shell ?? newTerminal.shell,
    strategy: (session?.strategy ?? newTerminal.chain[0]!).name,
    cwd: effectiveCwd(requestedCwd, session?.terminal.cwd, session === undefined, workspaceFolder),
    opensTerminal: session === undefined,
    waitMode,
    restart,
    duplicate,
    wait: waitHow(waitMode, callTimeout(params.timeoutMs, context.settings), params.readyPattern),
    requestedCwd,
    session,
    newTerminal,
    replaces,
  };
}

export function planInput(params: InputParams, context: Pick<PlanContext, 'sessions' | 'settings'>): InputPlan {
  const session = context.sessions.find(params.name);
  if (session.closed) {
    throw terminalClosedError(params.name);
  }
  const run = session.currentRun;
  const key = isControlKey(params.text);
  if (!run?.active && !key) {
    throw nothingRunningError(params.name, run && { command: run.command, end: describeEnd(run.state) });
  }
  const enter = (params.enter ?? true) && !key;
  // A line ended at the prompt of a shell of its own (nested, remote) is a new command there.
  const program = enter && run?.active ? nestedSession(run.foregroundCommand) : undefined;
  return {
    kind: 'input',
    text: params.text,
    terminal: session.name,
    strategy: session.strategy.name,
    command: program !== undefined ? { line: params.text, shell: shellInfo(program) } : undefined,
    session,
    run,
    enter,
    timeoutMs: callTimeout(params.timeoutMs, context.settings),
  };
}

function waitHow(mode: WaitMode, timeoutMs: number, readyPattern: string | undefined): WaitHow {
  switch (mode) {
    case 'ready':
      return { mode, timeoutMs, readyPattern };
    case 'background':
      return { mode };
    case 'completion':
      return { mode, timeoutMs };
  }
}

/** How long a call waits when it gave no timeout. */
export function callTimeout(timeoutMs: number | undefined, settings: ShepherdSettings): number {
  return timeoutMs ?? settings.defaultTimeoutMs;
}

/**
 * Where a command runs: the directory the call asked for, else the terminal's own (when known);
 * a terminal opened for the call starts in the workspace folder.
 */
export function effectiveCwd(requested: string | undefined, terminalCwd: string | undefined, opened: boolean, workspaceFolder: string | undefined): string | undefined {
  return requested ?? terminalCwd ?? (opened ? workspaceFolder : undefined);
}

async function resolveCwd(cwd: string, workspaceFolder: string | undefined): Promise<string> {
  if (!path.isAbsolute(cwd) && workspaceFolder === undefined) {
    throw relativeCwdError(cwd);
  }
  const resolved = path.resolve(workspaceFolder ?? '/', cwd);
  const stat = await fs.stat(resolved).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw cwdNotADirectoryError(cwd, resolved, stat !== undefined);
  }
  return resolved;
}
