/** The states of a run and what can be read off them (its exit code, how it ended). */
import type { ExitCodeSource } from '../../../../common/src/protocol';

/**
 * Why a run ended with its terminal: VS Code closed it because its shell exited (`shell_exit`),
 * the user closed it (`user`), the window is closing or reloading (`window`), or for a reason it
 * did not say (`closed`); `shell_gone`: the OS says the shell process is gone while VS Code kept
 * the terminal and said nothing (as when a shell exits during VS Code's launch phase);
 * `unreported_exit`: VS Code reported exit code 0, which it also reports for a shell killed by a
 * signal, so the real status is unknown.
 */
export type TerminalEnd = 'shell_exit' | 'user' | 'window' | 'closed' | 'shell_gone' | 'unreported_exit';

export type RunState =
  | { readonly kind: 'running' }
  | { readonly kind: 'waiting_for_input'; readonly prompt: string }
  /** `endedEarly`: the end event came while the command still ran (see CompletionTracker (d)). */
  | { readonly kind: 'completed'; readonly exitCode: number | undefined; readonly exitCodeSource?: ExitCodeSource; readonly endedEarly?: true }
  | { readonly kind: 'terminal_closed'; readonly exitCode: number | undefined; readonly end: TerminalEnd };

/** Where the exit code of an ended run came from (the shell's word unless the command said otherwise). */
export function exitCodeSourceOf(state: RunState): ExitCodeSource | undefined {
  if (exitCodeOf(state) === undefined) return undefined;
  return (state.kind === 'completed' ? state.exitCodeSource : undefined) ?? 'shell';
}

/** The exit code of an ended run, when the shell reported one. */
export function exitCodeOf(state: RunState): number | undefined {
  return state.kind === 'completed' || state.kind === 'terminal_closed' ? state.exitCode : undefined;
}

/** How a finished run ended, for sentences such as "its last command `x` has completed with exit code 2". */
export function describeEnd(state: RunState): string {
  if (state.kind === 'completed') {
    return state.exitCode === undefined ? 'completed' : `completed with exit code ${state.exitCode}`;
  }
  return state.kind === 'terminal_closed' ? 'ended with the terminal' : state.kind.replace(/_/g, ' ');
}
