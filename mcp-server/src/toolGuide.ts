/**
 * What a model reads about runs, shared by every tool that returns one (terminal_run,
 * terminal_state, terminal_input): each status, what it means and the call to make next. A status
 * added to the protocol must be described here (the Record makes the compiler ask), and every such
 * tool then describes it.
 */
import type { RunStatus } from '../../common/src/protocol';

/** Most characters in a tool's description: a model reads every description on every request. A test holds each tool to it. */
export const MAX_DESCRIPTION_CHARS = 1000;

/** Per status: its meaning and the next call, one short line each in a tool description. */
export const runStatusGuide: Readonly<Record<RunStatus, string>> = {
  completed: 'done; see exitCode',
  waiting_for_input: 'asks for input (see prompt); answer with terminal_input',
  timeout: 'still running past your timeout; make nextCall',
  running: 'still running (your client\'s limit came first, background, or ready: see ready.urls); make nextCall',
  already_running: 'the same command runs already: nothing started (restart: true replaces it)',
  cancelled: 'call cancelled; the command keeps running',
  terminal_closed: 'terminal closed or its shell exited; terminal_run opens a new one',
  watching: 'a watching test runner or build finished a cycle (see watch); after edits nextCall returns the next',
  not_approved: 'declined or unanswered by the user: nothing ran; do not retry',
};

/** Every status, in the guide's order. */
export const ALL_RUN_STATUSES = Object.keys(runStatusGuide) as RunStatus[];
/** What terminal_state and terminal_input report on: a run that exists (already_running starts none). */
export const REPORTED_STATUSES = ALL_RUN_STATUSES.filter((s) => s !== 'already_running');

/** A "Statuses:" list for the statuses a tool can return (all unless given). */
export function describeStatuses(statuses: readonly RunStatus[] = ALL_RUN_STATUSES): string {
  return ['Statuses:', ...statuses.map((s) => `- ${s}: ${runStatusGuide[s]}`)].join('\n');
}
