/**
 * Composition root: builds the parts and wires them; no logic of its own. Imports vscode only as
 * types — the vscode/ folder is the one place that touches the API at runtime.
 */
import path from 'node:path';
import type { ExtensionContext } from 'vscode';
import { DEVTOOLS_DIR, PROTOCOL_VERSION } from '../../common/src/protocol';
import { publishBridgeFile, type BridgeFilePublisher } from './bridge/bridgeFile';
import { startBridgeServer, type BridgeServer } from './bridge/bridgeServer';
import { createBridgeHandlers } from './bridge/handlers';
import { createRunOutputFactory } from './core/output/runOutputFactory';
import { createProcessMonitor } from './core/processes';
import { TerminalService } from './core/terminals/terminalService';
import { registerCommands } from './vscode/commands';
import { createLogChannel } from './vscode/logChannel';
import { registerMcpServerProvider } from './vscode/mcpServerProvider';
import { readSettings } from './vscode/settings';
import { VsCodeTerminalHost } from './vscode/terminalHost';
import { firstWorkspaceFolder, isWorkspaceTrusted } from './vscode/workspace';

/** Async teardown that context.subscriptions cannot await; deactivate() returns it. */
let shutdown: (() => Promise<void>) | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const log = createLogChannel();
  context.subscriptions.push(log);
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const workspaceFolder = firstWorkspaceFolder();
  const dataDir = workspaceFolder ? path.join(workspaceFolder, DEVTOOLS_DIR) : context.globalStorageUri.fsPath;
  log.info(`Terminal Shepherd ${version} activating (workspace ${workspaceFolder ?? 'none'}, data in ${dataDir})`);

  const monitor = createProcessMonitor(process.platform, log);
  const terminals = new TerminalService({
    host: new VsCodeTerminalHost(),
    settings: readSettings,
    createOutput: createRunOutputFactory({ logsDir: path.join(dataDir, 'logs'), limitChars: () => readSettings().outputLimitChars, logger: log }),
    probeShell: (pid) => monitor.probeShell(pid),
    workspaceFolder: () => workspaceFolder,
    logger: log,
  });
  context.subscriptions.push(terminals, { dispose: () => monitor.dispose() });

  let bridge: BridgeServer | undefined;
  let bridgeFile: BridgeFilePublisher | undefined;
  try {
    bridge = await startBridgeServer({
      handlers: createBridgeHandlers({ terminals, isTrusted: isWorkspaceTrusted }),
      hello: () => ({
        extensionVersion: version,
        windowPid: process.pid,
        trusted: isWorkspaceTrusted(),
        ...(workspaceFolder ? { workspaceFolder } : {}),
      }),
      logger: log,
    });
    if (workspaceFolder) {
      bridgeFile = await publishBridgeFile(
        workspaceFolder,
        { endpoint: bridge.endpoint, token: bridge.token, protocolVersion: PROTOCOL_VERSION, pid: process.pid, extensionVersion: version },
        log,
      );
    }
    context.subscriptions.push(
      registerMcpServerProvider({
        serverScript: context.asAbsolutePath(path.join('dist', 'mcp-server.js')),
        endpoint: bridge.endpoint,
        token: bridge.token,
        workspaceFolder,
        version,
      }),
    );
  } catch (error) {
    log.error('could not start the bridge; the MCP tools will not reach this window', error);
  }
  context.subscriptions.push(registerCommands({ showLog: () => log.show() }));

  shutdown = async () => {
    await Promise.allSettled([bridgeFile?.dispose(), bridge?.dispose()]);
  };
  log.info('Terminal Shepherd ready');
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
