/**
 * What a model reads about runs, shared by every tool that returns one (terminal_run,
 * terminal_state, terminal_input): each status, what it means and the call to make next. A status
 * added to the protocol must be described here (the Record makes the compiler ask), and every such
 * tool then describes it. The README's status table is generated from the same guide.
 */
import { limits, type RunStatus } from '../../../../common/src/protocol';

/** Most characters in a tool's description: a model reads every description on every request. A test holds each tool to it. */
export const MAX_DESCRIPTION_CHARS = 1000;

/** How the tools that wait describe their default wait (the number comes from the settings table). */
export const defaultTimeoutNote = `Default: the terminalShepherd.run.defaultTimeoutMs setting (${limits.defaultTimeoutMs} unless the user changed it)`;

/** One status: what it means and the next call, each a short phrase. */
export interface StatusGuide {
  readonly means: string;
  readonly next: string;
  /** The next call reads as an aside to the meaning: the description puts it in parentheses instead of after "; ". */
  readonly nextAside?: true;
}

/** Per status: its meaning and the next call, one short line together in a tool description. */
export const runStatusGuide: Readonly<Record<RunStatus, StatusGuide>> = {
  completed: { means: 'done', next: 'see exitCode' },
  waiting_for_input: { means: 'asks for input (see prompt)', next: 'answer with terminal_input' },
  timeout: { means: 'still running past your timeout', next: 'make nextCall' },
  running: { means: 'still running (your client\'s limit came first, background, or ready: see ready.urls)', next: 'make nextCall' },
  already_running: { means: 'the same command runs already: nothing started', next: 'restart: true replaces it', nextAside: true },
  cancelled: { means: 'call cancelled', next: 'the command keeps running' },
  terminal_closed: { means: 'terminal closed or its shell exited', next: 'terminal_run opens a new one' },
  watching: { means: 'a watching test runner or build finished a cycle (see watch)', next: 'after edits nextCall returns the next' },
  not_approved: { means: 'declined or unanswered by the user: nothing ran', next: 'do not retry' },
};

/** Every status, in the guide's order. */
export const ALL_RUN_STATUSES = Object.keys(runStatusGuide) as RunStatus[];
/** What terminal_state and terminal_input report on: a run that exists (already_running starts none). */
export const REPORTED_STATUSES = ALL_RUN_STATUSES.filter((s) => s !== 'already_running');

/** One status's line in a tool description: its meaning, then the next call. */
export function describeStatus(status: RunStatus): string {
  const { means, next, nextAside } = runStatusGuide[status];
  return nextAside ? `${means} (${next})` : `${means}; ${next}`;
}

/** A "Statuses:" list for the statuses a tool can return (all unless given). */
export function describeStatuses(statuses: readonly RunStatus[] = ALL_RUN_STATUSES): string {
  return ['Statuses:', ...statuses.map((s) => `- ${s}: ${describeStatus(s)}`)].join('\n');
}
