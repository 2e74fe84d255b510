import { stateParamsSchema } from '../../../common/src/protocol';
import { registerRunTool } from './support/runTool';
import type { ToolRegistration } from './support/toolContext';
import { defaultTimeoutNote, describeStatuses, REPORTED_STATUSES } from './support/toolGuide';

const params = stateParamsSchema.shape;

const inputSchema = {
  name: params.name.describe('The managed terminal to report on (see terminal_list).'),
  wait: params.wait.describe('Block like terminal_run until the current command ends, asks for input, is ready, a watcher completes its next cycle, or the timeout (or your client\'s time limit) passes. Default false: report at once.'),
  timeout: params.timeoutMs.describe(`Milliseconds to wait when wait is true. ${defaultTimeoutNote}`),
};

export const registerTerminalState: ToolRegistration = (server, context) =>
  registerRunTool(
    server,
    context,
    'terminal_state',
    {
      method: 'state',
      title: 'Terminal Status',
      description:
        'The current or last command of a terminal, as terminal_run reports it. After "running", "timeout" or "watching", make the ' +
        'nextCall given: wait: true blocks (within your client\'s time limit) until the command ends, asks for input, is ready, or ' +
        'a watcher finishes its next cycle. One call per wait, never a polling loop. Changes nothing.\n' +
        describeStatuses(REPORTED_STATUSES),
      inputSchema,
      annotations: {
        // Reports (and at most waits); never types or starts anything, so VS Code runs it without asking.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        // Reads the user's own terminal in the workspace; nothing outside it (see terminal_run).
        openWorldHint: false,
      },
    },
    (args) => ({ name: args.name, wait: args.wait, timeoutMs: args.timeout }),
  );
