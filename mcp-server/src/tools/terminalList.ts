import { listResultSchema } from '../../../common/src/protocol';
import { sessionFilterInput } from './support/agentSession';
import { callBridge } from './support/callBridge';
import { withReminder } from './support/ledgerReminder';
import { renderTerminalList } from './support/render';
import type { ToolRegistration } from './support/toolContext';
import { toolResult } from './support/toolResult';

export const registerTerminalList: ToolRegistration = (server, context) => {
  server.registerTool(
    'terminal_list',
    {
      title: 'Terminal List',
      description:
        'Every terminal Terminal Shepherd manages in this VS Code window: name, shell pid, busy or idle, cwd, and the current or last ' +
        'command with its status and exit code. Use it to find a free terminal or what is still busy; terminal_state reports one in ' +
        'full. session: "mine" keeps the terminals whose current or last command this agent session started (each terminal says ' +
        'which session started its command). It changes nothing.',
      inputSchema: sessionFilterInput,
      outputSchema: withReminder(listResultSchema),
      annotations: {
        // Only reads: VS Code runs it without asking.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        // The window's own terminals; nothing outside.
        openWorldHint: false,
      },
    },
    (args, extra) =>
      toolResult(context, () => callBridge(context, 'list', args.session ? { session: args.session } : {}, extra), (r) => renderTerminalList(r.terminals)),
  );
};
