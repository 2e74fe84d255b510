/**
 * registerRunTool(): the three tools that report a run (terminal_run, terminal_state,
 * terminal_input). Each calls one bridge method that returns the TerminalRunResult, renders it
 * the same way, and gives its own timeout as the progress total; a tool file says only its name,
 * its model-facing text, its input fields and how they map to the method's params.
 */
import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { terminalRunResultSchema, type ParamsOf } from '../../common/src/protocol';
import { renderRunResult } from './render';
import { callBridge, toolResult, withReminder, type ToolContext, type ToolExtra } from './toolSupport';

/** The bridge methods that answer with a TerminalRunResult. */
type RunMethod = 'run' | 'state' | 'input';

export interface RunToolConfig<K extends RunMethod, Shape extends z.ZodRawShape> {
  /** The bridge method the tool calls. */
  readonly method: K;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  readonly annotations: ToolAnnotations;
}

export function registerRunTool<K extends RunMethod, Shape extends z.ZodRawShape>(
  server: McpServer,
  context: ToolContext,
  name: string,
  { method, ...config }: RunToolConfig<K, Shape>,
  // Absent fields stay undefined: JSON leaves them out and the extension applies its settings.
  toParams: (args: z.infer<z.ZodObject<Shape>>) => ParamsOf<K>,
): void {
  const handler = (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra): Promise<CallToolResult> => {
    const params = toParams(args);
    return toolResult(context, () => callBridge(context, method, params, extra, params.timeoutMs), renderRunResult);
  };
  // The SDK types the callback by a conditional over the input shape, which TypeScript leaves
  // unresolved for a generic shape; the SDK has parsed args with inputSchema before it calls.
  server.registerTool(name, { ...config, outputSchema: withReminder(terminalRunResultSchema) }, handler as ToolCallback<Shape>);
}
