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
import { busyError, cwdNotADirectoryError, nothingRunningError, readyPatternModeError, relativeCwdError, sensitivePromptError, terminalClosedError } from '../errors';
import type { CommandRun } from '../run/commandRun';
import { describeEnd } from '../run/runState';
import { isSensitivePrompt } from '../run/sensitivePrompts';
import type { RunningServer } from '../servers/serverPlan';
import { isEchoOffWait } from './secretGuard';
import type { ShepherdSettings } from '../settings';
import { isControlKey } from '../terminals/shellCommands';
import { nestedSession, shellInfo } from '../terminals/shellKind';
import type { NewTerminal } from '../terminals/terminalFactory';
import type { TerminalSession } from '../terminals/terminalSession';
import type { Place } from '../terminals/terminalSessions';
import type { CallContext } from './callContext';

/** How a call waits once its command started (awaitRun.ts reads it). */
export type WaitHow =
  | { readonly mode: 'completion'; readonly timeoutMs: number }
  | { readonly mode: 'ready'; readonly timeoutMs: number; readonly readyPattern: string | undefined }
  | { readonly mode: 'background' };

export interface RunPlan extends RunCall {
  /** How the call waits once the command started. */
  readonly wait: WaitHow;
  /** Where the command runs: the directory the call asked for (resolved), else the terminal's own. */
  readonly place: Place;
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

/** The terminal plan, with the server part from the servers' plan hook. */
export async function planRun(params: RunParams, call: CallContext): Promise<RunPlan> {
  const { sessions, servers, workspaceFolder } = call;
  const waitMode = params.waitMode ?? (params.readyPattern !== undefined ? 'ready' : 'completion');
  if (params.readyPattern !== undefined && waitMode !== 'ready') throw readyPatternModeError(waitMode);
  const place: Place = { cwd: params.cwd === undefined ? undefined : await resolveCwd(params.cwd, workspaceFolder), workspaceFolder };
  const restart = params.restart ?? false;
  const { duplicate, replaces, terminal } = servers.plan(
    { command: params.command, name: params.name, waitMode, restart, cwd: sessions.cwdIn(params.name ?? 'default', place) },
    sessions.open(),
  );
  const session = sessions.get(terminal);
  // A terminal known to be busy is refused before anyone is asked anything (the one a restart frees excepted).
  const busy = duplicate && !restart ? undefined : session === replaces?.session ? undefined : sessions.busyReason(terminal);
  if (busy !== undefined) throw busyError(terminal, busy);
  const newTerminal = sessions.planNew(call.settings, call.meta?.client?.name);
  return {
    kind: 'run',
    command: params.command,
    terminal,
    shell: session?.shell ?? newTerminal.shell,
    strategy: (session?.strategy ?? newTerminal.chain[0]!).name,
    cwd: sessions.cwdIn(terminal, place),
    opensTerminal: session === undefined,
    waitMode,
    restart,
    duplicate,
    wait: waitHow(waitMode, callTimeout(params.timeoutMs, call.settings), params.readyPattern),
    place,
    session,
    newTerminal,
    replaces,
  };
}

export function planInput(params: InputParams, context: Pick<CallContext, 'sessions' | 'settings'>): InputPlan {
  const session = context.sessions.find(params.name);
  if (session.closed) {
    throw terminalClosedError(params.name);
  }
  const run = session.currentRun;
  const key = isControlKey(params.text);
  if (!run?.active && !key) {
    throw nothingRunningError(params.name, run && { command: run.command, end: describeEnd(run.state) });
  }
  // A secret is the person's to type; the model may still cancel (Ctrl+C and the other keys).
  if (!key && run?.state.kind === 'waiting_for_input') {
    // As detected, or as drawn since (an OS-detected read may come before its prompt is drawn).
    const prompt = [run.state.prompt, run.progress().lastLine].find(isSensitivePrompt) ?? (isEchoOffWait(run) ? run.state.prompt : undefined);
    if (prompt !== undefined) throw sensitivePromptError(session.name, prompt);
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
