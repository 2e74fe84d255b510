/**
 * registerRunTool(): the three tools that report a run (terminal_run, terminal_state,
 * terminal_input). Each calls one bridge method that returns the TerminalRunResult, renders it
 * the same way, and gives its own timeout as the progress total; a tool file says only its name,
 * its model-facing text, its input fields and how they map to the method's params. A tool that
 * takes a task store also runs as an MCP task for clients that ask for one (runTasks.ts).
 */
import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { limits, terminalRunResultSchema, type ParamsOf } from '../../../../common/src/protocol';
import { callBridge } from './callBridge';
import { withReminder } from './ledgerReminder';
import { renderRunResult } from './render';
import { fitRunResult } from './resultBudget';
import type { RunTaskStore } from './runTaskStore';
import { runTaskHandler } from './runTasks';
import type { TaskCall, ToolContext, ToolExtra } from './toolContext';
import { toolResult } from './toolResult';

/** The bridge methods that answer with a TerminalRunResult. */
type RunMethod = 'run' | 'state' | 'input';

export interface RunToolConfig<K extends RunMethod, Shape extends z.ZodRawShape> {
  /** The bridge method the tool calls. */
  readonly method: K;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  readonly annotations: ToolAnnotations;
  /** Run as an MCP task for a client that asks for one (execution.taskSupport "optional"). */
  readonly tasks?: RunTaskStore;
}

/** How long a followed task lives at most: its longest wait, plus the time its result is kept (a person may approve first). */
const TASK_TTL_EXTRA_MS = 10 * 60_000;

export function registerRunTool<K extends RunMethod, Shape extends z.ZodRawShape>(
  server: McpServer,
  context: ToolContext,
  name: string,
  { method, tasks, ...config }: RunToolConfig<K, Shape>,
  // Absent fields stay undefined: JSON leaves them out and the extension applies its settings.
  toParams: (args: z.infer<z.ZodObject<Shape>>) => ParamsOf<K>,
): void {
  const work = (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra, task?: TaskCall): Promise<CallToolResult> => {
    const params = toParams(args);
    return toolResult(context, () => callBridge(context, method, params, extra, params.timeoutMs, task), renderRunResult, fitRunResult);
  };
  const definition = { ...config, outputSchema: withReminder(terminalRunResultSchema) };
  if (tasks) {
    const ttl = (args: z.infer<z.ZodObject<Shape>>): number => (toParams(args).timeoutMs ?? limits.maxTimeoutMs) + TASK_TTL_EXTRA_MS;
    server.experimental.tasks.registerToolTask(name, { ...definition, execution: { taskSupport: 'optional' } }, runTaskHandler<Shape, z.infer<z.ZodObject<Shape>>>(tasks, name, context.logger, ttl, work));
    return;
  }
  // The SDK types the callback by a conditional over the input shape, which TypeScript leaves
  // unresolved for a generic shape; the SDK has parsed args with inputSchema before it calls.
  server.registerTool(name, definition, ((args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra) => work(args, extra)) as ToolCallback<Shape>);
}
