import { inputParamsSchema } from '../../../common/src/protocol';
import { registerRunTool } from './support/runTool';
import type { ToolRegistration } from './support/toolContext';
import { defaultTimeoutNote, describeStatuses, REPORTED_STATUSES } from './support/toolGuide';

const params = inputParamsSchema.shape;

const inputSchema = {
  name: params.name.describe('The managed terminal whose running command should receive the text.'),
  text: params.text.describe(
    'What to type: an answer to the prompt (for example "y" or a name), or a key such as "\\u0003" (Ctrl+C) or "\\u0004" (Ctrl+D). Keys are sent without Enter.',
  ),
  enter: params.enter.describe('Press Enter after the text. Default true (ignored for control keys).'),
  timeout: params.timeoutMs.describe(`Milliseconds to wait afterwards, as in terminal_run. ${defaultTimeoutNote}`),
};

export const registerTerminalInput: ToolRegistration = (server, context) =>
  registerRunTool(
    server,
    context,
    'terminal_input',
    {
      method: 'input',
      title: 'Terminal Input',
      description:
        'Types into the command running in a managed terminal: the answer to a waiting_for_input prompt (Enter is pressed after it), ' +
        'or a key such as "\\u0003" (Ctrl+C, to stop it) or "\\u0004" (Ctrl+D). Then waits like terminal_run and returns the same result. ' +
        'A secret prompt (sensitive: true) is refused: the user types it in the terminal; only keys such as Ctrl+C go.\n' +
        describeStatuses(REPORTED_STATUSES),
      inputSchema,
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
    (args) => ({ name: args.name, text: args.text, enter: args.enter, timeoutMs: args.timeout }),
  );
