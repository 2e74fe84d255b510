// A real third-party client's deadline never kills a command: Claude Code (pinned, from the npm
// registry: test/support/realClients.ts) with MCP_TOOL_TIMEOUT=8000, driven by a scripted model on
// 127.0.0.1 (test/support/scriptedModel.ts), asks for a command that outlives its timeout
// (20 s). The command completes (its file on disk and its exit code are the proof), the calls the
// client made came back before its limit, and a later call hands the model the completed result.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, serverScript } from '../support/mcpClient';
import { ClientHome, ensureRealClients, type RealClient } from '../support/realClients';
import { startScriptedModel } from '../support/scriptedModel';
import { openShepherdWindow, suiteWindow } from '../support/shepherdE2e';

const TOOL_TIMEOUT_MS = 8000;

describe('Claude Code with a short MCP_TOOL_TIMEOUT: a command that outlives it completes, and a later call returns its result', function () {
  this.timeout(600_000);
  let home: ClientHome;
  let claude: RealClient;
  before(async function () {
    this.timeout(900_000);
    home = new ClientHome();
    [claude] = await ensureRealClients(['claude']);
  });
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'claude-long-work' }),
    () => home?.remove(),
  );

  const extensionLog = (): string =>
    win.vscode.extensionLogs()
      .join('\n');

  it('sleep 20 with an 8 s tool timeout: running before each cut, then completed with exit code 5', async () => {
    const added = await home.run(claude!, ['mcp', 'add', '-s', 'user', 'terminal-shepherd', '--', process.execPath, serverScript, '--workspace', win.workspace], { cwd: win.workspace });
    assert.equal(added.code, 0, added.text);
    const proof = path.join(win.workspace, 'claude-long.txt');
    const command = `sleep 20; echo outlived > ${JSON.stringify(proof)}; (exit 5)`;
    const wait = { call: { tool: 'terminal_state', input: { name: 'claude-long', wait: true } } };
    const model = await startScriptedModel({ steps: [{ call: { tool: 'terminal_run', input: { command, name: 'claude-long' } } }, wait, wait, wait, wait, { text: 'The build is done.' }] });
    try {
      const turn = await home.agentTurn(claude!, {
        cwd: win.workspace,
        prompt: `Run ${command} and tell me how it ended`,
        model,
        env: { MCP_TOOL_TIMEOUT: String(TOOL_TIMEOUT_MS) },
        timeoutMs: 240_000,
      });
      const exchanges = model.exchanges();
      mkdirSync(path.join(repoRoot, 'test-results', 'real-clients'), { recursive: true });
      writeFileSync(path.join(repoRoot, 'test-results', 'real-clients', 'claude-long-work.json'), `${JSON.stringify({ exchanges, stdout: turn.stdout }, null, 2)}\n`);
      assert.equal(turn.code, 0, turn.text);
      assert.deepEqual(model.errors, []);
      // Ground truth: the command ran to its end, its file is there.
      assert.equal(readFileSync(proof, 'utf8'), 'outlived\n');
      const results = exchanges.map((e) => {
        const json = /\{[\s\S]*\}$/.exec(e.result?.text.trim() ?? '');
        return json ? (JSON.parse(json[0]) as { status: string; exitCode?: number; nextCall?: unknown }) : { status: `unreadable: ${e.result?.text ?? 'no result'}` };
      });
      const statuses = results.map((r) => r.status);
      // Every call the client made came back (none was cut: a cut call would be an error text), running until the end.
      assert.ok(statuses.length >= 3, statuses.join(', '));
      const end = statuses.indexOf('completed');
      assert.ok(end > 0, `a later call returned the completed result: ${statuses.join(', ')}`);
      assert.deepEqual(statuses.slice(0, end), Array(end).fill('running'), statuses.join(', '));
      assert.equal(results[end]!.exitCode, 5);
      assert.ok(exchanges.every((e) => e.result && !e.result.isError), JSON.stringify(exchanges.map((e) => e.result?.text.slice(0, 200))));
      // The window learned the client's limit from the environment Claude Code started the server with.
      assert.match(extensionLog(), /terminal_run from "claude-code" [\d.]+ via a deadline-aware wait \(returns within 7\.0 s; the client cuts calls at 8\.0 s: Claude Code's MCP_TOOL_TIMEOUT=8000\)/);
      console.log(`      Claude Code ${claude!.version}: ${statuses.join(' -> ')}`);
    } finally {
      await model.close();
    }
  });
});
