/**
 * A chat with VS Code's agent host Copilot harness in the real VS Code 1.139, driven as a person
 * drives it: a new session of the agent-host type, the scripted model picked in its model picker,
 * the prompt typed, and the harness's tool confirmation answered in the carousel above the input.
 * The window runs offline against the scripted Copilot API (scriptedCopilotApi.ts).
 *
 *   const api = await startScriptedCopilotApi();
 *   const win = await openShepherdWindow(agentHostWindow({ home: home.dir, api }));
 *   api.use(model);
 *   await sendHarnessPrompt(win.vscode, 'Run it');
 *   await allowHarnessConfirmation(win.vscode.page);   // in a polling loop: the title, once clicked
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { ScriptedCopilotApi } from './scriptedCopilotApi';
import type { openShepherdWindow } from './shepherdE2e';
import type { VsCode } from './vscodeHarness';

/** The agent host's session type for its Copilot harness ("Copilot" in the harness picker). */
const NEW_SESSION = 'workbench.action.chat.openNewChatSessionInPlace.agent-host-copilotcli';

/** openShepherdWindow's options for a window whose agent host runs offline: the smoke-test driver
 * lets `chat.agentHost.unsafeTestToken` stand for the GitHub sign-in; HOME (hence
 * ~/.copilot/mcp-config.json) is the test's own. */
export function agentHostWindow(options: { home: string; api: ScriptedCopilotApi; label?: string; settings?: Record<string, unknown>; userLogLevel?: boolean }): Parameters<typeof openShepherdWindow>[0] {
  const { home, api } = options;
  return {
    label: options.label ?? 'agent-host',
    ...(options.userLogLevel ? { userLogLevel: true } : {}),
    settings: { 'chat.agentHost.unsafeTestToken': 'scripted-token', 'chat.agentHost.githubMcpServer.enabled': false, ...options.settings },
    launch: {
      serverArgs: [...(options.userLogLevel ? [] : ['--log', 'debug']), '--vscode-option', 'enable-smoke-test-driver'],
      env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), TERMINAL_SHEPHERD_HOME: path.join(home, '.terminal-shepherd'), ...api.env },
    },
  };
}

/** Opens a new harness session in the editor, picks the scripted model (a new session starts on
 * "Auto", which the scripted Copilot API does not serve) and sends `prompt`. */
export async function sendHarnessPrompt(vsc: VsCode, prompt: string): Promise<void> {
  const page = vsc.page;
  await vsc.driver.evaluate(`await vscode.commands.executeCommand(${JSON.stringify(NEW_SESSION)}, 'editor')`, { timeoutMs: 30_000 });
  const input = page.locator('.editor-instance .interactive-input-part').last();
  await input.locator('.monaco-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
  const picker = input.getByText('Auto', { exact: true }).first();
  if (await picker.isVisible().catch(() => false)) {
    await picker.click();
    await page.locator('.quick-input-widget, .action-widget').getByText('Auto').first().waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('Scripted');
    await page.keyboard.press('Enter');
    await input.getByText('Scripted Model').first().waitFor({ state: 'visible', timeout: 10_000 });
  }
  await input.locator('.monaco-editor').first().click();
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
}

/**
 * Answers the harness's tool confirmation if one shows now: VS Code 1.139 shows it in the carousel
 * above the chat input (its copy in the response list is hidden), and a person clicks its first
 * button, "Allow in this Session" for an MCP tool; when the carousel shows only its header (the
 * card collapsed), its "Allow" button. Returns the confirmation's title once clicked.
 */
export async function allowHarnessConfirmation(page: Page): Promise<string | undefined> {
  const carousel = page.locator('.chat-tool-confirmation-carousel-container:visible');
  const primary = carousel.locator('.chat-confirmation-widget-buttons .monaco-text-button:visible').first();
  const headerAllow = carousel.locator('.chat-tool-carousel-allow-all-button:visible').first();
  const button = (await primary.isVisible().catch(() => false)) ? primary : (await headerAllow.isVisible().catch(() => false)) ? headerAllow : undefined;
  if (!button) return undefined;
  const title = ((await carousel.locator('.chat-confirmation-widget-title').first().textContent().catch(() => '')) ?? '').trim();
  return (await button.click({ timeout: 2000 }).then(() => true, () => false)) ? title : undefined;
}
