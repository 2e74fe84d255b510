import { killResultSchema } from '../../../common/src/protocol';
import { renderKill } from '../render';
import { callBridge, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

export const registerKillOrphans: ToolRegistration = (server, context) => {
  server.registerTool(
    'kill_orphans',
    {
      title: 'Kill processes earlier windows left running',
      description:
        'Kills every orphan: a process that a terminal of an earlier (closed or reloaded) VS Code window started and left running, identity-checked, ' +
        'with its children. list_processes shows them first.',
      outputSchema: withReminder(killResultSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (extra) => toolResult(context, () => callBridge(context, 'killOrphans', {}, extra), renderKill),
  );
};
