/**
 * The first-run notification for Copilot users. With VS Code's defaults there is nothing to say:
 * the first agent-mode request starts the MCP server and offers its tools, so only the log says so.
 * When the user's settings (or policies) keep that from happening, one notification says what and
 * offers the step as a button: shown once per install (global state), later windows only log it.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';
import { copilotSetupStep, type CopilotSettings } from '../clients/copilotSetup';
import { mcpServerId } from './mcpServerProvider';
import { userAction } from './ui/userFeedback';

const SHOWN_KEY = 'terminalShepherd.copilotSetupShown';
const START_SERVER = 'Start Server';
const OPEN_SETTING = 'Open Setting';
/** Bound on starting the server from the button (VS Code waits for its tools to be listed). */
const START_TIMEOUT_MS = 60_000;

export interface CopilotFirstRunDependencies {
  /** The extension's global state: remembers that the notification was shown. */
  readonly globalState: vscode.Memento;
  /** The log; "Show Log" on a failure shows it. */
  readonly logger: Logger & { show(): void };
  /** This extension's id (publisher.name): part of the server's id in VS Code. */
  readonly extensionId: string;
}

export function readCopilotSettings(): CopilotSettings {
  const chat = vscode.workspace.getConfiguration('chat');
  return { mcpAccess: chat.get('mcp.access'), mcpAutostart: chat.get('mcp.autostart'), aiFeaturesDisabled: chat.get('disableAIFeatures') };
}

/** Logs whether Copilot gets the tools with no set-up; if not, says so once with the step as a button.
 * Never rejects; resolves once the notification is up (its button is handled after that). */
export async function offerCopilotSetup(deps: CopilotFirstRunDependencies): Promise<void> {
  try {
    const step = copilotSetupStep(readCopilotSettings());
    if (step.kind === 'none') {
      deps.logger.info(`Copilot: no set-up needed: ${step.reason}.`);
      return;
    }
    deps.logger.warn(`Copilot: ${step.message}`);
    if (deps.globalState.get<boolean>(SHOWN_KEY)) return; // said once; the log keeps saying it
    await deps.globalState.update(SHOWN_KEY, true);
    const button = step.kind === 'startServer' ? START_SERVER : OPEN_SETTING;
    const act =
      step.kind === 'startServer'
        ? userAction(deps, 'start the Terminal Shepherd MCP server', () => startServer(deps))
        : userAction(deps, 'open the setting chat.mcp.access', () => vscode.commands.executeCommand('workbench.action.openSettings', 'chat.mcp.access'));
    Promise.resolve(vscode.window.showInformationMessage(step.message, button)).then(
      (choice) => (choice === button ? act() : undefined),
      (error: unknown) => deps.logger.warn('the Copilot notification failed', error),
    );
  } catch (error) {
    deps.logger.warn('could not check what Copilot needs to reach the tools', error);
  }
}

/** Starts our server the way MCP: List Servers → Start does, and checks that its tools are live. */
async function startServer(deps: CopilotFirstRunDependencies): Promise<void> {
  const id = mcpServerId(deps.extensionId);
  deps.logger.info(`Copilot: starting the MCP server ${id} (the user asked)`);
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting Terminal Shepherd\'s MCP server…' }, () =>
    withinBound(Promise.resolve(vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true })), START_TIMEOUT_MS),
  );
  if (!vscode.lm.tools.some((tool) => tool.name.endsWith('terminal_run'))) {
    throw new Error('VS Code did not start it. Start "Terminal Shepherd" from the command "MCP: List Servers"');
  }
  deps.logger.info('Copilot: the MCP server runs; its tools are offered to agent mode');
  void vscode.window.showInformationMessage('Terminal Shepherd\'s tools are ready for Copilot agent mode.');
}

function withinBound<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server did not start within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
