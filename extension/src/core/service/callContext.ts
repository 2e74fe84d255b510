/**
 * One tool call's context, built once when the call arrives and taken by every stage (plan,
 * check, start, await): the window's parts the call works with, and what holds for this call
 * alone (its signal, the settings as read at its start, the workspace folder, its client's
 * deadline, who calls and who is asked, where progress goes).
 */
import type { Logger } from '../../../../common/src/logger';
import type { AgentSession } from '../../../../common/src/protocol';
import type { CheckContext, DecisionRecord } from '../checks/checkCall';
import type { ApprovalPort, CommandCheck } from '../checks/commandCheck';
import type { RunProgress } from '../run/commandRun';
import type { CallServers } from '../servers/devServers';
import type { ShepherdSettings } from '../settings';
import type { TerminalSessions } from '../terminals/terminalSessions';
import { callDeadline, type CallDeadline, type CallMeta } from './callDeadline';
import { CallTimings } from './callTimings';
import type { SecretAsker } from './secretQuestion';

/** What a caller brings to a call (the bridge: from the MCP request). */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Called about once a second while the call waits. */
  readonly onProgress?: (progress: RunProgress) => void;
  /** What the MCP server said about the client: its name, its deadline, whether the call is an MCP task. */
  readonly meta?: CallMeta;
  /** The session (an MCP client's connection) allows are kept for; one of its own when absent. */
  readonly session?: string;
  /** Asks the person for this call (the client's elicitation) instead of the window's approver, told how long an answer is waited for. */
  readonly approver?: (answerTimeoutMs: number) => ApprovalPort;
  /** Asks the person about a prompt for a secret (the client's elicitation) instead of the window's notification, told the same bound. */
  readonly secretAsker?: (answerTimeoutMs: number) => SecretAsker;
  /** The call's stage marks, when its caller started them (otherwise from the context's making). */
  readonly timings?: CallTimings;
}

/** The window's parts every call works with; the terminal service holds one. */
export interface CallParts {
  readonly sessions: TerminalSessions;
  readonly servers: CallServers;
  readonly checks: readonly CommandCheck[];
  readonly settings: () => ShepherdSettings;
  readonly workspaceFolder: () => string | undefined;
  /** Asked when the call brings no way to ask of its own; without one nothing a check asks about runs. */
  readonly approver: ApprovalPort | undefined;
  readonly answerTimeoutMs: number;
  readonly audit: ((record: DecisionRecord) => void) | undefined;
  readonly logger: Logger;
  /** The caller's clock (the deadline's). */
  readonly now: () => number;
}

export interface CallContext extends CheckContext {
  readonly sessions: TerminalSessions;
  readonly servers: CallServers;
  /** The settings as they were when the call arrived. */
  readonly settings: ShepherdSettings;
  /** Where a new terminal starts when the call gives no cwd; undefined when no folder is open. */
  readonly workspaceFolder: string | undefined;
  readonly meta: CallMeta | undefined;
  /** The client's deadline: a wait returns `running` before it. Undefined: none (an MCP task). */
  readonly deadline: CallDeadline | undefined;
  readonly onProgress: ((progress: RunProgress) => void) | undefined;
  /** Who is asked about a prompt for a secret; undefined: the window's notification. */
  readonly secretAsker: SecretAsker | undefined;
  readonly now: () => number;
  /** The call's stage marks, from its arrival (returned only when meta.timings asks). */
  readonly timings: CallTimings;
}

/** Calls that bring no session share this one. */
const DEFAULT_SESSION = 'window';

export function callContext(parts: CallParts, options: CallOptions): CallContext {
  const timings = options.timings ?? new CallTimings(parts.now);
  const settings = parts.settings();
  return {
    sessions: parts.sessions,
    servers: parts.servers,
    checks: parts.checks,
    settings,
    workspaceFolder: parts.workspaceFolder(),
    signal: options.signal,
    meta: options.meta,
    deadline: callDeadline(options.meta, settings.clientTimeoutMs, parts.now()),
    caller: { session: options.session ?? DEFAULT_SESSION },
    approver: options.approver?.(parts.answerTimeoutMs) ?? parts.approver,
    answerTimeoutMs: parts.answerTimeoutMs,
    // The decision is recorded with the agent session that asked for it.
    audit: parts.audit && withAgentSession(parts.audit, options.meta?.agentSession),
    onProgress: options.onProgress,
    secretAsker: options.secretAsker?.(parts.answerTimeoutMs),
    logger: parts.logger,
    now: parts.now,
    timings,
  };
}

function withAgentSession(audit: (record: DecisionRecord) => void, agentSession: AgentSession | undefined): (record: DecisionRecord) => void {
  return agentSession ? (record) => audit({ ...record, agentSession }) : audit;
}
