/**
 * A call's deadline: how long its MCP client lets a tool call run before it cuts it, and the
 * budget the call waits before it returns `running` instead, so the client never cuts it (a cut
 * call tells the model nothing; a `running` result tells it what ran and what to call next).
 * The MCP server says what it knows of its client (clientInfo, a documented default, the
 * client's environment); for a client it does not know, the run.clientTimeoutMs setting says.
 * An MCP task has no deadline: the client follows it to its result.
 */
import { formatDuration } from '../../../../common/src/format';
import type { CallMeta } from '../../../../common/src/protocol';

/** What the bridge request said about its client (see requestMetaSchema). */
export type { CallMeta };

export interface CallDeadline {
  /** The client's limit for the whole call (ms). */
  readonly deadlineMs: number;
  /** When the call returns `running` at the latest, on the caller's clock. */
  readonly returnBy: number;
  /** Where the limit comes from, for the log and the message. */
  readonly source: string;
  /** The client, as it names itself. */
  readonly client: string | undefined;
}

/**
 * What a call keeps back from its client's limit: the way back to the model (bridge, MCP server,
 * the client's own handling) and clock drift between the two processes. A tenth of the limit,
 * at least 1 s and at most 15 s.
 */
export function deadlineMargin(deadlineMs: number): number {
  return Math.min(15_000, Math.max(1000, Math.round(deadlineMs / 10)));
}

/** How long a call may wait before it returns `running`. */
export function deadlineBudget(deadlineMs: number): number {
  return Math.max(0, deadlineMs - deadlineMargin(deadlineMs));
}

/** The deadline of a call that arrived at `now`; undefined for an MCP task. */
export function callDeadline(meta: CallMeta | undefined, clientTimeoutMs: number, now: number): CallDeadline | undefined {
  if (meta?.task) return undefined;
  const known = meta?.clientDeadlineMs;
  const deadlineMs = known ?? clientTimeoutMs;
  return {
    deadlineMs,
    returnBy: now + deadlineBudget(deadlineMs),
    source: known !== undefined ? (meta?.deadlineSource ?? 'known client') : 'the terminalShepherd.run.clientTimeoutMs setting, for clients not known by name',
    client: meta?.client?.name,
  };
}

/** One line for the log: which path a call took and why. */
export function describeCallPath(meta: CallMeta | undefined, deadline: CallDeadline | undefined): string {
  const client = meta?.client ? `"${meta.client.name}" ${meta.client.version}` : 'an unnamed client';
  if (!deadline) return `${client} via an MCP task (no deadline: the client follows the task to its result)`;
  return `${client} via a deadline-aware wait (returns within ${formatDuration(deadlineBudget(deadline.deadlineMs))}; the client cuts calls at ${formatDuration(deadline.deadlineMs)}: ${deadline.source})`;
}
