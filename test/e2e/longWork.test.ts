// Long work through the real chain: a client's deadline never kills a command. A 90 s command
// through an MCP SDK client with a 30 s request timeout gets `running` before each deadline and
// its exact exit code at the end, its process never interrupted (checked in /proc); a client that
// cuts a call (4 s) leaves the command running, and the next call reports how it ended (the file
// it wrote is the proof); through VS Code's own client the same command runs as an MCP task, and
// the person pressing Stop is told the command goes on, with a button that stops it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { toolText } from '../support/mcpClient';
import { readmeScreenshot } from '../support/screenshots';
import { procStartTicks as procStart } from '../support/procStat';
import { alive, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';
import { invokeThroughVsCode, startVsCodeMcpServer, type VsCodeToolNames } from '../support/vscodeMcp';

/** The client's request timeout, and what the window is told of clients it does not know. */
const CLIENT_TIMEOUT_MS = 30_000;

/** The `sleep` child of a shell, from /proc (not from the product). */
function sleepUnder(shellPid: number): number | undefined {
  const children = readFileSync(`/proc/${shellPid}/task/${shellPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === 'sleep');
}

describe("long work in a real VS Code: a client's deadline never kills a command", function () {
  this.timeout(600_000);
  const win = suiteWindow(() =>
    openShepherdWindow({
      label: 'long-work',
      settings: { 'terminalShepherd.run.clientTimeoutMs': CLIENT_TIMEOUT_MS, 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
    }),
  );
  const structured = (r: CallToolResult): TerminalRunResult => {
    assert.notEqual(r.isError, true, toolText(r));
    return r.structuredContent as unknown as TerminalRunResult;
  };
  /** A call the SDK client gives up on after CLIENT_TIMEOUT_MS (it rejects: the test fails). */
  const call = async (tool: string, args: Record<string, unknown>): Promise<TerminalRunResult> => structured(await win.call(tool, args, { timeoutMs: CLIENT_TIMEOUT_MS }));

  it('a 90 s command through a client with a 30 s timeout: running before each deadline, never interrupted, then its exact exit code', async () => {
    const budgetS = (CLIENT_TIMEOUT_MS - CLIENT_TIMEOUT_MS / 10) / 1000;
    let result = await call('terminal_run', { command: 'sleep 90; (exit 42)', name: 'long' });
    const sleep = sleepUnder(result.pid!);
    assert.ok(sleep, 'the sleep runs under the shell');
    const identity = procStart(sleep);
    let calls = 1;
    while (result.status === 'running') {
      assert.deepEqual(result.nextCall, { tool: 'terminal_state', arguments: { name: 'long', wait: true } });
      assert.match(result.message ?? '', /^Still running after [\dms ]+: this call returns before the client's own 30 s limit/);
      assert.equal(procStart(sleep), identity, `call ${calls}: the same sleep still runs (/proc)`);
      result = await call(result.nextCall!.tool, result.nextCall!.arguments);
      calls++;
    }
    assert.deepEqual([result.status, result.exitCode], ['completed', 42], JSON.stringify(result));
    assert.ok(result.durationMs >= 90_000);
    assert.equal(alive(sleep), false);
    assert.equal(calls, Math.ceil(90 / budgetS), `one call per ${budgetS} s budget, no polling in between`);
  });

  it('a client that cuts a call (4 s) leaves the command running; the next call reports its end, and the file it wrote is there', async () => {
    const marker = path.join(win.workspace, 'marker.txt');
    await assert.rejects(win.call('terminal_run', { command: `sleep 10; echo survived > ${JSON.stringify(marker)}`, name: 'cut' }, { timeoutMs: 4000 }), /timed out/i);
    const shell = (await call('terminal_state', { name: 'cut' })).pid!;
    const sleep = sleepUnder(shell);
    assert.ok(sleep && alive(sleep), 'the sleep goes on after the client gave up');
    const next = await call('terminal_state', { name: 'cut', wait: true });
    assert.deepEqual([next.status, next.exitCode], ['completed', 0]);
    assert.equal(readFileSync(marker, 'utf8'), 'survived\n');
  });

  describe("through VS Code's own MCP client (as Copilot calls it)", () => {
    let tools: VsCodeToolNames;
    before(async function () {
      this.timeout(120_000);
      tools = await startVsCodeMcpServer(win);
    });

    const extensionLog = (): string =>
      win.vscode.extensionLogs()
        .join('\n');

    it('a 90 s command runs as an MCP task: its result arrives when it ends, with its exit code, never interrupted', async () => {
      // VS Code asks before the call (a person clicks); the call then runs as a task.
      const invoked = invokeThroughVsCode(win, tools.terminal_run!, { command: 'sleep 90; (exit 42)', name: 'vsc-long' }, 200_000);
      const shell = await waitFor('the terminal', 30_000, async () => (await call('terminal_list', {}) as unknown as { terminals: { name: string; pid?: number }[] }).terminals.find((t) => t.name === 'vsc-long')?.pid);
      const sleep = await waitFor('the sleep', 10_000, () => sleepUnder(shell));
      const identity = procStart(sleep);
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      assert.equal(procStart(sleep), identity, 'past any deadline a client could have set, the same sleep still runs');
      const result = JSON.parse((await invoked).text) as TerminalRunResult;
      assert.deepEqual([result.status, result.exitCode], ['completed', 42]);
      assert.ok(result.durationMs >= 90_000);
      assert.match(extensionLog(), /terminal_run from "code-server" [\d.]+ via an MCP task \(no deadline/);
    });

    it('the person presses Stop: the command keeps running, a notification says so, and its Stop It button stops it', async () => {
      // As the Stop button does: the tool call's token is cancelled (3 s in); VS Code stops following the task.
      const stopped = invokeThroughVsCode(win, tools.terminal_run!, { command: 'sleep 300', name: 'vsc-stop' }, 60_000, { cancelAfterMs: 3000 });
      const shell = await waitFor('the terminal', 30_000, async () => (await call('terminal_list', {}) as unknown as { terminals: { name: string; pid?: number }[] }).terminals.find((t) => t.name === 'vsc-stop')?.pid);
      const sleep = await waitFor('the sleep', 10_000, () => sleepUnder(shell));
      const page = win.vscode.page;
      const note = page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'stopped waiting for `sleep 300`' });
      await note.waitFor({ timeout: 60_000 });
      assert.match(await note.innerText(), /The agent stopped waiting for `sleep 300`, which keeps running in terminal "vsc-stop"/);
      assert.ok(alive(sleep), 'Stop stopped the waiting, not the command');
      await page.mouse.move(700, 300);
      await win.vscode.screenshot(readmeScreenshot('stopped-waiting.png'));
      assert.equal((await stopped).text, '', 'the call itself was cancelled');
      await note.locator('.monaco-button', { hasText: 'Stop It' }).click();
      await waitFor('the sleep to end with Ctrl+C', 10_000, () => !alive(sleep));
      const ended = await call('terminal_state', { name: 'vsc-stop', wait: true });
      assert.deepEqual([ended.status, ended.exitCode], ['completed', 130]);
    });
  });
});
