/**
 * The calls a message names as the next step, written once so every text quotes a terminal's
 * name the same way and offers the same call (an agent copies them verbatim).
 */

/** A terminal name as it appears in a message and in the calls it suggests. */
export function quoteName(terminal: string): string {
  return JSON.stringify(terminal);
}

/** The call that stops what runs in a terminal (Ctrl+C). */
export function stopCall(terminal: string): string {
  return `terminal_input {name: ${quoteName(terminal)}, text: "\\u0003"}`;
}

/** The call that waits on what runs in a terminal. */
export function waitCall(terminal: string): string {
  return `terminal_state {name: ${quoteName(terminal)}, wait: true}`;
}
