import { z } from 'zod';
import { terminalNameSchema, terminalRunResultSchema, timeoutMsSchema } from '../../../common/src/protocol';
import { renderRunResult } from '../render';
import { describeStatuses, REPORTED_STATUSES } from '../toolGuide';
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
      title: 'Terminal Status',
      description:
        'The current or last command of a managed terminal, reported as terminal_run reports it. Call it after terminal_run returned ' +
        'timeout or running; wait: true blocks until the command ends, asks for input or the timeout passes. It changes nothing in the ' +
        'terminal.\n' +
        describeStatuses(REPORTED_STATUSES),
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: {
        // Reports (and at most waits); never types or starts anything, so VS Code runs it without asking.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        // Reads the user's own terminal in the workspace; nothing outside it (see terminal_run).
        openWorldHint: false,
      },
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
