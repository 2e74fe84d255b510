/**
 * What every tool shares: calling the bridge with the MCP request's cancellation and progress,
 * and turning results and failures into CallToolResults (structured content plus a text
 * rendering; expected failures as isError results that say what to do next).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from '../../common/src/logger';
import { type MethodKey, type ParamsOf, type ResultOf } from '../../common/src/protocol';
import { BridgeError, type BridgeClient } from './bridgeClient';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolContext {
  readonly bridge: BridgeClient;
  readonly logger: Logger;
}

/** One tool per file registers itself through this signature. */
export type ToolRegistration = (server: McpServer, context: ToolContext) => void;

/** Calls the bridge for a tool, relaying progress notifications when the client asked for them. */
export async function callBridge<K extends Exclude<MethodKey, 'hello'>>(
  context: ToolContext,
  key: K,
  params: ParamsOf<K>,
  extra: ToolExtra,
  progressTotalMs?: number,
): Promise<ResultOf<K>> {
  const progressToken = extra._meta?.progressToken;
  const onProgress =
    progressToken === undefined
      ? undefined
      : (update: { elapsedMs: number; outputChars: number; lastLine?: string }): void => {
          const seconds = Math.round(update.elapsedMs / 100) / 10;
          const message = update.lastLine ? `${seconds}s: ${update.lastLine}` : `${seconds}s, no output yet`;
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: update.elapsedMs, ...(progressTotalMs ? { total: progressTotalMs } : {}), message },
            })
            .catch((error: unknown) => context.logger.debug('progress notification failed', error));
        };
  return context.bridge.request(key, params, { signal: extra.signal, ...(onProgress ? { onProgress } : {}) });
}

/** Runs a tool's work: its result as structured content plus text, or its failure as isError. */
export async function toolResult<T extends Record<string, unknown>>(
  context: ToolContext,
  work: () => Promise<T>,
  render: (result: T) => string,
): Promise<CallToolResult> {
  try {
    const result = await work();
    return { content: [{ type: 'text', text: render(result) }], structuredContent: result };
  } catch (error) {
    return failure(error, context);
  }
}

/** Expected failures become isError results; anything else is logged and reported plainly. */
function failure(error: unknown, context: ToolContext): CallToolResult {
  if (error instanceof BridgeError) {
    return { isError: true, content: [{ type: 'text', text: `${error.codeName}: ${error.message}` }] };
  }
  context.logger.error('tool failed unexpectedly', error);
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: `Internal error in the Terminal Shepherd MCP server: ${message}` }] };
}
