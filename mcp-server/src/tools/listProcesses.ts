import { listProcessesResultSchema } from '../../../common/src/protocol';
import { sessionFilterInput } from './support/agentSession';
import { callBridge } from './support/callBridge';
import { withReminder } from './support/ledgerReminder';
import { renderProcesses } from './support/render';
import type { ToolRegistration } from './support/toolContext';
import { toolResult } from './support/toolResult';

export const registerListProcesses: ToolRegistration = (server, context) => {
  server.registerTool(
    'list_processes',
    {
      title: 'Process List',
      description:
        'Every process that commands in managed terminals started and that still runs, as trees under their terminals (pid, name, ' +
        'command line, ports it listens on, age), and the orphans an earlier VS Code window left running. Check it before starting a ' +
        'dev server, so none is started twice; kill_process or kill_orphans end what is no longer needed. session: "mine" keeps the ' +
        'trees that commands of this agent session started (each process says which session started it). It changes nothing.',
      inputSchema: sessionFilterInput,
      outputSchema: withReminder(listProcessesResultSchema),
      annotations: {
        // Only reads the ledger and the OS: VS Code runs it without asking.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        // Local processes the ledger owns; nothing outside the machine.
        openWorldHint: false,
      },
    },
    (args, extra) => toolResult(context, () => callBridge(context, 'listProcesses', args.session ? { session: args.session } : {}, extra), renderProcesses),
  );
};
