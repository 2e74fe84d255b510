import { workspaceInfoResultSchema } from '../../../common/src/protocol';
import { callBridge } from './support/callBridge';
import { withReminder } from './support/ledgerReminder';
import { renderWorkspaceInfo } from './support/render';
import type { ToolRegistration } from './support/toolContext';
import { toolResult } from './support/toolResult';

export const registerWorkspaceInfo: ToolRegistration = (server, context) => {
  server.registerTool(
    'workspace_info',
    {
      title: 'Workspace stacks and running dev servers',
      description:
        'What the workspace is built with and what runs now: the stacks detected from its files (package.json with its package manager, deno.json, ' +
        'Cargo.toml, pyproject.toml / requirements.txt / manage.py, go.mod, tsconfig.json, Gemfile, compose files), every project folder (monorepo packages too) ' +
        'with the dev-server commands it defines (e.g. "npm run dev" and where to run it), and the dev servers running now (terminal, pid, command, ports, URLs, ' +
        'uptime, whether they answer). Call it before starting a dev server: reuse one that runs.',
      outputSchema: withReminder(workspaceInfoResultSchema),
      annotations: {
        // Reads the workspace's files and the ledger: VS Code runs it without asking.
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        // The workspace and local processes; nothing outside the machine.
        openWorldHint: false,
      },
    },
    (extra) => toolResult(context, () => callBridge(context, 'workspaceInfo', {}, extra), renderWorkspaceInfo),
  );
};
