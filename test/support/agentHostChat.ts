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
 *   await allowHarnessConfirmation(win.vscode.page);   // in a polling loop: its title and time, once clicked
 *   // or all of it, for a scripted turn:
 *   const turn = await playHarnessTurn(win, api, { prompt: 'Run it', steps, timeoutMs: 90_000, record: 'test-results/x' });
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { ScriptedCopilotApi } from './scriptedCopilotApi';
import { startScriptedModel, type ScriptedModel, type ScriptStep } from './scriptedModel';
import { waitFor, type openShepherdWindow, type ShepherdWindow } from './shepherdE2e';
import type { VsCode } from './vscodeHarness';

/** How the harness names the tools of the extension's provider: `<server label>-<tool>`. */
export const PROVIDER_TOOL_PREFIX = 'Terminal-Shepherd-';

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
 * "Auto", which the scripted Copilot API does not serve) and sends `prompt`; with `newSession:
 * false`, sends it as the next turn of the session the editor shows. */
export async function sendHarnessPrompt(vsc: VsCode, prompt: string, options: { newSession?: boolean } = {}): Promise<void> {
  const page = vsc.page;
  if (options.newSession !== false) await vsc.driver.evaluate(`await vscode.commands.executeCommand(${JSON.stringify(NEW_SESSION)}, 'editor')`, { timeoutMs: 30_000 });
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
 * card collapsed), its "Allow" button. Returns the confirmation's title once clicked, and when the
 * click began (Date.now: under load the click's promise can settle after the tool has answered).
 */
export async function allowHarnessConfirmation(page: Page): Promise<{ title: string; at: number } | undefined> {
  const carousel = page.locator('.chat-tool-confirmation-carousel-container:visible');
  const primary = carousel.locator('.chat-confirmation-widget-buttons .monaco-text-button:visible').first();
  const headerAllow = carousel.locator('.chat-tool-carousel-allow-all-button:visible').first();
  const button = (await primary.isVisible().catch(() => false)) ? primary : (await headerAllow.isVisible().catch(() => false)) ? headerAllow : undefined;
  if (!button) return undefined;
  const title = ((await carousel.locator('.chat-confirmation-widget-title').first().textContent({ timeout: 2000 }).catch(() => '')) ?? '').trim();
  const at = Date.now();
  return (await button.click({ timeout: 2000 }).then(() => true, () => false)) ? { title, at } : undefined;
}

export interface HarnessTurn {
  /** The turn's scripted model, closed; its records (requests, exchanges) stay. */
  readonly model: ScriptedModel;
  /** The confirmations allowed, by title, in order. */
  readonly confirmations: readonly string[];
  /** When each click began (Date.now), in the same order. */
  readonly clickedAt: readonly number[];
  /** The tools the harness offered the model. */
  readonly offered: readonly string[];
  /** Window reloads the turn took because the window lost it (see playHarnessTurn). */
  readonly lost: number;
}

/** How long a scripted call may stay unanswered with nothing of the turn on screen before the turn counts as lost. */
const LOST_AFTER_MS = 20_000;
/** Window reloads one turn may take to recover from a loss. */
const RELOADS = 2;

/**
 * One chat turn with the harness: the scripted model plays `steps` (a tool named as its MCP name,
 * `terminal_run`, is the offered `Terminal-Shepherd-terminal_run`), every confirmation the harness
 * shows is allowed as a person allows it, until the model has had every call's result and given
 * its closing answer, or was asked without the script's tools offered. In a new session unless
 * `newSession: false` (then the next turn of the chat the editor shows). Bounded by timeoutMs.
 *
 * VS Code 1.139's window can lose a new session's first turn: it subscribes to the chat as it
 * sends the first message, and when the agent host starts the turn before it answers the
 * subscription (the snapshot already has the turn), the window never gets its own turnStarted back
 * and drops the chat's tool calls from then on (none is shown, a confirmation never appears, the
 * harness waits on it for good; stopping it and asking again in that chat is lost the same way).
 * A person sees an empty "Working" and reloads the window, which subscribes afresh and shows the
 * waiting confirmation; so does this, after LOST_AFTER_MS with a call unanswered and nothing of
 * the turn on screen (no tool call, no confirmation shown), at most RELOADS times. Later turns of
 * a chat whose first turn showed are not exposed.
 *
 * What the harness asked and the model answered is written to `<record>.json`; screenshots to
 * `<record>-lost-N.png` before a reload and `<record>-failed.png` on a timeout.
 */
export async function playHarnessTurn(
  win: ShepherdWindow,
  api: ScriptedCopilotApi,
  options: { prompt: string; steps: readonly ScriptStep[]; timeoutMs: number; record: string; newSession?: boolean },
): Promise<HarnessTurn> {
  const newSession = options.newSession !== false;
  const model = await startScriptedModel({ steps: options.steps });
  api.use(model);
  const calls = options.steps.filter((s) => 'call' in s).length;
  const confirmations: string[] = [];
  const clickedAt: number[] = [];
  let lost = 0;
  let reloadedAt = 0;
  /** The turn's tool calls on screen at its end. */
  let rendered: number | undefined;
  const page = (): Page => win.vscode.page;
  const session = () => page().locator('.editor-instance .interactive-session').last();
  try {
    // The tool calls already on screen (earlier turns of the chat): a lost turn adds none.
    const before = newSession ? 0 : await session().locator('.chat-tool-invocation-part').count();
    await sendHarnessPrompt(win.vscode, options.prompt, { newSession });
    await waitFor(`the harness turn "${options.prompt}" (${calls} scripted calls)`, options.timeoutMs, async () => {
      const allowed = await allowHarnessConfirmation(page());
      if (allowed !== undefined) {
        confirmations.push(allowed.title);
        clickedAt.push(allowed.at);
      }
      const notOffered = model.requests.length > 0 && model.requests.every((r) => !r.scripted);
      const answered = model.exchanges().filter((e) => e.result).length >= calls;
      // The request carrying the last result gets the closing answer: the turn is over.
      const latest = model.requests.at(-1);
      if (notOffered || (answered && latest?.reply.toolUse === undefined)) return true;
      const stuck = latest?.reply.toolUse !== undefined && Date.now() - Math.max(latest.at, reloadedAt) > LOST_AFTER_MS && confirmations.length === 0 && lost < RELOADS;
      if (stuck && (await session().locator('.chat-tool-invocation-part').count()) <= before && (await page().locator('.chat-tool-confirmation-carousel-container:visible').count()) === 0) {
        lost++;
        await win.vscode.screenshot(`${options.record}-lost-${lost}.png`).catch(() => undefined);
        await win.vscode.reloadWindow();
        reloadedAt = Date.now();
      }
      return undefined;
    }).catch(async (error: unknown) => {
      await win.vscode.screenshot(`${options.record}-failed.png`).catch(() => undefined);
      throw error;
    });
    rendered = await session().locator('.chat-tool-invocation-part').count();
    return { model, confirmations, clickedAt, offered: model.offeredTools(), lost };
  } finally {
    writeFileSync(
      `${options.record}.json`,
      `${JSON.stringify(
        {
          offered: model.offeredTools(),
          confirmations,
          lost,
          rendered,
          // The model's side of the conversation: each request's tool results in, its reply out.
          requests: model.requests.map((r) => ({ at: r.at, path: r.path, scripted: r.scripted, tools: r.tools.length, toolResults: r.toolResults, reply: r.reply })),
          exchanges: model.exchanges(),
          errors: model.errors,
        },
        null,
        2,
      )}\n`,
    );
    await model.close();
  }
}
