// VS Code's agent host, with its Copilot harness, in the real VS Code 1.139 (code-server 4.139.1): a
// chat in the agent-host session type ("Copilot" in the harness picker) runs on the bundled Copilot
// runtime, and the test finds out, with that program, which Terminal Shepherd servers it offers the
// model, and that the model's terminal_run call, allowed in the harness's own confirmation as a
// person allows it, brings the command's exact output and exit code back to the model (and its file
// is on disk in the window's folder).
//
// It runs here with no GitHub account and no network through VS Code's own test hooks (see
// test/support/scriptedCopilotApi.ts): the smoke-test driver (`--vscode-option
// enable-smoke-test-driver`) lets `chat.agentHost.unsafeTestToken` stand for the GitHub sign-in,
// and GitHub's and the Copilot API's answers come from 127.0.0.1, in front of a scripted model the
// test picks in the chat's model picker, as a person picks a model (test/support/agentHostChat.ts).
// What the harness offered and forwarded is kept in test-results/real-clients/agent-host-*.json
// (docs/clients.md quotes it).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/mcpClient';
import { ClientHome, readForwarded } from '../support/realClients';
import { agentHostWindow, playHarnessTurn } from '../support/agentHostChat';
import { startScriptedCopilotApi, type ScriptedCopilotApi } from '../support/scriptedCopilotApi';
import { openShepherdWindow, suiteWindow } from '../support/shepherdE2e';
import { SHEPHERD_TOOLS } from '../support/vscodeMcp';
import { runAnsweringDialogs } from '../support/windowCommands';

const RECORDS = path.join(repoRoot, 'test-results', 'real-clients');
/** How the runtime names a server's tools: `<server name>-<tool>`. The provider's server is named
 * by its label; Connect's file names it `terminal-shepherd`. */
const PROVIDER_PREFIX = 'Terminal-Shepherd-';
const CONNECT_PREFIX = 'terminal-shepherd-';

describe('VS Code agent host: the Copilot harness (offline, scripted Copilot API) calls terminal_run and gets its output and exit code', function () {
  this.timeout(300_000);
  let home: ClientHome;
  let api: ScriptedCopilotApi;
  before(async () => {
    home = new ClientHome();
    api = await startScriptedCopilotApi();
    mkdirSync(RECORDS, { recursive: true });
  });
  const win = suiteWindow(
    () => openShepherdWindow(agentHostWindow({ home: home.dir, api })),
    () => {
      void api?.close();
      home?.remove();
    },
  );

  /** One chat in a new agent-host session: the scripted model calls `tool` (when offered) with a
   * command whose output and exit code it must get back, then answers in text (agentHostChat.ts's
   * playHarnessTurn, which the bench plays too). */
  async function harnessTurn(label: string, tool: string) {
    const command = `echo "agent-host-${label}-$(( 6 * 7 ))" | tee agent-host-${label}.txt; (exit 7)`;
    const steps = [{ call: { tool, input: { command, name: `agent-host-${label}` } } }, { text: `agent host ${label} is done.` }];
    const turn = await playHarnessTurn(win, api, { prompt: `Run ${command}`, steps, timeoutMs: 120_000, record: path.join(RECORDS, `agent-host-${label}`) });
    return { offered: turn.offered, exchange: turn.model.exchanges()[0], confirmations: turn.confirmations, file: path.join(win.workspace, `agent-host-${label}.txt`) };
  }
  const ours = (offered: readonly string[], prefix: string): string[] => offered.filter((t) => t.startsWith(prefix));
  /** The model got the command's exact output and exit code through `tool`, and the command ran in the window's folder (its file on disk). */
  function assertRan(turn: Awaited<ReturnType<typeof harnessTurn>>, label: string, tool: string): void {
    assert.equal(turn.exchange?.tool, tool);
    assert.ok(turn.exchange?.result, `no tool result came back (confirmations: ${JSON.stringify(turn.confirmations)})`);
    const result = readForwarded(turn.exchange.result.text);
    assert.deepEqual({ status: result.status, exitCode: result.exitCode, output: result.output }, { status: 'completed', exitCode: 7, output: `agent-host-${label}-42` }, turn.exchange.result.text);
    assert.equal(readFileSync(turn.file, 'utf8'), `agent-host-${label}-42\n`, 'the command ran in the window (its file on disk)');
  }

  it("the extension's provider alone: the harness offers the 8 tools (VS Code's MCP gateway); its model's terminal_run, allowed once in the chat, gets the exact output and exit code", async () => {
    assert.equal(existsSync(path.join(home.dir, '.copilot', 'mcp-config.json')), false);
    assert.equal(existsSync(path.join(win.workspace, '.mcp.json')), false);
    const turn = await harnessTurn('provider', `${PROVIDER_PREFIX}terminal_run`);
    assert.ok(turn.offered.includes('bash'), `the harness's own shell tool is offered too: ${turn.offered.join(', ')}`);
    assert.deepEqual(ours(turn.offered, PROVIDER_PREFIX).sort(), SHEPHERD_TOOLS.map((t) => `${PROVIDER_PREFIX}${t}`).sort());
    assert.deepEqual(ours(turn.offered, CONNECT_PREFIX), [], 'no configuration file: only the provider');
    assert.deepEqual(turn.confirmations, ['Allow tool from Terminal Shepherd?'], "the harness's own confirmation, answered once");
    assertRan(turn, 'provider', `${PROVIDER_PREFIX}terminal_run`);
  });

  it("Connect's ~/.copilot/mcp-config.json adds a second server (the launcher) beside the provider's; removed, later sessions of the same agent host still offer it", async () => {
    const run = await runAnsweringDialogs(win, 'terminalShepherd.connectClient', { client: 'copilot', scope: 'user' }, /^Write$/);
    assert.deepEqual(run.clicked, ['Write']);
    const viaFile = await harnessTurn('user-file', `${CONNECT_PREFIX}terminal_run`);
    assert.deepEqual(ours(viaFile.offered, CONNECT_PREFIX).sort(), SHEPHERD_TOOLS.map((t) => `${CONNECT_PREFIX}${t}`).sort());
    assert.equal(ours(viaFile.offered, PROVIDER_PREFIX).length, 8, 'the provider is still offered: the same tools twice');
    assertRan(viaFile, 'user-file', `${CONNECT_PREFIX}terminal_run`);
    rmSync(path.join(home.dir, '.copilot', 'mcp-config.json'));
    const without = await harnessTurn('no-file', `${PROVIDER_PREFIX}terminal_run`);
    // The runtime keeps the user configuration it read when it started: the server stays until the agent host restarts.
    assert.equal(ours(without.offered, CONNECT_PREFIX).length, 8, 'the removed file\'s server is still offered');
    assert.equal(ours(without.offered, PROVIDER_PREFIX).length, 8, 'the provider stays');
    assertRan(without, 'no-file', `${PROVIDER_PREFIX}terminal_run`);
  });

  it("the folder's .mcp.json that Connect writes (project scope) is read too: a second server again", async () => {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.connectClient', { client: 'copilot', scope: 'project' })`);
    assert.ok(existsSync(path.join(win.workspace, '.mcp.json')));
    const turn = await harnessTurn('project-file', `${CONNECT_PREFIX}terminal_run`);
    assert.deepEqual(ours(turn.offered, CONNECT_PREFIX).sort(), SHEPHERD_TOOLS.map((t) => `${CONNECT_PREFIX}${t}`).sort());
    assert.equal(ours(turn.offered, PROVIDER_PREFIX).length, 8);
    assertRan(turn, 'project-file', `${CONNECT_PREFIX}terminal_run`);
  });

  it("long runs' results reach the model whole: seq 1 200000 at the agent host's output limit (head, last line, exit code) and a cut output of two-byte characters, each under the harness's 8 KB; an uncut output past 8 KB reaches it as the harness's file and preview", async () => {
    const tool = `${PROVIDER_PREFIX}terminal_run`;
    const steps = [
      { call: { tool, input: { command: 'seq 1 200000', name: 'agent-host-long' } } },
      // 3,000 two-byte characters: the window keeps 2,000 characters (the agent host's limit), past 8 KB in bytes; the server cuts them further.
      { call: { tool, input: { command: "yes 'é' | head -n 3000 | tr -d '\\n'", name: 'agent-host-wide' } } },
      // 1,500 three-byte characters: within the limit, so whole in the result, and past 8 KB.
      { call: { tool, input: { command: "yes '─' | head -n 1500 | tr -d '\\n'", name: 'agent-host-uncut' } } },
      { text: 'agent host long results are done.' },
    ];
    const turn = await playHarnessTurn(win, api, { prompt: 'Run seq 1 200000', steps, timeoutMs: 180_000, record: path.join(RECORDS, 'agent-host-long-result') });
    const [long, wide, uncut] = turn.model.exchanges();
    assert.ok(long?.result && wide?.result && uncut?.result, `not every tool result came back (confirmations: ${JSON.stringify(turn.confirmations)})`);
    // The request after each call carries its result as the harness forwards it: the text, then the structured content.
    for (const sent of [long.result.text, wide.result.text]) {
      assert.doesNotMatch(sent, /^Output too large to read at once/, sent.slice(0, 300));
      assert.ok(Buffer.byteLength(sent, 'utf8') <= 8 * 1024, `${Buffer.byteLength(sent, 'utf8')} bytes forwarded`);
    }
    assert.match(long.result.text, /^completed · exit code 0 · .*\n\$ seq 1 200000\nOutput truncated \(head and tail kept\); the full output is in \S+\.log\.\n--- output ---\n1\n2\n3\n/);
    assert.match(long.result.text, /\n199999\n200000\n/, 'the text carries the last line');
    const structured = readForwarded(long.result.text);
    assert.deepEqual({ form: structured.form, status: structured.status, exitCode: structured.exitCode }, { form: 'structured', status: 'completed', exitCode: 0 });
    assert.match(structured.output ?? '', /^1\n2\n[\s\S]*\n199999\n200000$/, 'the structured content carries the head and the last line');
    const cut = readForwarded(wide.result.text);
    assert.equal(cut.exitCode, 0);
    const marker = /^(é+)\n\[\.\.\. ([\d,]+) characters \(0 lines\) omitted; full output in \S+ \.\.\.\]\n(é+)$/.exec(cut.output ?? '');
    assert.ok(marker, cut.output);
    assert.equal(marker[1]!.length + Number(marker[2]!.replace(/,/g, '')) + marker[3]!.length, 3000, 'shown and omitted make the whole');
    // The harness's own rule, seen: past 8 KB the model gets a file and a 500-character preview.
    const spilled = /^Output too large to read at once \((\d+\.\d) KB\)\. Saved to: \S+copilot-tool-output-\S+\.txt\n[\s\S]*Preview \(first 500 chars\):\ncompleted · exit code 0 · /.exec(uncut.result.text);
    assert.ok(spilled, uncut.result.text.slice(0, 400));
    assert.ok(Number(spilled[1]) > 8 && Number(spilled[1]) < 12, `${spilled[1]} KB`);
  });
});
