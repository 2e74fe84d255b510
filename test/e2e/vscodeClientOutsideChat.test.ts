// VS Code's own MCP client called from outside any chat (an extension's vscode.lm.invokeTool with no
// toolInvocationToken), with the per-command check on as a person has it. A question for such a
// call went to VS Code's elicitation, which outside a chat shows only a toast apart from the call
// ("Respond"): the call waited unseen for the answer bound (issue 27). The window's modal asks now,
// as VS Code asks its own confirmation for the same call.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';
import { invokeThroughVsCode, startVsCodeMcpServer, type VsCodeToolNames } from '../support/vscodeMcp';
import type { TerminalRunResult } from '../../common/src/protocol';

describe("VS Code's own MCP client outside a chat, per-command check on", function () {
  this.timeout(180_000);
  const win = suiteWindow(() => openShepherdWindow({ label: 'vscode-outside-chat', settings: { 'terminalShepherd.safety.perCommandCheck': true } }));
  let tools: VsCodeToolNames;
  before(async function () {
    this.timeout(120_000);
    tools = await startVsCodeMcpServer(win);
  });

  /** terminal_run through VS Code with no chat session; its structured result. */
  async function runOutsideChat(command: string): Promise<TerminalRunResult> {
    const { text } = await invokeThroughVsCode(win, tools.terminal_run!, { command, name: 'outside-chat' }, 60_000);
    return JSON.parse(text) as TerminalRunResult;
  }

  /** Answers our question (a modal in the window, never VS Code's out-of-chat toast) with this button. */
  async function answerModal(command: string, button: 'Run Once' | 'Cancel'): Promise<void> {
    const dialog = win.vscode.page.locator('.monaco-dialog-box', { hasText: `Run \`${command}\`?` });
    await dialog.waitFor({ timeout: 30_000 });
    const toasts = await win.vscode.page.locator('.notification-toast', { hasText: 'MCP Server (Terminal Shepherd)' }).count();
    assert.equal(toasts, 0, 'no elicitation toast apart from the call');
    await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click({ timeout: 10_000 });
  }

  it('a line the default rules approve answers at once with its output and exit code', async () => {
    const ran = await runOutsideChat('echo via-vscode-client-$((6*7))');
    assert.equal(ran.status, 'completed');
    assert.equal(ran.output, 'via-vscode-client-42');
    assert.equal(ran.exitCode, 0);
    assert.equal(ran.safety?.decision, 'approved');
  });

  it("a line that asks is asked in the window's modal; Cancel answers not_approved and nothing ran (the folder is still on disk)", async () => {
    mkdirSync(path.join(win.workspace, 'build-kept'));
    const [ran] = await Promise.all([runOutsideChat('rm -rf build-kept'), answerModal('rm -rf build-kept', 'Cancel')]);
    assert.equal(ran.status, 'not_approved', JSON.stringify(ran));
    assert.ok(existsSync(path.join(win.workspace, 'build-kept')));
  });

  it("Run Once in the window's modal runs it (the folder is gone from disk)", async () => {
    mkdirSync(path.join(win.workspace, 'build-gone'));
    const [ran] = await Promise.all([runOutsideChat('rm -rf build-gone'), answerModal('rm -rf build-gone', 'Run Once')]);
    assert.equal(ran.status, 'completed', JSON.stringify(ran));
    assert.equal(ran.exitCode, 0);
    await waitFor('the folder to be gone', 5_000, () => !existsSync(path.join(win.workspace, 'build-gone')));
  });
});
