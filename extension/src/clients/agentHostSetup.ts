/**
 * Whether a person's chat runs in VS Code's Agent Host (a separate process with its own harnesses:
 * the Copilot SDK, the Claude agent, the Codex agent) and, if so, whether Terminal Shepherd is in
 * the configuration it reads. The agent host does not see servers an extension's provider offers
 * (microsoft/vscode#317460); it reads `.mcp.json` and `~/.copilot/mcp-config.json`, the files
 * Connect an MCP Client writes for "VS Code agents and Copilot CLI". Said once, by the first-run
 * notification (vscode/agentHostFirstRun.ts), with Connect as its button.
 */
import { promises as fs } from 'node:fs';
import { getJsonValue } from './configEdits';
import { SERVER_KEY, clientSpec, type ClientContext, type Scope } from './mcpClients';

/**
 * The VS Code 1.139 settings that put new chats in an agent-host harness, as read (anything).
 * Not `chat.agentHost.claudeAgent.enabled` / `codexAgent.enabled`: they only make those agents
 * available to pick (on by default outside stable builds), so they say nothing of where chats run.
 */
export interface AgentHostSettings {
  /** chat.defaultToCopilotHarness: new editor and panel chats default to the Agent Host Copilot SDK. */
  readonly defaultToCopilotHarness: unknown;
  /** chat.editor.preferCopilotHarness (also a policy): the Copilot SDK wherever the local harness would be chosen. */
  readonly preferCopilotHarness: unknown;
  /** chat.disableAIFeatures: chat is off altogether. */
  readonly aiFeaturesDisabled: unknown;
}

/** Each setting's name, as VS Code spells it. */
export const AGENT_HOST_SETTING_NAMES: Readonly<Record<Exclude<keyof AgentHostSettings, 'aiFeaturesDisabled'>, string>> = {
  defaultToCopilotHarness: 'chat.defaultToCopilotHarness',
  preferCopilotHarness: 'chat.editor.preferCopilotHarness',
};

/** Where the agent host would find Terminal Shepherd, per scope: present or not (a project scope only with a folder open). */
export type AgentHostEntries = Partial<Record<Scope, boolean>>;

export type AgentHostStep =
  | { readonly kind: 'none'; readonly reason: string }
  /** An agent-host harness is on and neither file names the server: Connect writes the user's entry. */
  | { readonly kind: 'connect'; readonly scope: Scope; readonly message: string };

export function agentHostSetupStep(settings: AgentHostSettings, entries: AgentHostEntries): AgentHostStep {
  if (settings.aiFeaturesDisabled === true) return { kind: 'none', reason: 'chat is turned off (chat.disableAIFeatures)' };
  const on = (Object.keys(AGENT_HOST_SETTING_NAMES) as (keyof typeof AGENT_HOST_SETTING_NAMES)[]).filter((key) => settings[key] === true).map((key) => AGENT_HOST_SETTING_NAMES[key]);
  if (on.length === 0) return { kind: 'none', reason: 'no agent-host harness is turned on (chats run in the local harness, which the extension\'s provider reaches)' };
  const found = (Object.keys(entries) as Scope[]).filter((scope) => entries[scope]);
  if (found.length > 0) return { kind: 'none', reason: `the agent host finds Terminal Shepherd in the ${found.join(' and ')} configuration (${on.join(', ')} on)` };
  return {
    kind: 'connect',
    // The user's file reaches the agent host in every folder, and the Copilot CLI too.
    scope: 'user',
    message:
      `Your chats run in VS Code's agent host (${on.join(', ')}), which does not see the tools extensions offer. ` +
      'Connect adds Terminal Shepherd to ~/.copilot/mcp-config.json (you see the change first), so its agents get terminal_run and the other tools.',
  };
}

/** Whether the files Connect writes for the agent host name the server already (an unreadable file counts as not). */
export async function agentHostEntries(ctx: ClientContext): Promise<AgentHostEntries> {
  const spec = clientSpec('copilot');
  const scopes: Scope[] = ctx.workspaceFolder ? ['user', 'project'] : ['user'];
  const entries: AgentHostEntries = {};
  for (const scope of scopes) {
    const file = spec.scopes[scope]!(ctx).file;
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    entries[scope] = getJsonValue(text, ['mcpServers', SERVER_KEY]) !== undefined;
  }
  return entries;
}
