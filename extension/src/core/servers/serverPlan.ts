/**
 * The server part of a terminal_run's plan, the first of the two places a call enters servers/
 * (the other is the ready wait): never twice (the same server or watcher in the same directory is
 * reported instead of started again), and a restart's target (the server it stops, whose terminal
 * it runs in when the call named none). No side effects.
 */
import type { WaitMode } from '../../../../common/src/protocol';
import type { CommandRun } from '../run/commandRun';
import type { TerminalSessionView } from '../terminals/terminalSession';

/** A server found running: the session it runs in and what started it. */
export interface RunningServer {
  readonly session: TerminalSessionView;
  readonly command: string;
  readonly cwd: string | undefined;
  /** Our run; undefined for a command the user typed in the managed terminal. */
  readonly run: CommandRun | undefined;
}

/** What the call asks, as far as servers care. */
export interface ServerAsk {
  readonly command: string;
  /** The terminal the call named; undefined for "default" (or, on a restart, the server's own). */
  readonly name: string | undefined;
  readonly waitMode: WaitMode;
  readonly restart: boolean;
  /** Where the command would run in the terminal of that name. */
  readonly cwd: string | undefined;
}

export interface ServerPlan {
  /** The same command already runs in the same directory as a dev server or watcher. */
  readonly duplicate: RunningServer | undefined;
  /** The server a restart stops before the command starts. */
  readonly replaces: RunningServer | undefined;
  /** The terminal the command runs in. */
  readonly terminal: string;
}

export type FindRunning = (command: string, cwd: string | undefined, sessions: readonly TerminalSessionView[]) => RunningServer | undefined;

export function planServer(ask: ServerAsk, sessions: readonly TerminalSessionView[], findRunning: FindRunning): ServerPlan {
  const running = findRunning(ask.command, ask.cwd, sessions);
  // A one-shot command is no server: only one that turned watcher counts in completion mode.
  const duplicate = running && (ask.waitMode !== 'completion' || (running.run?.cycles ?? 0) > 0) ? running : undefined;
  const replaces = ask.restart ? duplicate : undefined;
  return { duplicate, replaces, terminal: replaces && ask.name === undefined ? replaces.session.name : (ask.name ?? 'default') };
}
