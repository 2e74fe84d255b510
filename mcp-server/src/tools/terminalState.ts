import { z } from 'zod';
import { terminalNameSchema, terminalRunResultSchema, timeoutMsSchema } from '../../../common/src/protocol';
import { renderRunResult } from '../render';
import { callBridge, defaultTimeoutNote, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

const inputSchema = {
  name: terminalNameSchema.describe('The managed terminal to report on (see terminal_list).'),
  wait: z
    .boolean()
    .optional()
    .describe('Block like terminal_run until the current command ends, asks for input, or the timeout passes. Default false: report at once.'),
  timeout: timeoutMsSchema.optional().describe(`Milliseconds to wait when wait is true. ${defaultTimeoutNote}`),
};

export const registerTerminalState: ToolRegistration = (server, context) => {
  server.registerTool(
    'terminal_state',
    {
      title: 'Report or wait on a terminal\'s command',
      description:
        'The status, output and exit code of the current or last command in a managed terminal, in the same shape as terminal_run. ' +
        'Use it after terminal_run returned "timeout" or "running"; with wait: true it blocks until the command ends, asks for input or times out.',
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      toolResult(context, () => callBridge(
        context,
        'state',
        { name: args.name, wait: args.wait, timeoutMs: args.timeout },
        extra,
        args.timeout,
      ), renderRunResult),
  );
};
