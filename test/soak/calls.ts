/** Tool calls as the suite makes them: every call is answered, or the way it was not is named. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolText } from '../support/mcpClient';

export type Outcome =
  /** A result (structured content checked by the SDK client against the tool's output schema). */
  | { readonly kind: 'result'; readonly result: CallToolResult; readonly ms: number }
  /** An isError result: a refusal or a failure, its text for the agent. */
  | { readonly kind: 'toolError'; readonly text: string; readonly ms: number }
  /** The MCP request itself was refused (invalid request, unknown method...). */
  | { readonly kind: 'protocolError'; readonly text: string; readonly ms: number }
  /** No answer within the bound. */
  | { readonly kind: 'hang'; readonly ms: number }
  /** The connection to the server broke. */
  | { readonly kind: 'crash'; readonly text: string; readonly ms: number };

/** tools/call with a bound; never throws. */
export async function callTool(client: Client, tool: string, args: unknown, timeoutMs: number): Promise<Outcome> {
  const t0 = performance.now();
  const ms = (): number => performance.now() - t0;
  try {
    const result = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> }, CallToolResultSchema, { timeout: timeoutMs })) as CallToolResult;
    return result.isError ? { kind: 'toolError', text: toolText(result), ms: ms() } : { kind: 'result', result, ms: ms() };
  } catch (error) {
    if (error instanceof McpError && error.code === -32001) return { kind: 'hang', ms: ms() }; // the SDK's RequestTimeout
    const text = error instanceof Error ? error.message : String(error);
    if (error instanceof McpError && error.code !== -32000) return { kind: 'protocolError', text, ms: ms() };
    return { kind: 'crash', text, ms: ms() };
  }
}

/**
 * An error an agent can act on: our named codes (`TerminalBusy: ...`, with a next step), or the
 * MCP SDK's own refusals, which name what is wrong: arguments that do not fit the tool's input
 * schema, a tool it does not have (it calls `__proto__` "disabled": it looks names up on a plain
 * object), a request whose `arguments` is not an object (a list of zod issues with their path).
 */
export function isClearError(text: string): boolean {
  return (
    /^[A-Z][A-Za-z]+: \S/.test(text) ||
    /^MCP error -32602: (Input validation error: Invalid arguments for tool \S+: |Tool .* (not found|disabled))/s.test(text) ||
    /^MCP error -32603: \[\s*\{.*"path": \[\s*"params",\s*"arguments"\s*\].*"message"/s.test(text)
  );
}
