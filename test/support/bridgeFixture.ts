/**
 * A real bridge server (the extension's own code, over a real socket) whose methods a test scripts,
 * published in a temporary workspace's .devtools/bridge.json: the VS Code side of the bridge
 * without VS Code, for exercising the MCP server and the bridge client end to end in plain Node.
 */
import { silentLogger, type Logger } from '../../common/src/logger';
import { PROTOCOL_VERSION, methods, type MethodKey, type TerminalRunResult } from '../../common/src/protocol';
import { publishBridgeFile, type BridgeFilePublisher } from '../../extension/src/bridge/bridgeFile';
import { startBridgeServer, type BridgeHandlers, type BridgeServer } from '../../extension/src/bridge/bridgeServer';
import { workspaceDirs } from './tempDirs';

export interface BridgeFixture {
  readonly workspace: string;
  readonly server: BridgeServer;
  readonly publisher: BridgeFilePublisher;
  handlers: Partial<BridgeHandlers>;
  dispose(): Promise<void>;
}

export function tempWorkspace(): string {
  return workspaceDirs.make('tshep-ws-');
}

const notScripted = (method: string) => () => {
  throw new Error(`${method} is not scripted in this test`);
};

export async function startBridgeFixture(options: { workspace?: string; logger?: Logger } = {}): Promise<BridgeFixture> {
  const workspace = options.workspace ?? tempWorkspace();
  const logger = options.logger ?? silentLogger;
  const fixture = { handlers: {} as Partial<BridgeHandlers> };
  // Every method goes to the handler the test scripted, or fails saying it was not.
  const dispatch = Object.fromEntries(
    (Object.keys(methods) as MethodKey[])
      .filter((key): key is Exclude<MethodKey, 'hello'> => key !== 'hello')
      .map((key) => [key, (params: never, context: never) => ((fixture.handlers[key] as ((p: never, c: never) => unknown) | undefined) ?? notScripted(methods[key].name))(params, context)]),
  ) as unknown as BridgeHandlers;
  const server = await startBridgeServer({
    handlers: dispatch,
    hello: () => ({ extensionVersion: '0.0.0-test', windowPid: process.pid, trusted: true, workspaceFolder: workspace }),
    logger,
    authTimeoutMs: 1000,
  });
  const publisher = await publishBridgeFile(
    workspace,
    { endpoint: server.endpoint, token: server.token, protocolVersion: PROTOCOL_VERSION, pid: process.pid, extensionVersion: '0.0.0-test' },
    logger,
  );
  return Object.assign(fixture, {
    workspace,
    server,
    publisher,
    async dispose() {
      await publisher.dispose();
      await server.dispose();
    },
  });
}

export function runResult(overrides: Partial<TerminalRunResult> = {}): TerminalRunResult {
  return { status: 'completed', output: 'hello', exitCode: 0, name: 'default', command: 'echo hello', durationMs: 12, pid: 4242, strategy: 'vscode', ...overrides };
}
