/** Annotations that more than one tool declares: VS Code decides from them whether to ask before a call and review its result. */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** kill_process and kill_orphans: they end local processes the ledger owns. */
export const KILL_ANNOTATIONS: ToolAnnotations = {
  // Ends processes: VS Code asks before every call (unless the user allows it for the session).
  readOnlyHint: false,
  destructiveHint: true,
  // A second call finds nothing more to kill: what is already gone changes nothing.
  idempotentHint: true,
  // Local processes the ledger owns; its result (what was killed) needs no review.
  openWorldHint: false,
};
