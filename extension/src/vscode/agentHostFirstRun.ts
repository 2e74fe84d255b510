/**
 * The first-run notification for people whose chats run in VS Code's agent host: when a setting
 * turns an agent-host harness on and neither file the agent host reads names Terminal Shepherd,
 * one notification says so with Connect as its button (Connect an MCP Client for "VS Code agents
 * and Copilot CLI", user scope: the change is shown before it is written). Shown once per install
 * (global state); later windows only log it. The decision is clients/agentHostSetup.ts's.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';
import { agentHostEntries, agentHostSetupStep, type AgentHostSettings } from '../clients/agentHostSetup';
import { clientContext, type ConnectArgs, type ConnectDependencies } from './connectClient';
import { COMMANDS } from './ui/ids';
import { userAction } from './ui/userFeedback';

const SHOWN_KEY = 'terminalShepherd.agentHostSetupShown';
const CONNECT = 'Connect';

export interface AgentHostFirstRunDependencies extends Omit<ConnectDependencies, 'logger'> {
  readonly globalState: vscode.Memento;
  readonly logger: Logger & { show(): void };
}

function readAgentHostSettings(): AgentHostSettings {
  const chat = vscode.workspace.getConfiguration('chat');
  return {
    defaultToCopilotHarness: chat.get('defaultToCopilotHarness'),
    preferCopilotHarness: chat.get('editor.preferCopilotHarness'),
    aiFeaturesDisabled: chat.get('disableAIFeatures'),
  };
}

/** Logs whether the agent host finds the server; if it cannot, says so once with Connect. Never rejects. */
export async function offerAgentHostSetup(deps: AgentHostFirstRunDependencies): Promise<void> {
  try {
    const step = agentHostSetupStep(readAgentHostSettings(), await agentHostEntries(clientContext(deps)));
    if (step.kind === 'none') {
      deps.logger.info(`Agent host: ${step.reason}.`);
      return;
    }
    deps.logger.warn(`Agent host: ${step.message}`);
    if (deps.globalState.get<boolean>(SHOWN_KEY)) return; // said once; the log keeps saying it
    await deps.globalState.update(SHOWN_KEY, true);
    const args: ConnectArgs = { client: 'copilot', scope: step.scope };
    const connect = userAction(deps, 'connect VS Code agents and the Copilot CLI', () => vscode.commands.executeCommand(COMMANDS.connectClient, args));
    Promise.resolve(vscode.window.showInformationMessage(step.message, CONNECT)).then(
      (choice) => (choice === CONNECT ? connect() : undefined),
      (error: unknown) => deps.logger.warn('the agent host notification failed', error),
    );
  } catch (error) {
    deps.logger.warn('could not check whether the agent host finds Terminal Shepherd', error);
  }
}
