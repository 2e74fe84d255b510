/**
 * Execute, for a checked terminal_run plan: the side effects, in order. A restart stops the old
 * server; the terminal is reserved (opened if needed); an open terminal is moved to the asked
 * directory with its own execution; the command is typed; the dev servers learn of the run.
 */
import { cancelledBeforeStartError, changeDirectoryError, restartFailedError, windowClosingError } from '../errors';
import type { CommandRun } from '../run/commandRun';
import { exitCodeOf } from '../run/runState';
import type { DevServers } from '../servers/devServers';
import { samePath } from '../fsUtil';
import { changeDirectoryCommand } from '../terminals/shellCommands';
import type { TerminalSession } from '../terminals/terminalSession';
import type { TerminalSessions } from '../terminals/terminalSessions';
import { effectiveCwd, type RunPlan } from './runPlan';

export interface StartContext {
  readonly sessions: TerminalSessions;
  readonly servers: DevServers | undefined;
  readonly workspaceFolder: string | undefined;
  /** The caller gave up: nothing is typed on its behalf from then on. */
  readonly signal?: AbortSignal;
}

const CD_TIMEOUT_MS = 10_000;

export async function startRun(plan: RunPlan, context: StartContext): Promise<{ session: TerminalSession; run: CommandRun }> {
  const { sessions, servers, workspaceFolder, signal } = context;
  if (plan.replaces && servers && !(await servers.stop(plan.replaces))) {
    throw restartFailedError(plan.replaces.command, plan.replaces.session.name);
  }
  const reservation = await sessions.reserve(plan.terminal, plan.requestedCwd ?? workspaceFolder, plan.newTerminal);
  const { session } = reservation;
  try {
    if (plan.requestedCwd !== undefined && !reservation.created && !samePath(session.terminal.cwd, plan.requestedCwd)) {
      await changeDirectory(session, plan.requestedCwd, sessions);
    }
    // A caller that gave up while the terminal was prepared gets nothing typed on its behalf.
    if (signal?.aborted) {
      throw cancelledBeforeStartError();
    }
    const run = await sessions.startRun(session, plan.command);
    servers?.noteStarted(run, effectiveCwd(plan.requestedCwd, session.terminal.cwd, reservation.created, workspaceFolder), plan.waitMode);
    return { session, run };
  } finally {
    reservation.release();
  }
}

/** Changes an open shell's directory with its own execution, so the run reports only the command. */
async function changeDirectory(session: TerminalSession, cwd: string, sessions: TerminalSessions): Promise<void> {
  const cd = await sessions.startRun(session, changeDirectoryCommand(session.shell.kind, cwd));
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
