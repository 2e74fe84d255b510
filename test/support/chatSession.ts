/**
 * A user's chat session in the real VS Code, played with a scripted model: the test-only
 * extension test/support/scriptedChat registers a language model whose answers are a script and
 * the default agent-mode participant, which invokes every tool the model calls through
 * vscode.lm.invokeTool with the request's toolInvocationToken, as Copilot agent mode does. So VS
 * Code's own tools (run_in_terminal) and MCP tools (ours, through VS Code's MCP client) run the way
 * they do for Copilot, and VS Code shows its confirmations in the chat view, where this module
 * finds them, records them and clicks them as a user would.
 *
 *   const vsc = await launchVsCode({ workspace, ...scriptedChatLaunch([repoRoot]) });
 *   const chat = new ChatSession(vsc);
 *   await chat.ready();
 *   const played = await chat.play('run the build', [{ calls: [{ tool: 'terminal_run', input: { command: 'make' } }] }, { text: 'done' }]);
 *   played.calls        // every tool call: resolved name, input, round trip, result text
 *   played.confirmations // every confirmation VS Code showed, with the call it was for and the button clicked
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ElementHandle } from 'playwright-core';
import { findRepoRoot } from '../../.devtools/scripts/installSteps';
import type { LaunchOptions } from './launchOptions';
import type { VsCode } from './vscodeHarness';

export const SCRIPTED_CHAT_DIR = path.join(findRepoRoot(), 'test', 'support', 'scriptedChat');
export const SCRIPTED_CHAT_ID = 'terminal-shepherd-test.scripted-chat';

/** Launch options that load `extensions` plus the scripted chat, with its proposed APIs allowed. */
export function scriptedChatLaunch(extensions: string[]): Pick<LaunchOptions, 'extensions' | 'enableProposedApi'> {
  return { extensions: [...extensions, SCRIPTED_CHAT_DIR], enableProposedApi: [SCRIPTED_CHAT_ID] };
}

/** One answer of the scripted model: tool calls (by tool name; an MCP tool by its own name, such as
 * "terminal_run", matches mcp_<server>_terminal_run) and/or text. The model only calls tools it was offered. */
export interface ScriptTurn {
  readonly calls?: readonly { readonly tool: string; readonly input?: Record<string, unknown> }[];
  readonly text?: string;
}

/** What the scripted chat recorded (see scriptedChat/extension.js). */
export type ChatEvent =
  | { kind: 'request'; at: number; prompt: string; model?: string; hasToolInvocationToken: boolean; pickerTools: { name: string; enabled: boolean }[] | null; lmTools: string[]; offered: string[] }
  | { kind: 'modelTurn'; at: number; offered: string[]; turn: ScriptTurn | null }
  | { kind: 'notOffered'; at: number; tool: string; offered: string[] }
  | { kind: 'toolStart'; at: number; callId: string; tool: string; input: Record<string, unknown> }
  | { kind: 'toolEnd'; at: number; callId: string; tool: string; ms: number; startedAt: number; text?: string; error?: string }
  | { kind: 'requestEnd'; at: number; error?: string };

/** A tool call as the agent made it. */
export interface ToolCall {
  readonly callId: string;
  /** The name VS Code knows the tool by (mcp_terminal_shep_terminal_run, run_in_terminal). */
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /** When the agent invoked it (Date.now in the extension host). */
  readonly startedAt: number;
  /** vscode.lm.invokeTool round trip in the extension host, confirmations included (ms). */
  readonly ms: number;
  readonly text?: string;
  readonly error?: string;
  /** Confirmations VS Code showed for this call, in order. */
  readonly confirmations: Confirmation[];
}

/** A confirmation VS Code showed: before a call ("approve"), for its result ("review", VS Code's
 * "Approve Tool Result"), or a modal dialog. */
export interface Confirmation {
  readonly kind: 'approve' | 'review' | 'dialog';
  readonly title: string;
  /** Its buttons' labels, the primary first. */
  readonly buttons: string[];
  /** What was clicked, or undefined when the policy left it alone. */
  clicked?: string;
  /** When the click was done (Date.now, the same clock as the extension host's event times). */
  clickedAt?: number;
  /** The call that was waiting on it (the call in flight when it showed). */
  callId?: string;
  tool?: string;
  readonly at: number;
}

/** Which button to click on a confirmation: "primary" (what VS Code offers first: for an MCP tool
 * "Allow in this Session", for run_in_terminal "Allow"), a label among its buttons, or undefined to leave it. */
export type ConfirmationPolicy = (confirmation: Confirmation) => 'primary' | string | undefined;

export const clickPrimary: ConfirmationPolicy = () => 'primary';

export interface PlayOptions {
  readonly policy?: ConfirmationPolicy;
  /** Whole session bound (default 5 minutes). */
  readonly timeoutMs?: number;
  /** Saves a screenshot of every confirmation here as <n>-<kind>.png. */
  readonly screenshotDir?: string;
  /** How often to look for confirmations (default 150 ms): how long a robot's "user" takes to see one. */
  readonly pollMs?: number;
}

export interface PlayedSession {
  /** The agent's request as VS Code handed it over: the tools the picker enabled, the token. */
  readonly request: Extract<ChatEvent, { kind: 'request' }>;
  readonly calls: ToolCall[];
  readonly confirmations: Confirmation[];
  /** Tools the script asked for that the model was not offered. */
  readonly notOffered: string[];
  readonly events: ChatEvent[];
}

/** Whether the request ended, and the tool call in flight (the agent makes one at a time). */
interface SessionStatus {
  readonly ended: boolean;
  readonly inFlight: { readonly callId: string; readonly tool: string } | null;
}

const CHAT = `const chat = vscode.extensions.getExtension(${JSON.stringify(SCRIPTED_CHAT_ID)})?.exports;
  if (!chat) throw new Error('the scripted chat extension is not active: launch with scriptedChatLaunch()');`;

const REVIEW_TITLE = 'Approve Tool Result';
/** Marks a confirmation element already handled, so it is counted once. */
const SEEN_ATTRIBUTE = 'data-tshep-seen';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ChatSession {
  constructor(private readonly vsc: VsCode) {}

  private evaluate<T>(code: string, timeoutMs = 30_000): Promise<T> {
    return this.vsc.driver.evaluate<T>(code, { timeoutMs });
  }

  /** Waits until VS Code knows the scripted model (as a user waits for the chat to be usable). Bounded. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const models = await this.evaluate<number>(`${CHAT} return (await vscode.lm.selectChatModels({ vendor: 'scripted' })).length;`).catch(() => 0);
      if (models > 0) return;
      if (Date.now() > deadline) throw new Error(`the scripted model was not available after ${timeoutMs} ms`);
      await sleep(250);
    }
  }

  /** Sends `prompt` in agent mode and plays `script`, handling every confirmation with the policy
   * until the agent's answer ends. Throws when it does not end within the bound. */
  async play(prompt: string, script: readonly ScriptTurn[], options: PlayOptions = {}): Promise<PlayedSession> {
    const policy = options.policy ?? clickPrimary;
    const timeoutMs = options.timeoutMs ?? 300_000;
    const from = await this.evaluate<number>(`${CHAT} chat.setScript(${JSON.stringify(script)}); return chat.events().length;`);
    await this.evaluate(`await vscode.commands.executeCommand('workbench.action.chat.open', { query: ${JSON.stringify(prompt)}, mode: 'agent' });`);
    const confirmations: Confirmation[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.evaluate<SessionStatus>(`${CHAT} return chat.status(${from});`);
      if (status.ended) break;
      if (Date.now() > deadline) {
        const last = await this.evaluate<ChatEvent[]>(`${CHAT} return chat.events(${from}).slice(-3);`);
        throw new Error(`the chat session did not end within ${timeoutMs} ms; last events: ${JSON.stringify(last)}`);
      }
      confirmations.push(...(await this.handleConfirmations(status.inFlight, policy, options.screenshotDir, confirmations.length)));
      await sleep(options.pollMs ?? 150);
    }
    return summarize(await this.evaluate<ChatEvent[]>(`${CHAT} return chat.events(${from});`), confirmations);
  }

  /** Finds the confirmations showing now that were not seen yet, records and answers them. */
  private async handleConfirmations(pending: SessionStatus['inFlight'], policy: ConfirmationPolicy, screenshotDir: string | undefined, counted: number): Promise<Confirmation[]> {
    const page = this.vsc.page;
    const found: Confirmation[] = [];
    const elements = [
      ...(await page.$$(`.chat-confirmation-widget-container:not([${SEEN_ATTRIBUTE}])`)).map((element) => ({ element, dialog: false })),
      ...(await page.$$(`.monaco-dialog-box:not([${SEEN_ATTRIBUTE}])`)).map((element) => ({ element, dialog: true })),
    ];
    for (const { element, dialog } of elements) {
      if (!(await element.isVisible())) continue;
      const buttons = await visibleButtons(element, dialog);
      if (buttons.length === 0) continue; // not answerable (yet)
      await element.evaluate((el, attribute) => el.setAttribute(attribute, ''), SEEN_ATTRIBUTE);
      const title = dialog
        ? ((await element.$eval('.dialog-message-text', (el) => el.textContent ?? '').catch(() => '')) || '').trim()
        : ((await element.$eval('.chat-confirmation-widget-title', (el) => el.textContent ?? '').catch(() => '')) || '').trim();
      const confirmation: Confirmation = {
        kind: dialog ? 'dialog' : title.startsWith(REVIEW_TITLE) ? 'review' : 'approve',
        title,
        buttons: buttons.map((b) => b.label),
        at: Date.now(),
        ...(pending ? { callId: pending.callId, tool: pending.tool } : {}),
      };
      if (screenshotDir) await this.vsc.screenshot(path.join(screenshotDir, `${counted + found.length + 1}-${confirmation.kind}.png`));
      const choice = policy(confirmation);
      const button = choice === 'primary' ? buttons[0] : buttons.find((b) => b.label === choice);
      if (choice !== undefined && !button) throw new Error(`no button "${choice}" on the confirmation "${title}" (buttons: ${confirmation.buttons.join(', ')})`);
      if (button) {
        await button.handle.click({ timeout: 10_000 });
        confirmation.clicked = button.label;
        confirmation.clickedAt = Date.now();
      }
      found.push(confirmation);
    }
    return found;
  }

  /**
   * Answers the next MCP elicitation shown in the chat (VS Code 1.139 renders its form inline, one
   * option per value): waits for `option`, saves a screenshot first when asked, picks it, submits
   * with Ctrl+Enter.
   */
  async answerElicitation(option: string, options: { timeoutMs?: number; screenshot?: string } = {}): Promise<void> {
    const page = this.vsc.page;
    // An open form says how to submit it (an answered one no longer does).
    await page.locator('.interactive-session').getByText('Ctrl+Enter to submit').last().waitFor({ state: 'visible', timeout: options.timeoutMs ?? 60_000 });
    const choice = page.locator('.interactive-session').getByText(option, { exact: true }).last();
    await choice.waitFor({ state: 'visible', timeout: 10_000 });
    if (options.screenshot) {
      await page.mouse.move(10, 880); // no hover highlight in the picture
      await this.vsc.screenshot(options.screenshot);
    }
    await choice.click({ timeout: 10_000 });
    // The form says "Ctrl+Enter to submit" (its Submit button is no plain button to find by its role).
    await page.keyboard.press('Control+Enter');
  }

  /** Opens the chat's tool picker (agent mode's "Configure Tools"), expands the group of the tool
   * source named `group` (an MCP server's label), saves a screenshot, closes it, and returns the rows'
   * accessible labels. */
  async screenshotToolPicker(file: string, group: string): Promise<string[]> {
    const page = this.vsc.page;
    // The command resolves only when the picker closes: not awaited.
    await this.evaluate(`await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' }); void vscode.commands.executeCommand('workbench.action.chat.configureTools');`);
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: group }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    await page.locator('.quick-input-widget .monaco-list-row[aria-expanded="true"]', { hasText: group }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await sleep(300); // its rows render
    await page.mouse.move(10, 880); // no hover highlight in the picture
    const rows = await page.locator('.quick-input-widget .monaco-list-row').evaluateAll((els) => els.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
    await this.vsc.screenshot(file);
    await page.keyboard.press('Escape');
    return rows;
  }

  /** Writes what a played session recorded as JSON, for a failing test's artifacts. */
  static save(played: PlayedSession, file: string): void {
    writeFileSync(file, JSON.stringify(played, null, 2));
  }
}

async function visibleButtons(element: ElementHandle, dialog: boolean): Promise<{ label: string; handle: ElementHandle }[]> {
  const handles = await element.$$(dialog ? '.dialog-buttons .monaco-button' : '.chat-confirmation-widget-buttons .monaco-button');
  const out: { label: string; handle: ElementHandle }[] = [];
  for (const handle of handles) {
    const label = ((await handle.textContent()) ?? '').trim();
    // The dropdown arrow next to a primary button has no label.
    if (label && (await handle.isVisible()) && !(await handle.evaluate((el) => el.classList.contains('disabled')))) out.push({ label, handle });
  }
  return out;
}

function summarize(events: ChatEvent[], confirmations: Confirmation[]): PlayedSession {
  const request = events.find((e): e is Extract<ChatEvent, { kind: 'request' }> => e.kind === 'request');
  if (!request) {
    const end = events.find((e) => e.kind === 'requestEnd');
    throw new Error(`the agent never received the request${end && 'error' in end && end.error ? `: ${end.error}` : ''}`);
  }
  const calls: ToolCall[] = [];
  for (const start of events) {
    if (start.kind !== 'toolStart') continue;
    const end = events.find((e): e is Extract<ChatEvent, { kind: 'toolEnd' }> => e.kind === 'toolEnd' && e.callId === start.callId);
    calls.push({
      callId: start.callId,
      tool: start.tool,
      input: start.input,
      startedAt: start.at,
      ms: end?.ms ?? Number.NaN,
      ...(end?.text !== undefined ? { text: end.text } : {}),
      ...(end?.error !== undefined ? { error: end.error } : {}),
      confirmations: confirmations.filter((c) => c.callId === start.callId),
    });
  }
  const notOffered = events.flatMap((e) => (e.kind === 'notOffered' ? [e.tool] : []));
  return { request, calls, confirmations, notOffered, events };
}
