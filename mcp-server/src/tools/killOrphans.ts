import { killResultSchema } from '../../../common/src/protocol';
import { renderKill } from '../render';
import { callBridge, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

export const registerKillOrphans: ToolRegistration = (server, context) => {
  server.registerTool(
    'kill_orphans',
    {
      title: 'Orphan Cleanup',
      description:
        'Kills every orphan, with its children: a process that a terminal of an earlier (closed or reloaded) VS Code window started ' +
        'and left running, each identity-checked (pid and start time) first. list_processes shows the orphans; kill_process ends one.',
      outputSchema: withReminder(killResultSchema),
      annotations: {
        // Ends processes: VS Code asks before every call (unless the user allows it for the session).
        readOnlyHint: false,
        destructiveHint: true,
        // A second call finds no orphan left and kills nothing.
        idempotentHint: true,
        // Local processes the ledger owns; its result needs no review.
        openWorldHint: false,
      },
    },
    (extra) => toolResult(context, () => callBridge(context, 'killOrphans', {}, extra), renderKill),
  );
};
