/**
 * Execute, for a checked terminal_run plan: the side effects, in order. A restart stops the old
 * server; the terminal is reserved in the call's directory (opened there, or moved there by the
 * sessions); the command is typed, its launch facts (where, which wait, whose call) kept with the run.
 */
import { cancelledBeforeStartError, restartFailedError } from '../errors';
import type { CommandRun } from '../run/commandRun';
import type { PreparedSandbox } from '../sandbox/commandSandbox';
import type { TerminalSession } from '../terminals/terminalSession';
import type { CallContext } from './callContext';
import type { RunPlan } from './runPlan';

/** A command typed into its terminal. */
export interface StartedRun {
  readonly session: TerminalSession;
  readonly run: CommandRun;
}

export async function startRun(
  plan: RunPlan,
  call: Pick<CallContext, 'sessions' | 'servers' | 'signal' | 'settings' | 'meta'>,
  /** Bounded work on the reserved terminal before the command is typed (reading its environment). */
  beforeRun?: (session: TerminalSession) => Promise<void>,
  /** The command runs in the sandbox: typed as the runtime's line, for this terminal's shell and directory. */
  sandbox?: PreparedSandbox,
): Promise<StartedRun> {
  const { sessions, servers, signal, settings } = call;
  const agentSession = call.meta?.agentSession;
  const clientOutputLimitChars = call.meta?.clientOutputLimitChars;
  if (plan.replaces && !(await servers.stop(plan.replaces))) {
    throw restartFailedError(plan.replaces.command, plan.replaces.session.name);
  }
  const reservation = await sessions.reserve(plan.terminal, plan.place, plan.newTerminal, settings);
  const { session } = reservation;
  try {
    // A caller that gave up while the terminal was prepared gets nothing typed on its behalf.
    if (signal?.aborted) {
      throw cancelledBeforeStartError();
    }
    await beforeRun?.(session);
    const sandboxed = sandbox && { sandbox: { mode: sandbox.mode, network: sandbox.network }, typedLine: sandbox.line(reservation.cwd, session.shell) };
    const run = await sessions.startRun(session, plan.command, { cwd: reservation.cwd, waitMode: plan.waitMode, ...(agentSession ? { agentSession } : {}), ...(clientOutputLimitChars ? { clientOutputLimitChars } : {}), ...sandboxed }, settings);
    return { session, run };
  } finally {
    reservation.release();
  }
}
