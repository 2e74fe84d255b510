import { z } from 'zod';
import { limits, terminalNameSchema, terminalRunResultSchema, timeoutMsSchema } from '../../../common/src/protocol';
import { renderRunResult } from '../render';
import { describeStatuses, REPORTED_STATUSES } from '../toolGuide';
import { callBridge, defaultTimeoutNote, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

const inputSchema = {
  name: terminalNameSchema.describe('The managed terminal whose running command should receive the text.'),
  text: z
    .string()
    .max(limits.inputChars)
    .describe('What to type: an answer to the prompt (for example "y" or a name), or a key such as "\\u0003" (Ctrl+C) or "\\u0004" (Ctrl+D). Keys are sent without Enter.'),
  enter: z.boolean().optional().describe('Press Enter after the text. Default true (ignored for control keys).'),
  timeout: timeoutMsSchema.optional().describe(`Milliseconds to wait afterwards, as in terminal_run. ${defaultTimeoutNote}`),
};

export const registerTerminalInput: ToolRegistration = (server, context) => {
  server.registerTool(
    'terminal_input',
    {
      title: 'Terminal Input',
      description:
        'Types into the command running in a managed terminal: the answer to a waiting_for_input prompt (Enter is pressed after it), ' +
        'or a key such as "\\u0003" (Ctrl+C, to stop it) or "\\u0004" (Ctrl+D). Then waits like terminal_run and returns the same result.\n' +
        describeStatuses(REPORTED_STATUSES),
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: {
        // Types into a running program: VS Code asks first, as for terminal_run.
        readOnlyHint: false,
        // An answer can confirm a deletion ("y"); Ctrl+C stops work.
        destructiveHint: true,
        idempotentHint: false,
        // As terminal_run: the user's own terminal, whose output the user watches; no review of every result.
        openWorldHint: false,
      },
    },
    (args, extra) =>
      toolResult(context, () => callBridge(
        context,
        'input',
        { name: args.name, text: args.text, enter: args.enter, timeoutMs: args.timeout },
        extra,
        args.timeout,
      ), renderRunResult),
  );
};
