// Copilot's first ten minutes, played in the real VS Code (code-server 1.139) on a fresh profile:
// a new user with the .vsix installed opens a folder and asks agent mode to run commands. The
// model is scripted (test/support/scriptedChat) but everything between it and the terminal is VS
// Code's own: the chat request, the tool picker, MCP autostart, VS Code's MCP client,
// vscode.lm.invokeTool with the request's toolInvocationToken, the confirmations in the chat view.
// Nothing starts our MCP server for the user: no workbench.mcp.startServer, no MCP client of ours.
//
// Its tool picker screenshot is the README's copilot-tools.png (test-results/screenshots/;
// `npm run screenshots` updates media/screenshots/).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import type { TerminalRunResult } from '../../common/src/protocol';
import { ChatSession, scriptedChatLaunch, type PlayedSession, type ToolCall } from '../support/chatSession';
import { repoRoot } from '../support/mcpClient';
import { readmeScreenshot } from '../support/screenshots';
import { E2E_SETTINGS, makeWorkspace, packageVsix, restoreDevelopmentBuild, waitFor } from '../support/shepherdE2e';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';

const ARTIFACTS = path.join(repoRoot, 'test-results', 'copilot-session');
const TOOLS = ['terminal_run', 'terminal_state', 'terminal_input', 'terminal_list', 'list_processes', 'workspace_info', 'kill_process', 'kill_orphans'];

/** Five commands a user's session runs, each with what terminal_run must answer. */
const COMMANDS: { command: string; exitCode: number; output: RegExp }[] = [
  { command: 'echo "build ok"', exitCode: 0, output: /^build ok$/ },
  { command: 'printf "a\\nb\\nc\\n" | wc -l', exitCode: 0, output: /^3$/ },
  { command: 'ls /definitely/not/here', exitCode: 2, output: /No such file or directory/ },
  { command: 'sleep 1; echo slept', exitCode: 0, output: /^slept$/ },
  { command: 'seq 1 3000 | tail -n 1', exitCode: 0, output: /^3000$/ },
];

/** The .vsix a user installs, built once for this file (npm run package), the development build restored after. */
let vsix: string | undefined;
function installableVsix(): string {
  if (!vsix) {
    vsix = packageVsix().vsix;
    restoreDevelopmentBuild();
  }
  return vsix;
}

/** Terminal Shepherd's log of the latest window. */
function newestLog(vsc: VsCode): string | undefined {
  return vsc
    .logFiles()
    .filter((f) => f.endsWith('Terminal Shepherd.log'))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    .at(-1);
}

const isOurs = (call: ToolCall, tool: string): boolean => call.tool.startsWith('mcp_') && call.tool.endsWith(`_${tool}`);
const runResult = (call: ToolCall): TerminalRunResult => JSON.parse(call.text ?? 'null') as TerminalRunResult;

describe("Copilot's first ten minutes: agent mode on a fresh profile, through VS Code's chat", function () {
  this.timeout(300_000);
  let vsc: VsCode;
  let chat: ChatSession;
  let played: PlayedSession;
  let failed = false;

  before(async function () {
    this.timeout(900_000); // a first install of code-server takes about 2 minutes
    await ensureVsCode();
    mkdirSync(ARTIFACTS, { recursive: true });
    // As a user has it: the .vsix installed, a folder open, a fresh profile.
    vsc = await launchVsCode({ workspace: makeWorkspace(), settings: E2E_SETTINGS, label: 'copilot-session', vsix: [installableVsix()], ...scriptedChatLaunch([]) });
    chat = new ChatSession(vsc);
    // What a user waits for: a chat that can answer. Terminal Shepherd may still be activating.
    await chat.ready();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await vsc?.screenshot(path.join(ARTIFACTS, `failed-${Date.now()}.png`)).catch(() => undefined);
      if (played) ChatSession.save(played, path.join(ARTIFACTS, 'session.json'));
    }
  });
  after(async () => {
    await vsc?.stop({ failed });
  });

  it('the MCP server has not been started before the first request: nothing but VS Code will start it', async () => {
    const live = await vsc.driver.evaluate<string[]>(`return vscode.lm.tools.filter((t) => t.name.startsWith('mcp_')).map((t) => t.name);`);
    assert.deepEqual(live, []);
  });

  it('the first agent-mode request offers every Terminal Shepherd tool; terminal_run costs one confirmation per session, reading tools none, and no result is reviewed', async () => {
    played = await chat.play(
      'Build it, count the lines, look for the data, wait a moment, check the sequence and deploy; then show me the terminals and processes and clean up.',
      [
        ...COMMANDS.map((c) => ({ calls: [{ tool: 'terminal_run', input: { command: c.command } }] })),
        { calls: [{ tool: 'terminal_run', input: { command: 'read -p "Deploy? [y/N] " answer; echo "answer=$answer"', name: 'ask' } }] },
        { calls: [{ tool: 'terminal_input', input: { name: 'ask', text: 'y' } }] },
        { calls: [{ tool: 'terminal_state', input: { name: 'default' } }] },
        { calls: [{ tool: 'terminal_list', input: {} }] },
        { calls: [{ tool: 'list_processes', input: {} }] },
        { calls: [{ tool: 'workspace_info', input: {} }] },
        // A pid the ledger does not own (this test's own): asked first, then refused.
        { calls: [{ tool: 'kill_process', input: { pid: process.pid } }] },
        { calls: [{ tool: 'kill_orphans', input: {} }] },
        { text: 'All five commands ran.' },
      ],
      { screenshotDir: ARTIFACTS },
    );
    ChatSession.save(played, path.join(ARTIFACTS, 'session.json'));
    await vsc.screenshot(path.join(ARTIFACTS, 'session-end.png'));

    // Offered with no set-up: VS Code started the server when the request was sent (chat.mcp.autostart).
    assert.equal(played.request.hasToolInvocationToken, true);
    for (const tool of TOOLS) {
      assert.ok(played.request.offered.some((name) => name.startsWith('mcp_') && name.endsWith(`_${tool}`)), `${tool} is offered to the model (offered: ${played.request.offered.join(', ')})`);
    }
    assert.deepEqual(played.notOffered, []);

    const runs = played.calls.filter((c) => isOurs(c, 'terminal_run'));
    assert.equal(runs.length, COMMANDS.length + 1);
    for (const [i, command] of COMMANDS.entries()) {
      const call = runs[i]!;
      assert.equal(call.error, undefined, call.error);
      const result = runResult(call);
      assert.equal(result.status, 'completed', `${command.command}: ${call.text}`);
      assert.equal(result.exitCode, command.exitCode, command.command);
      assert.match(result.output, command.output, command.command);
    }
    const asked = runResult(runs[COMMANDS.length]!);
    assert.equal(asked.status, 'waiting_for_input', runs[COMMANDS.length]!.text);
    assert.equal(asked.prompt, 'Deploy? [y/N]');
    const input = played.calls.find((c) => isOurs(c, 'terminal_input'))!;
    const answered = runResult(input);
    assert.equal(answered.status, 'completed', input.text);
    assert.match(answered.output, /answer=y$/);

    // No result review, ever; no modal dialog.
    assert.deepEqual(played.confirmations.filter((c) => c.kind !== 'approve').map((c) => c.title), []);
    // terminal_run: asked once; its primary button allows it for the session, so the next five ran at once.
    assert.deepEqual(runs.map((c) => c.confirmations.length), [1, 0, 0, 0, 0, 0]);
    assert.equal(runs[0]!.confirmations[0]!.clicked, 'Allow in this Session');
    assert.match(runs[0]!.confirmations[0]!.title, /Run Terminal Command/);
    // terminal_input is a tool of its own: asked once too.
    assert.equal(input.confirmations.length, 1);

    // Reading tools never ask. (What terminal_list, list_processes and workspace_info answer VS Code's client is
    // the business of the tool tests; here: that they ran with no confirmation and our server answered.)
    for (const tool of ['terminal_state', 'terminal_list', 'list_processes', 'workspace_info']) {
      const call = played.calls.find((c) => isOurs(c, tool));
      assert.ok(call, `${tool} was called`);
      assert.deepEqual(call.confirmations, [], `${tool} ran without a confirmation`);
      assert.equal(call.error, undefined, call.error);
      assert.ok(call.text, `${tool} answered`);
    }
    const state = runResult(played.calls.find((c) => isOurs(c, 'terminal_state'))!);
    assert.equal(state.command, COMMANDS.at(-1)!.command);

    // Killing still asks, even with terminal_run allowed for the session; the pid it does not own is refused.
    for (const tool of ['kill_process', 'kill_orphans']) {
      const call = played.calls.find((c) => isOurs(c, tool))!;
      assert.deepEqual(call.confirmations.map((c) => c.kind), ['approve'], tool);
      assert.ok(call.text, `${tool} answered`);
    }
    assert.equal(played.confirmations.length, 4, JSON.stringify(played.confirmations.map((c) => c.title)));
  });

  it("side by side: the same five commands through VS Code's own run_in_terminal ask at least as often", async () => {
    const own = await chat.play(
      'Run the same five commands with the built-in terminal tool.',
      [
        ...COMMANDS.map((c) => ({ calls: [{ tool: 'run_in_terminal', input: { command: c.command, explanation: 'Session test', goal: 'Session test', mode: 'sync' } }] })),
        { text: 'Done.' },
      ],
      { screenshotDir: path.join(ARTIFACTS, 'run_in_terminal') },
    );
    ChatSession.save(own, path.join(ARTIFACTS, 'run_in_terminal.json'));
    const calls = own.calls.filter((c) => c.tool === 'run_in_terminal');
    assert.equal(calls.length, COMMANDS.length);
    for (const call of calls) assert.equal(call.error, undefined, call.error);
    const theirs = calls.reduce((n, c) => n + c.confirmations.length, 0);
    const ours = played.calls.filter((c) => isOurs(c, 'terminal_run')).slice(0, COMMANDS.length).reduce((n, c) => n + c.confirmations.length, 0);
    console.log(`      confirmations for ${COMMANDS.length} commands: terminal_run ${ours}, run_in_terminal ${theirs}`);
    assert.ok(ours <= theirs, `terminal_run asked ${ours} times, run_in_terminal ${theirs}`);
  });

  it('with VS Code\'s defaults there is nothing to set up, and no notification says otherwise', async () => {
    const log = newestLog(vsc);
    assert.ok(log, 'Terminal Shepherd wrote its log');
    assert.match(readFileSync(log, 'utf8'), /Copilot: no set-up needed: VS Code starts the server with the first agent-mode request/);
    await vsc.driver.evaluate(`await vscode.commands.executeCommand('notifications.showList');`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await vsc.page.locator('.notifications-center .notification-list-item', { hasText: /chat\.mcp|Copilot/ }).count(), 0);
    await vsc.driver.evaluate(`await vscode.commands.executeCommand('notifications.hideList');`);
  });

  it('the agent tool picker lists Terminal Shepherd and its tools (the README screenshot)', async () => {
    const rows = await chat.screenshotToolPicker(readmeScreenshot('copilot-tools.png'), 'Terminal Shepherd');
    assert.ok(rows.some((r) => /Terminal Shepherd/.test(r)), rows.join(' | '));
    const labels = rows.map((r) => r.split(',')[0]!.trim());
    for (const tool of TOOLS) assert.ok(labels.includes(tool), `${tool} in the picker: ${labels.join(', ')}`);
  });
});

describe('Copilot with chat.mcp.autostart "never": the first-run notification offers the one step left', function () {
  this.timeout(300_000);
  let vsc: VsCode;
  let chat: ChatSession;
  let failed = false;
  const runOnce = [{ calls: [{ tool: 'terminal_run', input: { command: 'echo started by the user' } }] }, { text: 'Done.' }];

  /** A notification, as a toast or in the notification center (a toast may have hidden already). */
  const notification = (text: RegExp) => vsc.page.locator('.notification-list-item:visible', { hasText: text });
  const NEVER = /chat\.mcp\.autostart is "never"/;

  before(async function () {
    this.timeout(900_000);
    await ensureVsCode();
    vsc = await launchVsCode({
      workspace: makeWorkspace(),
      settings: { ...E2E_SETTINGS, 'chat.mcp.autostart': 'never' },
      label: 'copilot-never',
      vsix: [installableVsix()],
      ...scriptedChatLaunch([]),
    });
    chat = new ChatSession(vsc);
    await chat.ready();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await vsc?.screenshot(path.join(ARTIFACTS, `never-failed-${Date.now()}.png`)).catch(() => undefined);
    }
  });
  after(async () => {
    await vsc?.stop({ failed });
  });

  it('without the step, agent mode is not offered the tools (what the notification is for)', async () => {
    const played = await chat.play('Run it.', runOnce);
    assert.ok(!played.request.offered.some((t) => t.endsWith('_terminal_run')), played.request.offered.join(', '));
    assert.deepEqual(played.notOffered, ['terminal_run']);
  });

  it('the notification says why and its Start Server button makes the tools live', async () => {
    await vsc.driver.evaluate(`await vscode.commands.executeCommand('notifications.showList');`);
    const item = notification(NEVER).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await vsc.screenshot(path.join(ARTIFACTS, 'first-run-notification.png'));
    await item.locator('.monaco-button', { hasText: 'Start Server' }).click();
    const live = await waitFor('the tools to be live after Start Server', 60_000, async () => {
      const names = await vsc.driver.evaluate<string[]>(`return vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('mcp_'));`);
      return names.some((n) => n.endsWith('_terminal_run')) ? names : undefined;
    });
    assert.equal(live.length, TOOLS.length, live.join(', '));
    await notification(/tools are ready for Copilot agent mode/).first().waitFor({ state: 'visible', timeout: 15_000 });
    const played = await chat.play('Run it now.', runOnce);
    const run = played.calls.find((c) => isOurs(c, 'terminal_run'));
    assert.equal(runResult(run!).output, 'started by the user');
  });

  it('is shown once: after a window reload the log says it, no notification does', async () => {
    const before = newestLog(vsc);
    await vsc.reloadWindow();
    const logged = await waitFor("the new window's log line", 30_000, () => {
      const log = newestLog(vsc);
      return log && log !== before && NEVER.test(readFileSync(log, 'utf8')) ? log : undefined;
    });
    assert.ok(logged);
    await vsc.driver.evaluate(`await vscode.commands.executeCommand('notifications.showList');`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(await notification(NEVER).count(), 0);
  });
});
