// What a VS Code user sees of the process ledger, in a real VS Code (code-server) driven like a
// user with playwright: the command palette, the Show Processes pick and its item buttons, the
// Processes view and its context menu, the status bar item, and the orphan notifications after a
// restart under each policy. Processes are started the way an agent starts them: through the MCP
// tools (MCP client -> dist/mcp-server.js -> bridge -> extension -> terminal).
//
// The screenshots it takes are the README's: show-processes.png, processes-view.png and
// orphans.png (test-results/screenshots/; `npm run screenshots` updates media/screenshots/).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openProcessesView, pickRow, pickRows, quickInput, runFromPalette, toast, viewRows, widenSideBar } from '../support/workbench';
import type { ListProcessesResult } from '../../common/src/protocol';
import { connectMcpServer, repoRoot, type McpSession } from '../support/mcpClient';
import { toolText } from '../support/mcpClient';
import { readmeScreenshot } from '../support/screenshots';
import { alive, flatten, ledgerEvents, openShepherdWindow, waitFor, type ShepherdWindow } from '../support/shepherdE2e';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';

/** An age as the UI writes it: "12s", "3m", "2h 5m". */
const AGE = '\\d+[smhd](?: \\d+[smhd])?';
/** What a process costs, after its age (Linux: from the second poll on). */
const COST = '(?: · \\d+% CPU)?(?: · [\\d.]+ [KMGT]?B)?(?: · waiting for terminal input)?';

/** The view title's Kill Orphans button (a single view's title merges into the container's). */
const killOrphansTitleAction = (page: Page): Locator => page.locator('.part.sidebar .composite.title .title-actions .action-label[aria-label="Kill Orphans"]');

const statusItem = (page: Page): Locator => page.locator('.part.statusbar .statusbar-item[id$="terminalShepherd.processes"]');

describe('what a VS Code user sees: Show Processes, the Processes view, the status bar, orphans (real VS Code)', function () {
  this.timeout(240_000);
  let win: ShepherdWindow;
  let mcp: McpSession;
  let failed = false;
  const timings: Record<string, number> = {};
  const leftovers: number[] = [];

  const page = (): Page => win.vscode.page;
  async function tool<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    assert.notEqual(result.isError, true, `${name}: ${toolText(result as never)}`);
    return result.structuredContent as T;
  }
  const processes = async (): Promise<ListProcessesResult> => tool<ListProcessesResult>('list_processes', {});

  /** No earlier notification, transient status message or hover in a README picture. */
  async function cleanForScreenshot(): Promise<void> {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('notifications.clearAll')`);
    await waitFor('transient status bar messages to go', 5000, async () => !(await page().locator('.part.statusbar').innerText()).includes('Copied'));
    await page().mouse.move(700, 300);
  }

  before(async function () {
    this.timeout(900_000);
    await ensureVsCode();
    const t0 = Date.now();
    win = await openShepherdWindow({
      label: 'ui',
      // No chat side bar: the screenshots show what this extension adds.
      settings: { 'terminalShepherd.processes.orphanPolicy': 'report', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
    });
    timings['open VS Code with the extension'] = Date.now() - t0;
    mcp = win.mcp;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await win?.vscode.screenshot(path.join(repoRoot, 'test-results', `ui-failed-${Date.now()}.png`)).catch(() => undefined);
    }
  });
  after(async () => {
    if (mcp !== win?.mcp) await mcp?.close().catch(() => undefined);
    await win?.stop(failed);
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    console.log(`      timings (ms): ${JSON.stringify(timings)}`);
  });

  let port = 0;
  let serverPid = 0;
  let sleepPid = 0;
  let timeoutPid = 0;
  let timeoutChildPid = 0;

  it('the Processes view welcomes the user while nothing is tracked', async () => {
    await openProcessesView(page());
    const welcome = page().locator('.part.sidebar .welcome-view-content');
    await welcome.waitFor({ timeout: 10_000 });
    assert.match(await welcome.innerText(), /No process is tracked yet/);
    assert.ok(await welcome.locator('.monaco-button', { hasText: 'Show Log' }).isVisible());
    await widenSideBar(page());
  });

  it('Show Processes lists what the agent started, grouped by terminal, with ports and nested children', async () => {
    const web = await win.run('terminal_run', { command: 'python3 -u -m http.server 0 --bind 127.0.0.1', name: 'web', waitMode: 'background' });
    port = Number(await waitFor('the server to print its port', 15_000, async () => /port (\d+)/.exec((await win.run('terminal_state', { name: 'web' })).output)?.[1]));
    const jobs = await win.run('terminal_run', { command: 'sleep 300 &', name: 'jobs' });
    await win.run('terminal_run', { command: 'timeout 600 sleep 601 &', name: 'jobs' });
    const found = await waitFor('the server, the sleep and the timeout tree in list_processes', 20_000, async () => {
      const all = flatten((await processes()).active);
      const server = all.find((p) => p.name.startsWith('python') && p.ports.includes(port));
      const sleeper = all.find((p) => p.commandLine === 'sleep 300');
      const timeout = all.find((p) => p.name === 'timeout');
      const child = timeout?.children?.find((c) => c.commandLine === 'sleep 601');
      return server && sleeper && timeout && child ? { server, sleeper, timeout, child } : undefined;
    });
    serverPid = found.server.pid;
    sleepPid = found.sleeper.pid;
    timeoutPid = found.timeout.pid;
    timeoutChildPid = found.child.pid;
    leftovers.push(serverPid, sleepPid, timeoutPid, timeoutChildPid);

    const t0 = Date.now();
    await runFromPalette(page(), 'Terminal Shepherd: Show Processes');
    await pickRow(page(), `pid ${timeoutChildPid}`).waitFor({ timeout: 10_000 });
    timings['palette to Show Processes rows'] = Date.now() - t0;
    const rows = await pickRows(page());
    const row = (pid: number): string => rows.find((r) => r.includes(`pid ${pid} `) || r.includes(`pid ${pid},`)) ?? '';
    // The web server's URL row comes first under its terminal (carrying the separator), then the server.
    assert.ok(rows.includes(`http://localhost:${port}/, dev server: Enter opens it in the browser, web · shell pid ${web.pid}`), rows.join('\n'));
    assert.match(row(serverPid), new RegExp(`^python[\\d.]*, pid ${serverPid} · :${port} · ${AGE}${COST}, .*http\\.server 0 --bind 127\\.0\\.0\\.1$`));
    assert.match(row(sleepPid), new RegExp(`^sleep, pid ${sleepPid} · ${AGE}${COST}, sleep 300, jobs · shell pid ${jobs.pid}$`), 'first of its terminal: carries the separator');
    assert.match(row(timeoutPid), new RegExp(`^timeout, pid ${timeoutPid} · ${AGE}${COST}, timeout 600 sleep 601$`));
    assert.match(row(timeoutChildPid), new RegExp(`^└\\u2002sleep, pid ${timeoutChildPid} · ${AGE}${COST}, sleep 601$`), 'the child is nested under its parent');
    assert.ok(rows.indexOf(row(timeoutChildPid)) === rows.indexOf(row(timeoutPid)) + 1, rows.join('\n'));
    await page().mouse.move(700, 700); // no pointer over the list in the picture
    await win.vscode.screenshot(readmeScreenshot('show-processes.png'));

    // Filtering by port finds the server and its URL (descriptions are searched).
    await quickInput(page()).locator('input').fill(`:${port}`);
    await waitFor('the filter to keep only the server and its URL', 5000, async () => {
      const filtered = await pickRows(page());
      return filtered.length === 2 && filtered.some((r) => r.includes(`pid ${serverPid}`)) && filtered.some((r) => r.startsWith(`http://localhost:${port}/`));
    });
    await quickInput(page()).locator('input').fill('');
  });

  it('killing from the item button ends the process, says what died, and refreshes the pick in place', async () => {
    const target = pickRow(page(), `pid ${sleepPid} `);
    await target.hover();
    const t0 = Date.now();
    await target.locator('a.action-label[aria-label="Kill Process Tree"]').click();
    await waitFor('the sleep to die', 10_000, () => !alive(sleepPid));
    timings['kill button to process gone'] = Date.now() - t0;
    await toast(page(), `Killed sleep (pid ${sleepPid}).`).waitFor({ timeout: 10_000 });
    await waitFor('its row to leave the open pick', 5000, async () => (await quickInput(page()).isVisible()) && !(await pickRows(page())).some((r) => r.includes(`pid ${sleepPid} `)));
    timings['kill button to row gone'] = Date.now() - t0;
    assert.ok((await pickRows(page())).some((r) => r.includes(`pid ${serverPid}`)), 'the others stay listed');
    await waitFor('a killed event in process-log.jsonl', 5000, () => ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === sleepPid));
    assert.ok(!flatten((await processes()).active).some((p) => p.pid === sleepPid), 'list_processes no longer lists it');
    assert.equal(alive(serverPid), true);
    await page().keyboard.press('Escape');
  });

  it('accepting a process offers its actions; Copy Command Line copies it', async () => {
    await runFromPalette(page(), 'Terminal Shepherd: Show Processes');
    await pickRow(page(), `pid ${serverPid}`).click();
    await quickInput(page()).locator('.quick-input-title', { hasText: `(pid ${serverPid}, :${port})` }).waitFor({ timeout: 5000 });
    const actions = await pickRows(page());
    assert.deepEqual(
      actions.map((a) => a.split(',')[0]),
      ['Kill Process Tree', 'Reveal Terminal', 'Copy Command Line'],
    );
    // Headless Chromium lets a page use the clipboard only when allowed, as a browser asks a user.
    await page().context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(win.vscode.url).origin });
    await pickRow(page(), 'Copy Command Line').click();
    await waitFor('the command line on the clipboard', 5000, async () =>
      /http\.server 0 --bind 127\.0\.0\.1$/.test(await win.vscode.driver.evaluate<string>('return vscode.env.clipboard.readText()', { timeoutMs: 5000 })),
    );
  });

  it('the Processes view shows the same processes under their terminals and follows changes live', async () => {
    await openProcessesView(page());
    const rowsOf = async () => (await viewRows(page())).map(([level, label]) => `${level} ${label}`);
    await waitFor('the view to list the server and the timeout tree', 10_000, async () => {
      const rows = (await rowsOf()).join('\n');
      return rows.includes(`pid ${serverPid}`) && rows.includes(`pid ${timeoutChildPid}`) ? rows : undefined;
    });
    const rows = await rowsOf();
    const at = (needle: string): string => rows.find((r) => r.includes(needle)) ?? `(no row with ${needle})`;
    assert.match(at('Terminal web'), new RegExp(`^1 Terminal web, shell pid \\d+ · http://localhost:${port}/ · python[\\d.]* -u -m http\\.server`));
    assert.equal(at('Dev server URL'), `2 Dev server URL http://localhost:${port}/, in terminal web`, 'the server started in background mode shows its URL');
    assert.match(at(`pid ${serverPid}`), new RegExp(`^2 python[\\d.]*, pid ${serverPid} · :${port} · ${AGE}${COST}$`));
    assert.match(at('Terminal jobs'), /^1 Terminal jobs, shell pid \d+/);
    assert.match(at(`pid ${timeoutPid}`), new RegExp(`^2 timeout, pid ${timeoutPid} · ${AGE}${COST}$`));
    assert.match(at(`pid ${timeoutChildPid}`), new RegExp(`^3 sleep, pid ${timeoutChildPid} · ${AGE}${COST}$`), 'children nest under their parent');
    assert.ok(!rows.some((r) => r.includes(`pid ${sleepPid}`)), 'the killed sleep is gone');

    // A process the agent starts now shows up without the user doing anything.
    const t0 = Date.now();
    await win.run('terminal_run', { command: 'sleep 303 &', name: 'jobs' });
    const late = await waitFor('the new sleep in the view', 10_000, async () => (await rowsOf()).find((r) => / sleep, pid \d+/.test(r) && !r.includes(`pid ${timeoutChildPid}`)));
    timings['terminal_run returned to row in view'] = Date.now() - t0;
    leftovers.push(Number(/pid (\d+)/.exec(late)![1]));
    await cleanForScreenshot();
    await win.vscode.screenshot(readmeScreenshot('processes-view.png'));
  });

  it('the status bar counts the running processes and opens Show Processes', async () => {
    const running = flatten((await processes()).active).length;
    const item = statusItem(page());
    await waitFor(`the status bar to say ${running} running`, 5000, async () => (await item.getAttribute('aria-label')) === `Terminal Shepherd: ${running} running processes, 1 dev server`);
    assert.match((await item.innerText()).trim(), new RegExp(`^${running}\\s+1$`), 'the processes, then the dev servers');
    assert.ok(!(await item.getAttribute('class'))?.includes('warning-kind'), 'no warning colours without orphans');
    await item.click();
    await pickRow(page(), `pid ${serverPid}`).waitFor({ timeout: 10_000 });
    await page().keyboard.press('Escape');
  });

  it("the view's context menu kills a process tree (parent and child)", async () => {
    const row = page().locator(`.pane-body .monaco-list-row[role="treeitem"][aria-label*="pid ${timeoutPid} "]`);
    await row.click({ button: 'right' });
    const item = page().locator('.context-view .monaco-menu .action-item', { hasText: 'Kill Process Tree' });
    await item.hover();
    await page().waitForTimeout(100); // a menu ignores the mouse for a moment after it opens
    await item.click();
    await waitFor('timeout and its sleep to die', 10_000, () => !alive(timeoutPid) && !alive(timeoutChildPid));
    await toast(page(), `Killed timeout (pid ${timeoutPid}) and sleep (pid ${timeoutChildPid}).`).waitFor({ timeout: 10_000 });
    await waitFor('the rows to leave the view', 5000, async () => !(await viewRows(page())).some(([, l]) => l.includes(`pid ${timeoutPid}`) || l.includes(`pid ${timeoutChildPid}`)));
  });

  /** Leaves a process running that survives VS Code quitting, restarts VS Code, reconnects MCP. */
  async function leaveOrphanAndRestart(seconds: number, policy: 'report' | 'ask' | 'kill'): Promise<number> {
    await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('processes.orphanPolicy', '${policy}', vscode.ConfigurationTarget.Global);`);
    await tool('terminal_run', { command: `nohup sleep ${seconds} >/dev/null 2>&1 &`, name: 'survivor' });
    const survivor = await waitFor(`the nohup sleep ${seconds} in the ledger`, 15_000, async () => flatten((await processes()).active).find((p) => p.commandLine === `sleep ${seconds}`));
    leftovers.push(survivor.pid);
    await waitFor('active-processes.json to hold it', 5000, () =>
      JSON.parse(readFileSync(path.join(win.workspace, '.devtools', 'active-processes.json'), 'utf8')).entries.some((e: { pid: number }) => e.pid === survivor.pid),
    );
    const bridgeFile = path.join(win.workspace, '.devtools', 'bridge.json');
    const oldWindow = JSON.parse(readFileSync(bridgeFile, 'utf8')).pid;
    await mcp.close();
    const t0 = Date.now();
    await win.vscode.restart();
    await waitFor('the new window to advertise its bridge', 60_000, () => existsSync(bridgeFile) && JSON.parse(readFileSync(bridgeFile, 'utf8')).pid !== oldWindow);
    // It outlived the old window and the new one adopted it (with policy kill, it may be dead already).
    await waitFor('the new window to log it as orphaned', 10_000, () => ledgerEvents(win.workspace).some((e) => e.event === 'orphaned' && e.pid === survivor.pid));
    timings[`restart (${policy})`] = Date.now() - t0;
    mcp = await connectMcpServer({ workspace: win.workspace });
    return survivor.pid;
  }

  it('after a restart (policy report): a notification names the orphan; the status bar warns; Kill Orphans confirms and kills it', async () => {
    const orphan = await leaveOrphanAndRestart(310, 'report');
    const note = toast(page(), `still alive: sleep (pid ${orphan})`);
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.innerText(), /1 process that an earlier window left running is still alive: sleep \(pid \d+\)\./);
    for (const button of ['Show Processes', 'Kill Orphans']) await note.locator('.monaco-button', { hasText: button }).waitFor();

    const item = statusItem(page());
    await waitFor('the status bar to count the orphan', 10_000, async () => (await item.getAttribute('aria-label'))?.endsWith('1 orphaned process'));
    assert.match(await item.getAttribute('class') ?? '', /warning-kind/, 'warning colours');

    await openProcessesView(page());
    await waitFor('the Orphans group in the view', 10_000, async () => {
      const rows = await viewRows(page());
      return rows.some(([l, label]) => l === 1 && label.startsWith('Orphans')) && rows.some(([l, label]) => l === 2 && label.includes(`pid ${orphan}`) && label.includes('orphaned'));
    });
    await killOrphansTitleAction(page()).waitFor({ timeout: 5000 }); // context key: only with orphans
    await page().mouse.move(700, 300); // no hover highlight (the notification stays: it is the subject)
    await win.vscode.screenshot(readmeScreenshot('orphans.png'));

    await runFromPalette(page(), 'Terminal Shepherd: Kill Orphans');
    const dialog = page().locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 10_000 });
    assert.match(await dialog.innerText(), new RegExp(`Kill 1 orphaned process\\?[\\s\\S]*sleep \\(pid ${orphan}\\), started in terminal "survivor"`));
    await dialog.locator('.monaco-button', { hasText: /^Kill$/ }).click();
    await waitFor('the orphan to die', 10_000, () => !alive(orphan));
    await toast(page(), `Killed sleep (pid ${orphan}).`).waitFor({ timeout: 10_000 });
    assert.ok(ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === orphan && e.reason === 'orphan_cleanup'));
    await waitFor('the status bar to hide (nothing tracked)', 5000, async () => !(await item.isVisible()));
    await killOrphansTitleAction(page()).waitFor({ state: 'detached', timeout: 5000 });
  });

  it('after a restart (policy ask): "Kill them?" with Kill / Keep; Kill kills without a second question', async () => {
    const orphan = await leaveOrphanAndRestart(311, 'ask');
    const note = toast(page(), /Kill them\?/);
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.innerText(), new RegExp(`sleep \\(pid ${orphan}\\)`));
    await note.locator('.monaco-button', { hasText: 'Keep' }).waitFor();
    await note.locator('.monaco-button', { hasText: /^Kill$/ }).click();
    await waitFor('the orphan to die', 10_000, () => !alive(orphan));
    await toast(page(), `Killed sleep (pid ${orphan}).`).waitFor({ timeout: 10_000 });
  });

  it('after a restart (policy kill): orphans are killed at once and the user is told', async () => {
    const orphan = await leaveOrphanAndRestart(312, 'kill');
    await toast(page(), `Killed sleep (pid ${orphan}).`).waitFor({ timeout: 30_000 });
    assert.equal(alive(orphan), false);
    assert.ok(ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === orphan && e.reason === 'orphan_cleanup'));
  });

  it('a failing action shows an error with Show Log, which opens the log', async () => {
    // pid 1 is not the ledger's: the kill is refused. (The row actions pass a pid the same way.)
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.killProcessTree', 1)`);
    const error = toast(page(), /Could not kill pid 1: pid 1 is not a process Terminal Shepherd started/);
    await error.waitFor({ timeout: 10_000 });
    assert.equal(alive(1), true);
    await error.locator('.monaco-button', { hasText: 'Show Log' }).click();
    await waitFor('the Output panel showing the Terminal Shepherd channel', 10_000, async () => {
      const selected = await page()
        .locator('.part.panel select')
        .evaluateAll((selects) => selects.map((s) => (s as unknown as { selectedOptions: ArrayLike<{ text: string }> }).selectedOptions[0]?.text));
      return selected.includes('Terminal Shepherd');
    });
    await page().keyboard.press('Escape');
  });

  it('Open Ledger opens process-log.jsonl; Show Log shows the log', async () => {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('workbench.action.closePanel')`);
    await runFromPalette(page(), 'Terminal Shepherd: Open Ledger');
    await page().locator('.tabs-container .tab[aria-label*="process-log.jsonl"]').waitFor({ timeout: 10_000 });
    await runFromPalette(page(), 'Terminal Shepherd: Show Log');
    await waitFor('the Output panel showing the Terminal Shepherd channel', 10_000, async () => {
      const selected = await page()
        .locator('.part.panel select')
        .evaluateAll((selects) => selects.map((s) => (s as unknown as { selectedOptions: ArrayLike<{ text: string }> }).selectedOptions[0]?.text));
      return selected.includes('Terminal Shepherd');
    });
  });
});
