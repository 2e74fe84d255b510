/**
 * What every tool shares: calling the bridge with the MCP request's cancellation and progress,
 * and turning results and failures into CallToolResults (structured content plus a text
 * rendering; expected failures as isError results that say what to do next).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from '../../common/src/logger';
import { BridgeErrorCode, limits, methods, type ApprovalAskParams, type MethodKey, type ParamsOf, type ProgressNotification, type ResultOf } from '../../common/src/protocol';
import type { z } from 'zod';
import { BridgeError, type BridgeClient } from './bridgeClient';
import type { ClientInfo, KnownDeadline } from './clientDeadlines';
import { askThroughElicitation } from './elicitation';
import type { RunTaskStore } from './runTasks';
import { ledgerReminderSchema, renderReminder, toReminder, type LedgerReminder } from './ledgerReminder';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolContext {
  readonly bridge: BridgeClient;
  readonly logger: Logger;
  /** The MCP client declared elicitation: the person can be asked in its own UI. */
  readonly canElicit: () => boolean;
  /** The connected client as it named itself at initialize, and its deadline when the server knows it. */
  readonly client: () => { readonly info?: ClientInfo; readonly deadline?: KnownDeadline };
  /** Where terminal_run's MCP tasks live (the server declares tasks for tools/call). */
  readonly tasks?: RunTaskStore;
}

/** A call made for an MCP task: no deadline; its progress goes to the task's status, its end to the task. */
export interface TaskCall {
  readonly signal: AbortSignal;
  readonly onProgress: (update: Omit<ProgressNotification, 'progressId'>) => void;
}

/** How the tools that wait describe their default wait (the number comes from the settings table). */
export const defaultTimeoutNote = `Default: the terminalShepherd.run.defaultTimeoutMs setting (${limits.defaultTimeoutMs} unless the user changed it)`;

/** One tool per file registers itself through this signature. */
export type ToolRegistration = (server: McpServer, context: ToolContext) => void;

/**
 * Calls the bridge for a tool with what the window needs to know of the client (its name and
 * deadline, or that the call is an MCP task), relaying progress notifications when the client
 * asked for them.
 */
export async function callBridge<K extends Exclude<MethodKey, 'hello'>>(
  context: ToolContext,
  key: K,
  params: ParamsOf<K>,
  extra: ToolExtra,
  progressTotalMs?: number,
  task?: TaskCall,
): Promise<ResultOf<K>> {
  const progressToken = extra._meta?.progressToken;
  const { info, deadline } = context.client();
  context.logger.debug(`${methods[key].name}${task ? ' (an MCP task)' : progressToken === undefined ? '' : ' (the client asked for progress)'}`);
  const onProgress =
    task?.onProgress ??
    (progressToken === undefined
      ? undefined
      : (update: { elapsedMs: number; outputChars: number; lastLine?: string }): void => {
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: update.elapsedMs, ...(progressTotalMs ? { total: progressTotalMs } : {}), message: progressMessage(update) },
            })
            .catch((error: unknown) => context.logger.debug('progress notification failed', error));
        });
  const meta = { ...(info ? { client: { name: info.name.slice(0, 200), version: info.version.slice(0, 100) } } : {}), ...(task ? { task: true } : deadline) };
  const onApprovalAsk = context.canElicit() ? (question: ApprovalAskParams, signal: AbortSignal) => askThroughElicitation(extra, question, signal) : undefined;
  return context.bridge.request(key, params, { signal: task?.signal ?? extra.signal, meta, ...(onProgress ? { onProgress } : {}), ...(onApprovalAsk ? { onApprovalAsk } : {}) });
}

/** "12.3s: the last line" for a progress notification or a task's status. */
export function progressMessage(update: { elapsedMs: number; lastLine?: string }): string {
  const seconds = Math.round(update.elapsedMs / 100) / 10;
  return update.lastLine ? `${seconds}s: ${update.lastLine}` : `${seconds}s, no output yet`;
}

/** Adds the ledger reminder to a tool's output schema (every response carries it). */
export function withReminder<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  return schema.extend({ ledger: ledgerReminderSchema.optional() });
}

/** The ledger as it stands, or undefined when the window cannot be asked (never fails a tool). */
async function currentReminder(context: ToolContext): Promise<LedgerReminder | undefined> {
  try {
    return toReminder(await context.bridge.request('ledgerSummary', {}));
  } catch (error) {
    context.logger.debug('no ledger summary for this response', error);
    return undefined;
  }
}

function withReminderText(text: string, reminder: LedgerReminder | undefined): string {
  const rendered = reminder ? renderReminder(reminder) : '';
  return rendered ? `${text}\n\n${rendered}` : text;
}

/**
 * Runs a tool's work: its result as structured content plus text, or its failure as isError;
 * either way followed by the ledger reminder, so the agent sees what it left running.
 */
export async function toolResult<T extends Record<string, unknown>>(
  context: ToolContext,
  work: () => Promise<T>,
  render: (result: T) => string,
): Promise<CallToolResult> {
  try {
    const result = await work();
    const reminder = await currentReminder(context);
    return {
      content: [{ type: 'text', text: withReminderText(render(result), reminder) }],
      structuredContent: reminder ? { ...result, ledger: reminder } : result,
    };
  } catch (error) {
    const message = failureMessage(error, context);
    // Without a window there is no ledger to ask.
    const reachable = !(error instanceof BridgeError && (error.code === BridgeErrorCode.Unreachable || error.code === BridgeErrorCode.ConnectionLost));
    const reminder = reachable ? await currentReminder(context) : undefined;
    return { isError: true, content: [{ type: 'text', text: withReminderText(message, reminder) }] };
  }
}

/** Expected failures say what happened and what to do; anything else is logged and reported plainly. */
function failureMessage(error: unknown, context: ToolContext): string {
  if (error instanceof BridgeError) {
    return `${error.codeName}: ${error.message}`;
  }
  context.logger.error('tool failed unexpectedly', error);
  return `Internal error in the Terminal Shepherd MCP server: ${error instanceof Error ? error.message : String(error)}`;
}
