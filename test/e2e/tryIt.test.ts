// Terminal Shepherd for a person with no agent at hand, in a real VS Code (code-server) driven
// like a user with playwright: "Run a Command…" from the palette (the result opens exactly as a
// model gets it, and it is the same run terminal_state reports to an MCP client), a cancel, a
// dev server from a walkthrough link with its URL, the Getting Started walkthrough, and "Connect
// an MCP Client…" (the clients this home shows signs of, a project file written and opened, the
// JSON for any other client). It takes the walkthrough's pictures (run-command.png,
// processes.png, dev-server.png, connect-client.png) and docs/clients.md's walkthrough.png
// (test-results/screenshots/; `npm run screenshots` updates media/walkthrough/ and media/screenshots/).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TerminalRunResult } from '../../common/src/protocol';
import { readmeScreenshot, walkthroughPicture } from '../support/screenshots';
import { alive, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';
import { TempDirs } from '../support/tempDirs';
import type { Page } from 'playwright-core';
import { pickRow, pickRows, quickInput, runFromPalette, toast } from '../support/workbench';

const homes = new TempDirs();

type ResultDoc = { text: string; structured: TerminalRunResult & { ledger?: unknown } };

/** The newest result document Run a Command opened, once it is the one `wanted` describes: its markdown, and the structured JSON in it. */
async function lastResult(win: ReturnType<typeof suiteWindow>, what: string, wanted: (doc: ResultDoc) => boolean = () => true): Promise<ResultDoc> {
  return waitFor(`the result document of ${what}`, 60_000, async () => {
    const text = await win.vscode.driver.evaluate<string | undefined>(`
      const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'terminal-shepherd-result');
      return docs.sort((a, b) => a.uri.path.localeCompare(b.uri.path, undefined, { numeric: true })).pop()?.getText();
    `);
    const json = text ? /```json\n([\s\S]*?)\n```/.exec(text) : undefined;
    if (!text || !json) return undefined;
    const doc = { text, structured: JSON.parse(json[1]!) as ResultDoc['structured'] };
    return wanted(doc) ? doc : undefined;
  });
}

/** Run a Command from the palette: type the command, press Enter. */
async function runTyped(page: Page, command: string): Promise<void> {
  await runFromPalette(page, 'Terminal Shepherd: Run a Command');
  const input = quickInput(page).locator('input');
  await input.fill(command);
  await page.keyboard.press('Enter');
}

describe('Terminal Shepherd without an agent: Run a Command, a dev server, the walkthrough, Connect an MCP Client (real VS Code)', function () {
  this.timeout(180_000);
  let home = '';
  const win = suiteWindow(
    () => {
      // A home where Claude Code and Gemini CLI have left their folders: the picker finds them.
      home = homes.make('tshep-try-home-');
      writeFileSync(path.join(home, '.claude.json'), '{}\n');
      mkdirSync(path.join(home, '.gemini'));
      return openShepherdWindow({ label: 'try-it', settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden' }, launch: { env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TERMINAL_SHEPHERD_HOME: path.join(home, '.terminal-shepherd') } } });
    },
    () => homes.cleanup(),
  );
  const page = () => win.vscode.page;
  const clean = async (): Promise<void> => {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('notifications.clearAll')`);
    await page().mouse.move(700, 300);
  };

  it('Run a Command from the palette: the result opens beside the editor as a model gets it, and it is the run terminal_state reports', async () => {
    await runFromPalette(page(), 'Terminal Shepherd: Run a Command');
    await quickInput(page()).getByText('Enter: run (wait until it has finished: exit code and output). The buttons above wait differently.').waitFor({ timeout: 10_000 });
    const buttons = await quickInput(page()).locator('.quick-input-titlebar .action-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    assert.ok(buttons.some((b) => b.startsWith('Run as a dev server or watcher')) && buttons.some((b) => b.startsWith('Run in the background')), buttons.join('\n'));
    await quickInput(page()).locator('input').fill(`printf 'hello %s\\n' shepherd; (exit 3)`);
    await page().keyboard.press('Enter');
    const { text, structured } = await lastResult(win, 'printf', (d) => d.structured.command?.startsWith('printf') === true);
    assert.deepEqual({ status: structured.status, exitCode: structured.exitCode, output: structured.output, name: structured.name }, { status: 'completed', exitCode: 3, output: 'hello shepherd', name: 'default' });
    assert.match(text, /^# terminal_run \{"command":"printf 'hello %s\\\\n' shepherd; \(exit 3\)"\}\n/);
    assert.match(text, /## Text content[\s\S]*```text\ncompleted · exit code 3 · .* · terminal "default" \(shell pid \d+, strategy \w+\)\n\$ printf[\s\S]*--- output ---\nhello shepherd\n```/);
    assert.deepEqual(structured.ledger, { runningTotal: 0, orphanedTotal: 0 }, 'the ledger summary a model gets');
    // The same run, as an MCP client asks about it: one pipeline, one result.
    // The safety decision belongs to the call that typed the command, so only that call carries it.
    assert.equal(structured.safety?.decision, 'approved', JSON.stringify(structured.safety));
    const { ledger: _a, ...state } = await win.run('terminal_state', { name: 'default' });
    const { ledger: _b, safety: _c, ...shown } = structured;
    assert.deepEqual(shown, state);
    await toast(page(), /exit code 3/).waitFor({ timeout: 10_000 });
    await page().mouse.move(700, 300);
    await win.vscode.screenshot(walkthroughPicture('run-command.png'));
  });

  it("Cancel on the progress notification is the person's stop: Ctrl+C through terminal_input, the process is gone, terminal_state reports exit code 130, no 'stopped waiting' notice", async () => {
    await clean();
    await runTyped(page(), 'sleep 41');
    const sleeper = await waitFor('sleep 41 to run', 15_000, async () => {
      const pids = (await win.vscode.processes()).filter((p) => p.cmdline === 'sleep 41').map((p) => p.pid);
      return pids[0];
    });
    await toast(page(), 'Terminal Shepherd: sleep 41').locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 10_000 });
    // The call answers nothing once cancelled; the document shows what terminal_state reports next.
    const after = await lastResult(win, 'terminal_state after the cancel', (d) => d.text.startsWith('# terminal_state'));
    assert.match(after.text, /^# terminal_state \{"name":"default","wait":true,"timeout":10000\}\n\nYou cancelled terminal_run \{"command":"sleep 41"\}: the call ended without a result, .*, and Run a Command then stopped it with terminal_input "\\u0003"\. /);
    assert.deepEqual({ command: after.structured.command, exitCode: after.structured.exitCode }, { command: 'sleep 41', exitCode: 130 });
    await waitFor('sleep 41 to be gone', 10_000, () => !alive(sleeper));
    // The notice that an agent stopped waiting is for commands that go on; this one was stopped.
    assert.equal(await toast(page(), /stopped waiting/).count(), 0, 'no stopped-waiting notification');
  });

  it("a walkthrough link starts a command in the background; the Processes view shows it under its terminal", async () => {
    await clean();
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.runCommand', { command: 'sleep 300', waitMode: 'background', name: 'walkthrough' })`);
    await lastResult(win, 'sleep 300', (d) => d.structured.command === 'sleep 300' && d.structured.status === 'running');
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.processes.focus')`);
    const row = page().locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: /^sleep/ });
    await row.first().waitFor({ timeout: 15_000 });
    const sleeper = (await win.vscode.processes()).find((p) => p.cmdline === 'sleep 300');
    assert.ok(sleeper, 'sleep 300 runs');
    await clean();
    await win.vscode.screenshot(walkthroughPicture('processes.png'));
    await win.run('kill_process', { pid: sleeper.pid }).catch(() => undefined);
    await waitFor('sleep 300 to be gone', 10_000, () => !alive(sleeper.pid));
  });

  it('a walkthrough link starts a dev server: the result carries its URL, which answers', async () => {
    await clean();
    await win.vscode.driver.evaluate(`void vscode.commands.executeCommand('terminalShepherd.runCommand', { command: 'python3 -m http.server 0 --bind 127.0.0.1', waitMode: 'ready', name: 'web' })`);
    const note = toast(page(), /python3 -m http\.server 0 --bind 127\.0\.0\.1: running/);
    await note.waitFor({ timeout: 60_000 });
    const { structured } = await lastResult(win, 'the dev server', (d) => d.structured.command?.startsWith('python3') === true);
    assert.equal(structured.status, 'running');
    const url = structured.ready?.urls[0] ?? assert.fail(JSON.stringify(structured));
    assert.match(url, /^http:\/\/(localhost|127\.0\.0\.1):\d+\/$/);
    assert.equal((await fetch(url)).status, 200);
    await note.locator('.monaco-button', { hasText: 'Open URL' }).waitFor();
    await page().mouse.move(700, 300);
    await win.vscode.screenshot(walkthroughPicture('dev-server.png'));
    await win.run('terminal_input', { name: 'web', text: '\u0003' });
  });

  it('the Getting Started walkthrough has its four steps', async () => {
    await clean();
    await win.vscode.driver.evaluate(`
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closePanel');
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'terminal-shepherd.terminal-shepherd#gettingStarted', false);
    `);
    const titles = page().locator('.getting-started-step .step-title');
    await waitFor('the walkthrough steps', 20_000, async () => ((await titles.count()) >= 4 ? true : undefined));
    assert.deepEqual(await titles.allInnerTexts(), ['Run a command the way an agent does', 'Watch what it leaves running', 'Start a dev server and see its URL', 'Connect your MCP client']);
    await page().mouse.move(1300, 120); // no hover highlight on a step
    await win.vscode.screenshot(readmeScreenshot('walkthrough.png'));
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('workbench.action.closeAllEditors')`);
  });

  it('Connect an MCP Client: the clients found first; a project file is written and opened; any other client gets the JSON', async () => {
    await clean();
    await runFromPalette(page(), 'Terminal Shepherd: Connect an MCP Client');
    await pickRow(page(), 'Claude Code').first().waitFor({ timeout: 10_000 });
    const rows = await pickRows(page());
    assert.match(rows[0] ?? '', /^Claude Code, found: ~\/\.claude\.json exists, Check with: claude mcp list, Found on this machine$/);
    assert.match(rows[1] ?? '', /^Gemini CLI, found: ~\/\.gemini exists/);
    assert.deepEqual(rows.slice(2).map((r) => r.split(',')[0]), ['VS Code agents and Copilot CLI', 'Codex', 'Cursor', 'Cline', 'Continue', 'opencode', 'Any other MCP client (JSON)']);
    await page().mouse.move(700, 700);
    await win.vscode.screenshot(walkthroughPicture('connect-client.png'));
    await pickRow(page(), 'Cursor').first().click();
    await pickRow(page(), 'Project: this folder').first().click({ timeout: 10_000 });
    const file = path.join(win.workspace, '.cursor', 'mcp.json');
    const entry = await waitFor('.cursor/mcp.json', 10_000, () => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')).mcpServers['terminal-shepherd'] as unknown;
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(entry, { command: '${userHome}/.terminal-shepherd/bin/terminal-shepherd-mcp', args: ['--workspace', '${workspaceFolder}'] });
    await page().locator('.tabs-container .tab[aria-label*="mcp.json"]').waitFor({ timeout: 10_000 });
    await toast(page(), /Cursor connected: Terminal Shepherd's entry is in .*mcp\.json/).waitFor({ timeout: 10_000 });

    await page().context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(win.vscode.url).origin });
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.connectClient', { client: 'json' })`);
    const copied = await win.vscode.driver.evaluate<string>('return vscode.env.clipboard.readText()');
    assert.deepEqual(JSON.parse(copied), { mcpServers: { 'terminal-shepherd': { command: path.join(home, '.terminal-shepherd', 'bin', 'terminal-shepherd-mcp'), args: [] } } });
  });
});
