import { z } from 'zod';
import { limits, terminalNameSchema, terminalRunResultSchema, timeoutMsSchema } from '../../../common/src/protocol';
import { renderRunResult } from '../render';
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
      title: 'Type into a running command',
      description:
        'Sends text to the command running in a managed terminal (the answer to a prompt that terminal_run reported as "waiting_for_input", ' +
        'or "\\u0003" for Ctrl+C), then waits like terminal_run and returns the same result shape.',
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
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
