import { listResultSchema } from '../../../common/src/protocol';
import { renderTerminalList } from '../render';
import { callBridge, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

export const registerTerminalList: ToolRegistration = (server, context) => {
  server.registerTool(
    'terminal_list',
    {
      title: 'List managed terminals',
      description: 'Every terminal Terminal Shepherd manages in the VS Code window: name, shell pid, busy or idle, cwd, and the current or last command with its status.',
      outputSchema: withReminder(listResultSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (extra) =>
      toolResult(context, () => callBridge(context, 'list', {}, extra), (r) => renderTerminalList(r.terminals)),
  );
};
