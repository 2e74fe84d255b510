// The real chain, end to end: MCP SDK client -> dist/mcp-server.js -> bridge -> the extension in a
// real VS Code (code-server) -> a real terminal with shell integration -> bash.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolText } from '../support/mcpClient';
import { openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

describe('terminal runs in a real VS Code (MCP client -> MCP server -> bridge -> extension -> bash)', function () {
  this.timeout(180_000);
  const win = suiteWindow(() => openShepherdWindow({ label: 'terminal-runs' }));

  it('simple command: completed with output and exit code, promptly', async () => {
    const r = await win.run('terminal_run', { command: 'echo hello' });
    assert.equal(r.status, 'completed');
    assert.equal(r.exitCode, 0);
    assert.equal(r.output, 'hello');
    assert.equal(r.name, 'default');
    assert.equal(typeof r.pid, 'number');
    assert.ok(r.durationMs < 2500, `no fixed grace wait (${r.durationMs} ms)`);
  });

  it('long build-like command: blocks until done with the full output', async () => {
    const r = await win.run('terminal_run', { command: 'for i in 1 2 3 4 5; do echo "compiling $i/5"; sleep 0.3; done; echo "build ok"' });
    assert.equal(r.status, 'completed');
    assert.equal(r.output, 'compiling 1/5\ncompiling 2/5\ncompiling 3/5\ncompiling 4/5\ncompiling 5/5\nbuild ok');
    assert.ok(r.durationMs >= 1400, `waited for the whole command (${r.durationMs} ms)`);
  });

  it('chained commands: waits for all of them', async () => {
    const r = await win.run('terminal_run', { command: 'echo a && echo b && echo c' });
    assert.equal(r.output, 'a\nb\nc');
    assert.equal(r.exitCode, 0);
  });

  it('multi-line input runs every line in the same run', async () => {
    const r = await win.run('terminal_run', { command: 'echo one\necho two\necho three' });
    assert.equal(r.status, 'completed');
    assert.equal(r.output, 'one\ntwo\nthree');
  });

  it('failing command: its exit code and its stderr', async () => {
    const r = await win.run('terminal_run', { command: 'ls /definitely/not/here; echo "oops" >&2; (exit 7)' });
    assert.equal(r.status, 'completed');
    assert.equal(r.exitCode, 7);
    assert.match(r.output, /No such file or directory/);
    assert.match(r.output, /oops$/);
  });

  it('silent command: a quiet sleep between two echoes is never taken as finished', async () => {
    const r = await win.run('terminal_run', { command: 'echo Start; sleep 4; echo End' });
    assert.equal(r.status, 'completed');
    assert.equal(r.output, 'Start\nEnd');
    assert.ok(r.durationMs >= 3900, `${r.durationMs} ms`);
  });

  it('interactive prompt: waiting_for_input with the prompt, answered through terminal_input', async () => {
    const asked = await win.run('terminal_run', { command: 'read -p "Continue? [y/N] " answer; echo "answer=$answer"', name: 'ask' });
    assert.equal(asked.status, 'waiting_for_input');
    assert.equal(asked.prompt, 'Continue? [y/N]');
    assert.equal(asked.exitCode, undefined);
    const answered = await win.run('terminal_input', { name: 'ask', text: 'y' });
    assert.equal(answered.status, 'completed');
    assert.equal(answered.exitCode, 0);
    assert.match(answered.output, /answer=y$/);
  });

  it('a prompt no pattern knows is found from the OS: the foreground process blocks reading the terminal', async () => {
    const asked = await win.run('terminal_run', { command: `python3 -c "print('hi ' + input('Your name> '))"`, name: 'ask' });
    assert.equal(asked.status, 'waiting_for_input');
    assert.equal(asked.prompt, 'Your name>');
    const answered = await win.run('terminal_input', { name: 'ask', text: 'Ada' });
    assert.equal(answered.status, 'completed');
    assert.match(answered.output, /hi Ada$/);
  });

  it('timeout: returns the output so far without an exit code; the command keeps running and stays reachable', async () => {
    const r = await win.run('terminal_run', { command: 'echo started; sleep 30', name: 'slow', timeout: 1500 });
    assert.equal(r.status, 'timeout');
    assert.equal(r.output, 'started');
    assert.equal(r.exitCode, undefined);
    assert.match(String(r.message), /keeps running/);
    const state = await win.run('terminal_state', { name: 'slow' });
    assert.equal(state.status, 'running');
    const busy = await win.call('terminal_run', { command: 'echo no', name: 'slow' });
    assert.equal(busy.isError, true);
    assert.match(toolText(busy), /^TerminalBusy: Terminal "slow" is busy: `echo started; sleep 30` is running/);
    const stopped = await win.run('terminal_input', { name: 'slow', text: '\u0003' });
    assert.equal(stopped.status, 'completed');
    assert.equal(stopped.exitCode, 130);
  });

  it('background mode: returns running at once with the shell pid; terminal_state follows it', async () => {
    const t0 = Date.now();
    const r = await win.run('terminal_run', { command: 'for i in $(seq 1 100); do echo "tick $i"; sleep 0.2; done', name: 'server', waitMode: 'background' });
    assert.equal(r.status, 'running');
    assert.ok(Date.now() - t0 < 3000);
    assert.equal(typeof r.pid, 'number');
    await new Promise((res) => setTimeout(res, 700));
    const state = await win.run('terminal_state', { name: 'server' });
    assert.equal(state.status, 'running');
    assert.match(state.output, /tick 2/);
    const list = await win.run('terminal_list', {});
    const server = (list.terminals as { name: string; busy: boolean; pid: number }[]).find((t) => t.name === 'server');
    assert.equal(server?.busy, true);
    assert.equal(server?.pid, r.pid);
    const stopped = await win.run('terminal_input', { name: 'server', text: '\u0003' });
    assert.equal(stopped.status, 'completed');
  });

  it('large output: head and tail with one marker, the whole output in the log file', async () => {
    const r = await win.run('terminal_run', { command: 'seq 1 200000', name: 'big' });
    assert.equal(r.status, 'completed');
    assert.equal(r.truncated, true);
    assert.ok(r.output.length <= 17_000, `bounded (${r.output.length})`);
    const lines = r.output.split('\n');
    assert.equal(lines[0], '1');
    assert.equal(lines.at(-1), '200000');
    assert.equal(lines.filter((l) => /omitted/.test(l)).length, 1);
    assert.ok(r.outputFile && r.outputFile.startsWith(path.join(win.workspace, '.devtools')), String(r.outputFile));
    const full = readFileSync(r.outputFile!, 'utf8').trimEnd().split('\n');
    assert.equal(full.length, 200000);
    assert.equal(full[199999], '200000');
  });

  it('progress bar: carriage-return updates collapse to the final state, escapes stripped', async () => {
    const r = await win.run('terminal_run', { command: `printf '\\033[32mgreen\\033[0m\\n'; for p in 0 25 50 75 100; do printf '\\rprogress %3d%%' $p; sleep 0.05; done; printf '\\n'; echo done` });
    assert.equal(r.output, 'green\nprogress 100%\ndone');
  });

  it('cwd: runs in the given directory, relative to the workspace', async () => {
    const r = await win.run('terminal_run', { command: 'pwd', cwd: 'sub dir', name: 'cwd' });
    assert.equal(r.output, path.join(win.workspace, 'sub dir'));
    const bad = await win.call('terminal_run', { command: 'pwd', cwd: 'nope', name: 'cwd' });
    assert.equal(bad.isError, true);
    assert.match(toolText(bad), /cwd "nope" .* does not exist/);
  });

  it('bad input and unknown terminals get clear errors', async () => {
    const empty = await win.call('terminal_run', { command: '' });
    assert.equal(empty.isError, true);
    assert.match(toolText(empty), /command must not be empty/);
    const unknown = await win.call('terminal_state', { name: 'nobody' });
    assert.equal(unknown.isError, true);
    assert.match(toolText(unknown), /^TerminalNotFound: No terminal named "nobody"/);
  });

  it('cancellation by the MCP client stops the waiting, not the command; Ctrl+C is explicit (or opt-in)', async () => {
    const cancelled = async (name: string): Promise<void> => {
      const abort = new AbortController();
      const call = win.call('terminal_run', { command: 'sleep 60', name }, { signal: abort.signal });
      // Cancelled once the command runs (a busy machine may take seconds to open the terminal).
      await waitFor(`sleep 60 running in "${name}"`, 30_000, async () => {
        const state = await win.call('terminal_state', { name });
        return !state.isError && (state.structuredContent as { status?: string } | undefined)?.status === 'running' ? true : undefined;
      });
      abort.abort();
      await assert.rejects(call);
    };
    try {
      await cancelled('cancel');
      await new Promise((res) => setTimeout(res, 1000));
      assert.equal((await win.run('terminal_state', { name: 'cancel' })).status, 'running', 'the command goes on');
      const stopped = await win.run('terminal_input', { name: 'cancel', text: '\u0003' });
      assert.deepEqual([stopped.status, stopped.exitCode], ['completed', 130]);
      // Opt-in: terminalShepherd.run.cancelInterrupts sends Ctrl+C with the cancel, once the shell
      // took the line (the cancel comes within about 100 ms of the start here).
      await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('run.cancelInterrupts', true, vscode.ConfigurationTarget.Global);`);
      await cancelled('cancel-opt-in');
      const state = await waitFor('the cancelled command to end', 10_000, async () => {
        const s = await win.run('terminal_state', { name: 'cancel-opt-in' });
        return s.status === 'completed' ? s : undefined;
      });
      assert.equal(state.exitCode, 130);
    } finally {
      await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('run.cancelInterrupts', undefined, vscode.ConfigurationTarget.Global);`);
      // A failed attempt leaves no sleep behind: a retry, and later tests starting `sleep 60` in
      // the background (reported as already running otherwise), start clean.
      await stopIfRunning('cancel');
      await stopIfRunning('cancel-opt-in');
    }
  });

  /** Ctrl+C to a test's terminal whose command still runs (cleanup: whatever the test found). */
  async function stopIfRunning(name: string): Promise<void> {
    const state = await win.call('terminal_state', { name });
    if (!state.isError && (state.structuredContent as { status?: string } | undefined)?.status === 'running') {
      await win.call('terminal_input', { name, text: '\u0003' });
    }
  }

  it('a terminal the user closes mid-run: the status says so', async () => {
    await win.run('terminal_run', { command: 'sleep 60', name: 'closing', waitMode: 'background' });
    const waiting = win.run('terminal_state', { name: 'closing', wait: true, timeout: 30_000 });
    await win.vscode.driver.evaluate(`vscode.window.terminals.find((t) => t.name === 'Shepherd: closing').dispose();`);
    const r = await waiting;
    assert.equal(r.status, 'terminal_closed');
    assert.match(String(r.message), /was closed/);
    const list = await win.run('terminal_list', {});
    assert.ok(!(list.terminals as { name: string }[]).some((t) => t.name === 'closing'));
  });

  it('the shell exiting ends the run with terminal_closed and its exit code', async () => {
    // VS Code takes a shell that exits within 500 ms of its launch for a failed launch (next
    // test); this terminal lives past that first.
    await win.run('terminal_run', { command: 'sleep 0.6', name: 'quitter' });
    const r = await win.run('terminal_run', { command: 'exit 3', name: 'quitter' });
    assert.equal(r.status, 'terminal_closed');
    assert.equal(r.exitCode, 3);
    const again = await win.run('terminal_run', { command: 'echo reborn', name: 'quitter' });
    assert.equal(again.output, 'reborn');
  });

  it('a shell exiting right after its terminal opened, 20 fresh terminals: terminal_closed every time, an exit code only when VS Code reported it', async () => {
    // Within its first 500 ms VS Code takes the exit for a failed launch: it relaunches the
    // shell without shell integration, keeps the terminal and reports nothing. The OS says the
    // shell is gone; the run must end then, not at its timeout.
    const seen = { reported: 0, notReported: 0 };
    for (let i = 0; i < 20; i++) {
      const r = await win.run('terminal_run', { command: 'exit 3', name: `fresh-${i}`, timeout: 30_000 });
      assert.equal(r.status, 'terminal_closed', `fresh-${i}: ${JSON.stringify(r)}`);
      assert.ok(r.durationMs < 10_000, `fresh-${i} ended by the OS's answer, not a timeout (${r.durationMs} ms)`);
      if (r.exitCode === undefined) {
        seen.notReported++;
        assert.match(String(r.message), /VS Code kept the terminal without reporting the shell's exit, so no exit code is given/);
      } else {
        seen.reported++;
        assert.equal(r.exitCode, 3, `fresh-${i}: never an exit code the shell did not give`);
      }
    }
    console.log(`      (exit 3 in 20 fresh terminals: VS Code reported the exit ${seen.reported} times, kept the terminal ${seen.notReported} times)`);
    // No dead terminal left behind (VS Code closes a disposed terminal asynchronously).
    await waitFor('the retired terminals gone from VS Code', 10_000, () =>
      win.vscode.driver.evaluate<boolean>(`return !vscode.window.terminals.some((t) => t.name.startsWith('Shepherd: fresh-'));`),
    );
    const list = await win.run('terminal_list', {});
    assert.ok(!(list.terminals as { name: string }[]).some((t) => t.name.startsWith('fresh-')));
    const again = await win.run('terminal_run', { command: 'echo reborn', name: 'fresh-0' });
    assert.equal(again.output, 'reborn');
  });

  it('a shell killed with SIGKILL mid-run: terminal_closed, never a success exit code', async () => {
    const started = await win.run('terminal_run', { command: 'sleep 60', name: 'victim', waitMode: 'background' });
    const waiting = win.run('terminal_state', { name: 'victim', wait: true, timeout: 30_000 });
    await new Promise((res) => setTimeout(res, 300));
    process.kill(started.pid!, 'SIGKILL');
    const r = await waiting;
    assert.equal(r.status, 'terminal_closed');
    assert.equal(r.exitCode, undefined, 'VS Code reports 0 for a killed shell: no success may be claimed');
    assert.match(String(r.message), /no exit code is given/);
  });

  it("through VS Code's own MCP client and vscode.lm.invokeTool (the service Copilot agent mode calls)", async () => {
    // VS Code learns of the provider's server lazily: ask it to start until the tools are live.
    const tools = await waitFor('VS Code to start the Terminal Shepherd MCP server', 90_000, async () => {
      const names = await win.vscode.driver.evaluate<string[]>(`
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
        return vscode.lm.tools.filter((t) => t.name.startsWith('mcp_')).map((t) => t.name);
      `);
      return names.some((n) => n.endsWith('terminal_run')) ? names : undefined;
    });
    assert.ok(tools.some((t) => t.endsWith('terminal_list')), tools.join(', '));
    const runTool = tools.find((t) => t.endsWith('terminal_run'))!;
    const invoked = win.vscode.driver.evaluate<string>(
      `
      const result = await vscode.lm.invokeTool(${JSON.stringify(runTool)}, { input: { command: 'echo via-vscode-mcp', name: 'copilot' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      return result.content.map((p) => p.value ?? '').join('\\n');
      `,
      { timeoutMs: 120_000 },
    );
    // terminal_run is not read-only, so VS Code asks the user first, as it would in agent mode.
    const allow = win.vscode.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^(Yes|Allow|Continue|Run)$/ }).first();
    await allow.waitFor({ timeout: 60_000 });
    await win.vscode.screenshot(path.join('test-results', 'vscode-tool-confirmation.png'));
    await allow.click();
    // VS Code hands the model the structured content when a tool declares an output schema.
    const result = JSON.parse(await invoked);
    assert.equal(result.status, 'completed');
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, 'via-vscode-mcp');
  });
});
