/**
 * createServer(): the MCP server with every tool registered, and its dispose. Transport-agnostic
 * (main.ts connects stdio; tests can connect an in-memory transport).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger } from '../../common/src/logger';
import type { ClientAttachParams } from '../../common/src/protocol';
import { BridgeClient, type BridgeClientOptions, type BridgeTarget } from './bridge/bridgeClient';
import { knownDeadline } from './bridge/clientDeadlines';
import { knownResultBudget } from './bridge/clientResultBudgets';
import type { ClientProcess } from './bridge/clientProcess';
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
  /**
   * The MCP client's process (a server over stdio has one): once the client initialized, the server
   * stays connected and names it to the window, which records the processes of the client's own tools.
   */
  readonly clientProcess?: () => Promise<ClientProcess | undefined>;
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
  const env = options.env ?? process.env;
  // The client that started this server set it for the server's whole life.
  const session = sessionFromEnvironment(env);
  const attach = attachParams(options.clientProcess, () => server.server.getClientVersion()?.name ?? '', session);
  const bridge = new BridgeClient({
    logger: options.logger,
    ...(attach ? { attach } : {}),
    clientInfo: { name: SERVER_NAME, version: options.version },
    ...(options.target ? { target: options.target } : {}),
    ...(options.workspaceFolder ? { workspaceFolder: options.workspaceFolder } : {}),
    ...options.discovery,
  });
  if (attach) server.server.oninitialized = () => bridge.keepConnected();
  const client = () => {
    const info = server.server.getClientVersion();
    const deadline = knownDeadline(info, env);
    const resultBudget = knownResultBudget(info, env);
    return { ...(info ? { info: { name: info.name, version: info.version } } : {}), ...(deadline ? { deadline } : {}), ...(resultBudget ? { resultBudget } : {}), ...(session ? { session } : {}) };
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

/** client/attach's params; the client process is looked up once (a client that died leaves this server to pid 1 or a subreaper). */
function attachParams(
  find: ServerOptions['clientProcess'],
  clientName: () => string,
  session: ReturnType<typeof sessionFromEnvironment>,
): (() => Promise<ClientAttachParams | undefined>) | undefined {
  if (!find) return undefined;
  let found: Promise<ClientProcess | undefined> | undefined;
  return async () => {
    const client = await (found ??= find());
    return client ? { pid: client.pid, serverPath: client.serverPath, client: clientName(), ...(session ? { session } : {}) } : undefined;
  };
}
