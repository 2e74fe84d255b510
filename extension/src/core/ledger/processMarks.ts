/**
 * The mark every managed terminal's environment carries, and so every process started there
 * inherits: the ledger session (window) that opened the terminal, and the terminal's name. After
 * a crash, a starting window finds the processes of gone sessions by it (orphanMarks.ts), also
 * those no poll ever saw. A process that clears its environment drops the mark.
 */
export const MARK_SESSION = 'TERMINAL_SHEPHERD_SESSION';
export const MARK_TERMINAL = 'TERMINAL_SHEPHERD_TERMINAL';
export const MARK_NAMES: readonly string[] = [MARK_SESSION, MARK_TERMINAL];

/** The variables for a terminal opened by ledger session `sessionId`. */
export function processMarkEnv(sessionId: string, terminalName: string): Record<string, string> {
  return { [MARK_SESSION]: sessionId, [MARK_TERMINAL]: terminalName };
}
