import { z } from 'zod';
import { killResultSchema } from '../../../common/src/protocol';
import { renderKill } from '../render';
import { callBridge, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

const inputSchema = {
  pid: z.number().int().positive().describe('A pid from list_processes (running or orphaned). Its whole tree is killed: SIGTERM, then SIGKILL after a short grace.'),
};

export const registerKillProcess: ToolRegistration = (server, context) => {
  server.registerTool(
    'kill_process',
    {
      title: 'Kill a process tree the ledger owns',
      description:
        'Kills a process that a managed terminal started (or an orphan of an earlier window) together with its children, after checking it is still ' +
        'the same process (pid and start time). Any other pid is refused: Terminal Shepherd never kills what it did not start.',
      inputSchema,
      outputSchema: withReminder(killResultSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) => toolResult(context, () => callBridge(context, 'killProcess', { pid: args.pid }, extra), renderKill),
  );
};
