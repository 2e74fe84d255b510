import { killResultSchema } from '../../../common/src/protocol';
import { KILL_ANNOTATIONS } from './support/annotations';
import { callBridge } from './support/callBridge';
import { withReminder } from './support/ledgerReminder';
import { renderKill } from './support/render';
import type { ToolRegistration } from './support/toolContext';
import { toolResult } from './support/toolResult';

export const registerKillOrphans: ToolRegistration = (server, context) => {
  server.registerTool(
    'kill_orphans',
    {
      title: 'Orphan Cleanup',
      description:
        'Kills every orphan, with its children: a process that a terminal of an earlier (closed or reloaded) VS Code window started ' +
        'and left running, each identity-checked (pid and start time) first. list_processes shows the orphans; kill_process ends one.',
      outputSchema: withReminder(killResultSchema),
      annotations: KILL_ANNOTATIONS,
    },
    (extra) => toolResult(context, () => callBridge(context, 'killOrphans', {}, extra), renderKill),
  );
};
