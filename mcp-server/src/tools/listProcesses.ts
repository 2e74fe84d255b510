import { listProcessesResultSchema } from '../../../common/src/protocol';
import { renderProcesses } from '../render';
import { callBridge, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

export const registerListProcesses: ToolRegistration = (server, context) => {
  server.registerTool(
    'list_processes',
    {
      title: 'List processes started from terminals',
      description:
        'Every process the managed terminals spawned that is still running, as trees under their terminals (name, pid, parent, ports it listens on, ' +
        'age, command line), and the orphans an earlier VS Code window left running. Check it before starting a dev server a second time.',
      outputSchema: withReminder(listProcessesResultSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (extra) => toolResult(context, () => callBridge(context, 'listProcesses', {}, extra), renderProcesses),
  );
};
