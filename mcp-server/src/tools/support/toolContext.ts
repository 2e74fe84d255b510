/**
 * The floor of the tools' support: what a tool is handed (its context, the MCP request's extra, an
 * MCP task's call) and how a wait's progress reads. Every file of tools/ and tools/support/ may
 * import it; it imports only the bridge, the task store and the protocol.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from '../../../../common/src/logger';
import type { ProgressNotification } from '../../../../common/src/protocol';
import type { BridgeClient } from '../../bridge/bridgeClient';
import type { ClientInfo, KnownDeadline } from '../../bridge/clientDeadlines';
import type { ResultBudget } from '../../bridge/clientResultBudgets';
import type { SessionSource } from './agentSession';
import type { RunTaskStore } from './runTaskStore';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolContext {
  readonly bridge: BridgeClient;
  readonly logger: Logger;
  /** The MCP client declared elicitation: the person can be asked in its own UI. */
  readonly canElicit: () => boolean;
  /** The connected client as it named itself at initialize, its deadline and result budget when the server knows them, and the session its environment names. */
  readonly client: () => { readonly info?: ClientInfo; readonly deadline?: KnownDeadline; readonly resultBudget?: ResultBudget; readonly session?: SessionSource };
  /** Where terminal_run's MCP tasks live (the server declares tasks for tools/call). */
  readonly tasks?: RunTaskStore;
}

/** A call made for an MCP task: no deadline; its progress goes to the task's status, its end to the task. */
export interface TaskCall {
  readonly signal: AbortSignal;
  readonly onProgress: (update: Omit<ProgressNotification, 'progressId'>) => void;
}

/** One tool per file registers itself through this signature. */
export type ToolRegistration = (server: McpServer, context: ToolContext) => void;

/** "12.3s: the last line" for a progress notification or a task's status. */
export function progressMessage(update: { elapsedMs: number; lastLine?: string }): string {
  const seconds = Math.round(update.elapsedMs / 100) / 10;
  return update.lastLine ? `${seconds}s: ${update.lastLine}` : `${seconds}s, no output yet`;
}
