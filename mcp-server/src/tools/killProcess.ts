import { killProcessParamsSchema, killResultSchema } from '../../../common/src/protocol';
import { KILL_ANNOTATIONS } from './support/annotations';
import { callBridge } from './support/callBridge';
import { withReminder } from './support/ledgerReminder';
import { renderKill } from './support/render';
import type { ToolRegistration } from './support/toolContext';
import { toolResult } from './support/toolResult';

const inputSchema = {
  pid: killProcessParamsSchema.shape.pid.describe('A pid from list_processes (running or orphaned). Its whole tree is killed: SIGTERM, then SIGKILL after a short grace.'),
};

export const registerKillProcess: ToolRegistration = (server, context) => {
  server.registerTool(
    'kill_process',
    {
      title: 'Process Tree Kill',
      description:
        'Kills a process that a managed terminal started (or an orphan of an earlier window) with all its children: SIGTERM, then ' +
        'SIGKILL after a short grace, after checking it is still the same process (pid and start time). Any other pid is refused: ' +
        'Terminal Shepherd never kills what it did not start. Take the pid from list_processes. To stop the command running in a ' +
        'terminal, terminal_input "\\u0003" is gentler.',
      inputSchema,
      outputSchema: withReminder(killResultSchema),
      annotations: KILL_ANNOTATIONS,
    },
    (args, extra) => toolResult(context, () => callBridge(context, 'killProcess', { pid: args.pid }, extra), renderKill),
  );
};
