/**
 * Composition root: builds the parts and wires them; no logic of its own. Imports vscode only as
 * types — the vscode/ folder is the one place that touches the API at runtime.
 */
import os from 'node:os';
import path from 'node:path';
import type { ExtensionContext } from 'vscode';
import { DEVTOOLS_DIR } from '../../common/src/bridgeDiscovery';
import { filterLogger } from '../../common/src/logger';
import { PROTOCOL_VERSION, limits } from '../../common/src/protocol';
import { publishBridgeFile, type BridgeFilePublisher } from './bridge/bridgeFile';
import { startBridgeServer, type BridgeServer } from './bridge/bridgeServer';
import { createBridgeHandlers } from './bridge/handlers';
import { SessionApprovalStore } from './core/checks/commandSafety/approvalChoices';
import { WorkerParser } from './core/checks/commandSafety/lineParser';
import { grammarPathsIn } from './core/checks/commandSafety/shellGrammars';
import { commandSafetyCheck } from './core/checks/commandSafetyCheck';
import { DataDirAlarm, describeDataDirFailure } from './core/dataDirAlarm';
import { setListenerErrorHandler } from './core/events';
import { createProcessLedger, defaultLedgerSettings } from './core/ledger';
import { limitsFromSettings } from './core/processes/processLimits';
import { createRunOutputFactory } from './core/output/runOutputFactory';
import { ClientProcesses, orphansToAnnounce } from './core/service/clientProcesses';
import { redactingLogger } from './core/secrets/redactingLogger';
import { TerminalSecrets } from './core/secrets/terminalSecrets';
import { createProcessMonitor } from './core/processes';
import { DevServers } from './core/servers/devServers';
import { WorkspaceStacks } from './core/stacks/workspaceStacks';
import { integrationFilesProvider } from './core/terminals/integration/integrationFiles';
import { TerminalService } from './core/service/terminalService';
import { attachToTerminalService } from './core/service/terminalServiceAdapter';
import { publishToUserHome } from './clients/userHome';
import { shepherdHome } from '../../common/src/shepherdHome';
import { connectInProcess, OVERRIDE_ENV } from '../../mcp-server/src/inProcess';
import { registerConnectClient } from './vscode/connectClient';
import { registerRunCommand } from './vscode/runCommand';
import { modalApprover } from './vscode/commandApproval';
import { offerAgentHostSetup } from './vscode/agentHostFirstRun';
import { offerCopilotSetup } from './vscode/copilotFirstRun';
import { createLogChannel } from './vscode/logChannel';
import { configuredTerminalEnv } from './vscode/terminalEnv';
import { ownMcpClientName, registerMcpServerProvider } from './vscode/mcpServerProvider';
import { ConfigurationCache, readLogLevel, readSettings } from './vscode/settings';
import { windowSandbox } from './vscode/sandboxSettings';
import { watchStacks, workspaceFolderPaths } from './vscode/stackWatcher';
import { cachedSafetySettings, keepAutoApproveRules, localUserSettingsFile } from './vscode/terminalRules';
import { VsCodeTerminalHost } from './vscode/terminalHost';
import { announceOrphans, registerProcessUi } from './vscode/ui';
import { RUN_COMMAND_CLIENT } from './vscode/ui/ids';
import { showFailure, showPartialFailure } from './vscode/ui/userFeedback';
import { firstWorkspaceFolder, isWorkspaceTrusted } from './vscode/workspace';

/** Async teardown that context.subscriptions cannot await; deactivate() returns it. */
let shutdown: (() => Promise<void>) | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const channel = createLogChannel();
  // First, so that every other listener to a configuration change reads the new values.
  const cache = new ConfigurationCache();
  const settings = cache.of(readSettings);
  context.subscriptions.push(channel, cache);
  // Secrets never reach the log (nor, below, the run logs and the process log): see docs/secrets.md.
  // A command line logged may carry any terminal's own secret (terminal.integrated.env.*, the shell's rc).
  const terminalSecrets = new TerminalSecrets({ configuredEnv: cache.of(configuredTerminalEnv) });
  const redactor = () => terminalSecrets.anyTerminal(settings());
  // Lines below the log level are dropped before they are redacted: a run logs debug lines no one keeps.
  const log = filterLogger(redactingLogger(channel, redactor), cache.of(readLogLevel));
  context.subscriptions.push(setListenerErrorHandler((error, where) => log.error(`${where} failed`, error)));
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const workspaceFolder = firstWorkspaceFolder();
  const dataDir = workspaceFolder ? path.join(workspaceFolder, DEVTOOLS_DIR) : context.globalStorageUri.fsPath;
  log.info(`Terminal Shepherd ${version} activating (workspace ${workspaceFolder ?? 'none'}, data in ${dataDir})`);

  const showLog = { ...log, show: () => channel.show() };
  // A read-only or full data folder: every failure is logged, the user is told at the first.
  const dataDirAlarm = new DataDirAlarm((failure) => void showPartialFailure({ logger: showLog }, describeDataDirFailure(failure)));
  const monitor = createProcessMonitor(process.platform, log);
  const host = new VsCodeTerminalHost();
  const ledger = createProcessLedger({
    dataDir,
    monitor,
    settings: () => ({ ...defaultLedgerSettings, pollIntervalMs: settings().pollIntervalMs, limits: limitsFromSettings(settings()) }),
    logger: log,
    onWriteFailure: (file, error) => dataDirAlarm.report('ledger', file, error),
    redact: () => (text) => redactor().redact(text).text,
  });
  const servers = new DevServers({ ledger, monitor, logger: log });
  const clientProcesses = new ClientProcesses({ ledger, monitor, enabled: () => settings().trackClientProcesses, logger: log, ownPid: process.pid });
  const stacks = new WorkspaceStacks({ roots: workspaceFolderPaths, logger: log });
  context.subscriptions.push(stacks, watchStacks(stacks));
  void stacks.analysis(); // logged once ready; workspace_info finds it cached
  // Lines are parsed in a worker thread, so neither compiling the grammars nor a pathological line holds this loop.
  const parser = new WorkerParser({ script: context.asAbsolutePath(path.join('dist', 'parseWorker.js')), grammars: grammarPathsIn(context.asAbsolutePath(path.join('dist', 'grammars'))) });
  context.subscriptions.push(parser);
  // Started now, so the first command is not the one that waits for it (a failure is retried at the first command).
  void parser.start().then(
    (loadMs) => log.info(`command safety: shell grammars loaded in ${loadMs.toFixed(1)} ms (worker thread)`),
    (error: unknown) => log.error('command safety: the shell grammars could not be loaded; every command will be asked about', error),
  );
  const safetySessions = new SessionApprovalStore();
  const sandbox = windowSandbox(context.extensionPath, log);
  context.subscriptions.push(sandbox);
  const terminals = new TerminalService({
    host,
    terminalSecrets,
    settings,
    createOutput: createRunOutputFactory({
      logsDir: path.join(dataDir, 'logs'),
      limitChars: () => settings().outputLimitChars,
      logger: log,
      onLogFileFailure: (file, error) => dataDirAlarm.report('outputLog', file, error),
      redactor: (terminalName) => terminalSecrets.redactor(terminalName, settings()),
    }),
    probeShell: (pid) => monitor.probeShell(pid),
    descendants: (pid) => monitor.descendants(pid),
    ledgerSession: ledger.sessionId,
    workspaceFolder: () => workspaceFolder,
    integrationFiles: integrationFilesProvider(context.asAbsolutePath('shell')),
    logger: log,
    isTrusted: isWorkspaceTrusted,
    servers,
    checks: [commandSafetyCheck({ parser, settings: cachedSafetySettings(cache, localUserSettingsFile(context.globalStorageUri.fsPath)), sessions: safetySessions, keepRules: keepAutoApproveRules, home: os.homedir(), logger: log })],
    approver: modalApprover(),
    audit: ({ command, safety, ...where }) => ledger.recordDecision({ ...where, cmd: command, ...safety }),
    sandbox,
  });
  const startup = await ledger.start().catch((error: unknown) => {
    log.error('the process ledger could not load; orphans of earlier windows are not reported', error);
    return undefined;
  });
  const attachment = attachToTerminalService(ledger, terminals, log);
  context.subscriptions.push(host, terminals);
  const ui = { ledger, terminals, servers: { list: () => servers.list(terminals.sessionViews()) }, logger: showLog, dataDir, orphanPolicy: () => settings().orphanPolicy };
  context.subscriptions.push(registerProcessUi(ui));
  const orphans = startup ? orphansToAnnounce(startup.orphans) : [];
  if (orphans.length > 0) {
    void announceOrphans(ui, orphans);
  }

  let bridge: BridgeServer | undefined;
  let bridgeFile: BridgeFilePublisher | undefined;
  let userHome: ReturnType<typeof publishToUserHome> | undefined;
  try {
    bridge = await startBridgeServer({
      handlers: createBridgeHandlers({ terminals, ledger, servers, stacks, clients: clientProcesses, ownClientName: ownMcpClientName() }),
      hello: () => ({
        extensionVersion: version,
        windowPid: process.pid,
        trusted: isWorkspaceTrusted(),
        ...(workspaceFolder ? { workspaceFolder } : {}),
      }),
      logger: log,
      onSessionEnd: (session) => {
        safetySessions.end(session);
        clientProcesses.detach(session);
      },
    });
    if (workspaceFolder) {
      bridgeFile = await publishBridgeFile(
        workspaceFolder,
        { endpoint: bridge.endpoint, token: bridge.token, protocolVersion: PROTOCOL_VERSION, pid: process.pid, extensionVersion: version },
        log,
        (file, error) => dataDirAlarm.report('bridgeFile', file, error),
      );
    }
    const serverScript = context.asAbsolutePath(path.join('dist', 'mcp-server.js'));
    const target = { endpoint: bridge.endpoint, token: bridge.token };
    userHome = publishToUserHome({
      root: shepherdHome(),
      launcher: { version, runtime: process.execPath, serverScript },
      ...(workspaceFolder ? { window: { pid: process.pid, workspaceFolder } } : {}),
      logger: log,
    });
    context.subscriptions.push(
      registerRunCommand({
        logger: showLog,
        // A person waits as long as the run does: no client deadline short of the longest call.
        connect: () =>
          connectInProcess(
            { version, logger: log, target, env: { [OVERRIDE_ENV]: String(limits.maxTimeoutMs) }, ...(workspaceFolder ? { workspaceFolder } : {}) },
            { name: RUN_COMMAND_CLIENT, version },
          ),
      }),
      registerConnectClient({ logger: showLog, version, workspaceFolder, globalStorage: context.globalStorageUri.fsPath }),
      registerMcpServerProvider({
        serverScript,
        endpoint: bridge.endpoint,
        token: bridge.token,
        workspaceFolder,
        version,
      }),
    );
    void offerCopilotSetup({ globalState: context.globalState, logger: ui.logger, extensionId: context.extension.id });
    void offerAgentHostSetup({ globalState: context.globalState, logger: ui.logger, version, workspaceFolder, globalStorage: context.globalStorageUri.fsPath });
  } catch (error) {
    log.error('could not start the bridge; the MCP tools will not reach this window', error);
    void showFailure(ui, 'Terminal Shepherd could not start its bridge, so Copilot and other MCP clients cannot use its tools in this window. Reload the window to try again.');
  }

  shutdown = async () => {
    // Stop following terminals first: their close events during a reload must not kill what the
    // next window should find as orphans.
    attachment.dispose();
    // Calls still waiting on a run end now (WindowClosing); the bridge lets their answers out
    // before it closes, so a client reads why rather than a dropped connection.
    terminals.dispose();
    await Promise.allSettled([ledger.dispose(), bridgeFile?.dispose(), bridge?.dispose(), userHome?.then((h) => h.dispose())]);
    monitor.dispose();
  };
  log.info('Terminal Shepherd ready');
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
