/**
 * createServer(): the MCP server with every tool registered, and its dispose. Transport-agnostic
 * (main.ts connects stdio; tests can connect an in-memory transport).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from '../../common/src/logger';
import { BridgeClient, type BridgeClientOptions, type BridgeTarget } from './bridge/bridgeClient';
import { knownDeadline } from './bridge/clientDeadlines';
import { sessionFromEnvironment } from './tools/support/agentSession';
import { RunTaskStore } from './tools/support/runTaskStore';
import type { ToolRegistration } from './tools/support/toolContext';
import { registerKillOrphans } from './tools/killOrphans';
import { registerKillProcess } from './tools/killProcess';
import { registerListProcesses } from './tools/listProcesses';
import { registerTerminalInput } from './tools/terminalInput';
import { registerTerminalList } from './tools/terminalList';
import { registerTerminalRun } from './tools/terminalRun';
import { registerTerminalState } from './tools/terminalState';
import { registerWorkspaceInfo } from './tools/workspaceInfo';

export const SERVER_NAME = 'terminal-shepherd';

const tools: readonly ToolRegistration[] = [
  registerTerminalRun,
  registerTerminalState,
  registerTerminalInput,
  registerTerminalList,
  registerListProcesses,
  registerKillProcess,
  registerKillOrphans,
  registerWorkspaceInfo,
];

export interface ServerOptions {
  readonly version: string;
  readonly logger: Logger;
  readonly target?: BridgeTarget;
  readonly workspaceFolder?: string;
  /** Where client deadlines (MCP_TOOL_TIMEOUT, ...) and the client's session id are read from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** How the window is found besides (see bridge/windowDiscovery.ts). */
  readonly discovery?: Pick<BridgeClientOptions, 'searchParents' | 'shepherdRoot' | 'ancestors'>;
}

export function createServer(options: ServerOptions): { server: McpServer; dispose: () => Promise<void> } {
  const tasks = new RunTaskStore({ logger: options.logger });
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Terminal Shepherd', version: options.version },
    {
      // tasks.requests.tools.call: a long terminal_run can run as an MCP task (tools/support/runTasks.ts).
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: tasks,
      instructions:
        'Run shell commands in real VS Code terminals with terminal_run: it returns when the command has truly finished, with its output and exit code ' +
        '(prefer it to run_in_terminal when the exit code, the whole output, answering prompts or tracking what a command started matters). ' +
        'Use waitMode "ready" for dev servers and watchers (it returns once the server answers, with its URLs; the same server is never started twice), ' +
        'terminal_state to check or wait on a running command, terminal_input to answer prompts or send Ctrl+C ("\\u0003"). ' +
        'workspace_info tells the stacks, the dev-server commands and the servers running now. ' +
        'Every process those commands start is tracked: list_processes shows them, kill_process / kill_orphans clean up.',
    },
  );
  const bridge = new BridgeClient({
    logger: options.logger,
    clientInfo: { name: SERVER_NAME, version: options.version },
    ...(options.target ? { target: options.target } : {}),
    ...(options.workspaceFolder ? { workspaceFolder: options.workspaceFolder } : {}),
    ...options.discovery,
  });
  const env = options.env ?? process.env;
  // The client that started this server set it for the server's whole life.
  const session = sessionFromEnvironment(env);
  const client = () => {
    const info = server.server.getClientVersion();
    const deadline = knownDeadline(info, env);
    return { ...(info ? { info: { name: info.name, version: info.version } } : {}), ...(deadline ? { deadline } : {}), ...(session ? { session } : {}) };
  };
  const canElicit = (): boolean => server.server.getClientCapabilities()?.elicitation !== undefined;
  const context = { bridge, logger: options.logger, canElicit, client, tasks };
  for (const register of tools) {
    register(server, context);
  }
  return {
    server,
    dispose: async () => {
      tasks.dispose();
      bridge.dispose();
      await server.close();
    },
  };
}
