// VS Code's terminal sandbox (chat.agent.sandbox.enabled) honoured for every Terminal Shepherd
// command, in a real VS Code (code-server), through an MCP client over stdio that answers the
// questions: the disk is the judge (a write outside the workspace leaves no file, the fake home's
// file keeps its bytes), a loopback server the test runs counts the connections it got, and a
// window whose PATH has no bubblewrap runs nothing. Then VS Code's sandbox off and our confinement
// of auto-approved lines on. Also through VS Code's own MCP client (vscode.lm.invokeTool), and
// in a pwsh terminal. See docs/sandbox.md.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { ensurePwsh, pwshAvailable } from '../../.devtools/scripts/pwshInstall';
import { connectMcpServer, toolText, type McpSession } from '../support/mcpClient';
import { E2E_MACHINE_SETTINGS, openShepherdWindow, suiteWindow, useShell, waitFor, type ShepherdWindow } from '../support/shepherdE2e';
import { invokeThroughVsCode, startVsCodeMcpServer } from '../support/vscodeMcp';

/** An MCP client over stdio whose answers to questions are scripted ('once' runs, 'decline' does not); each question is kept. */
class AnsweringClient {
  readonly asked: string[] = [];
  answers: string[] = [];
  private constructor(readonly session: McpSession) {}

  static async connect(workspace: string): Promise<AnsweringClient> {
    let self: AnsweringClient | undefined;
    const session = await connectMcpServer({ workspace, elicit: (request) => Promise.resolve(self!.answer(request)) });
    return (self = new AnsweringClient(session));
  }

  private answer(request: ElicitRequest['params']): ElicitResult {
    this.asked.push(request.message);
    const next = this.answers.shift();
    if (next === undefined) throw new Error(`an unexpected question: ${request.message}`);
    return next === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: 'Run Once' } };
  }

  async call(command: string, answers: string[] = [], name = 'sandboxed'): Promise<CallToolResult> {
    this.answers = answers;
    this.asked.length = 0;
    const result = (await this.session.client.callTool({ name: 'terminal_run', arguments: { command, name } }, CallToolResultSchema, { timeout: 120_000 })) as CallToolResult;
    assert.deepEqual(this.answers, [], `every scripted answer was used (asked: ${this.asked.join(' | ')})`);
    return result;
  }

  async run(command: string, answers: string[] = [], name?: string): Promise<TerminalRunResult> {
    const result = await this.call(command, answers, name);
    assert.notEqual(result.isError, true, toolText(result));
    return result.structuredContent as TerminalRunResult;
  }
}

/** Sets user settings in the running window and waits until the extension host reads them. */
async function setSettings(win: ShepherdWindow, settings: Record<string, unknown>): Promise<void> {
  await win.vscode.driver.evaluate(`
    for (const [key, value] of Object.entries(${JSON.stringify(settings)})) await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  `);
  await waitFor('the settings to apply', 20_000, async () => {
    const seen = await win.vscode.driver.evaluate<string>(`return JSON.stringify(${JSON.stringify(Object.keys(settings))}.map((k) => vscode.workspace.getConfiguration().inspect(k)?.globalValue ?? null))`);
    return seen === JSON.stringify(Object.values(settings)) || undefined;
  });
}

/** A TCP server on loopback that counts the connections it received. */
async function countingServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, connections: () => connections };
}

describe("sandbox: VS Code's terminal sandbox for every Terminal Shepherd command", function () {
  this.timeout(300_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'tshep-sandbox-home-'));
  const outside = mkdtempSync(path.join(os.tmpdir(), 'tshep-sandbox-outside-'));
  const homeFile = path.join(home, '.bashrc_sandbox_test');
  const secretFile = path.join(home, 'secret.txt');
  writeFileSync(homeFile, 'original\n');
  writeFileSync(secretFile, 'top-secret-contents\n');
  const win = suiteWindow(
    () =>
      openShepherdWindow({
        label: 'sandbox',
        settings: { 'chat.agent.sandbox.enabled': 'on', 'chat.agent.sandbox.allowNetwork': false },
        launch: { env: { HOME: home } },
      }),
    () => {
      rmSync(home, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  );
  let client: AnsweringClient;
  before(async () => {
    client = await AnsweringClient.connect(win.workspace);
  });
  after(async () => client?.session.close().catch(() => undefined));

  it('writes in the workspace; a write to a temp folder the test made or to the fake home fails, the disk unchanged, and the sandbox field names it; "run outside" declined runs nothing', async () => {
    const inside = await client.run('echo in > inside.txt && cat inside.txt');
    assert.deepEqual([inside.status, inside.exitCode, inside.sandbox], ['completed', 0, { mode: 'vscode', network: false }], JSON.stringify(inside));
    assert.equal(readFileSync(path.join(win.workspace, 'inside.txt'), 'utf8'), 'in\n');

    const escaped = path.join(outside, 'escaped.txt');
    const denied = await client.run(`echo out > ${escaped}`, ['decline']);
    assert.match(client.asked[0] ?? '', /denied it .*escaped\.txt.*Run `echo out > .*` command outside the sandbox\?/s);
    assert.equal(denied.exitCode, 1, JSON.stringify(denied));
    assert.ok(denied.sandbox?.denied?.paths.includes(escaped), JSON.stringify(denied.sandbox));
    assert.deepEqual(denied.sandbox?.retry, { as: 'outside', answer: 'declined' });
    assert.match(String(denied.message), /The user declined running it outside the sandbox; nothing else ran/);
    assert.ok(!existsSync(escaped), 'nothing was written outside the workspace');

    // The home folder is denied to reads: inside, an empty folder in memory takes its place, so the write "succeeds" there and is gone with the sandbox; the runtime's report names it.
    const toHome = await client.run(`echo appended >> ${homeFile}`);
    assert.ok(toHome.sandbox?.denied?.paths.includes(homeFile), JSON.stringify(toHome.sandbox));
    assert.match(String(toHome.message), /The sandbox denied it/);
    assert.equal(readFileSync(homeFile, 'utf8'), 'original\n');
  });

  it('"run outside" accepted runs it outside the sandbox, and it writes', async () => {
    const target = path.join(outside, 'accepted.txt');
    const ran = await client.run(`echo accepted > ${target}`, ['once']);
    assert.deepEqual([ran.status, ran.exitCode, ran.sandbox?.retry], ['completed', 0, { as: 'outside', answer: 'approved' }], JSON.stringify(ran));
    assert.equal(readFileSync(target, 'utf8'), 'accepted\n');
  });

  it('a read of the home folder (denied) fails: its contents never reach the output', async () => {
    const read = await client.run(`cat ${secretFile}`);
    assert.notEqual(read.exitCode, 0, JSON.stringify(read));
    assert.ok(!read.output.includes('top-secret-contents'), read.output);
  });

  it('with the network off a loopback server of the test receives nothing; the retry with network, accepted, reaches it', async () => {
    const { server, port, connections } = await countingServer();
    try {
      const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => { console.log('got ' + d); process.exit(0) }).on('error', (e) => { console.log(e.message); process.exit(7) })"`;
      const refused = await client.run(probe, ['decline']);
      assert.equal(refused.exitCode, 7, JSON.stringify(refused));
      assert.equal(refused.sandbox?.denied?.network, true, JSON.stringify(refused.sandbox));
      assert.match(client.asked[0] ?? '', /Retry `.*` command in the sandbox by allowing network access\?/s);
      assert.equal(connections(), 0);
      const allowed = await client.run(probe, ['once']);
      assert.deepEqual([allowed.exitCode, allowed.sandbox?.retry], [0, { as: 'network', answer: 'approved' }], JSON.stringify(allowed));
      assert.equal(connections(), 1);
    } finally {
      server.close();
    }
  });

  it('bubblewrap not on PATH: the command is not run, and the error names bubblewrap and what to install', async () => {
    // The extension host's PATH (VS Code resolves it from the login shell at start, so the window's launch environment cannot hide it): every program of /usr/bin but bwrap.
    const bin = mkdtempSync(path.join(os.tmpdir(), 'tshep-sandbox-nobwrap-'));
    for (const name of readdirSync('/usr/bin')) if (name !== 'bwrap') symlinkSync(path.join('/usr/bin', name), path.join(bin, name));
    const saved = await win.vscode.driver.evaluate<string>('return process.env.PATH');
    const withoutBwrap = [bin, ...saved.split(':').filter((dir) => !['/usr/bin', '/bin'].includes(dir) && !existsSync(path.join(dir, 'bwrap')))].join(':');
    await win.vscode.driver.evaluate(`process.env.PATH = ${JSON.stringify(withoutBwrap)}`);
    try {
      const result = await client.call('touch never-ran.txt');
      assert.equal(result.isError, true, toolText(result));
      assert.match(toolText(result), /not installed: bubblewrap\..*apt-get install bubblewrap.*The command was not executed/s);
      assert.ok(!existsSync(path.join(win.workspace, 'never-ran.txt')));
    } finally {
      await win.vscode.driver.evaluate(`process.env.PATH = ${JSON.stringify(saved)}`);
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("through VS Code's own MCP client, with the per-command check on: a write outside runs unasked in the sandbox (allowAutoApprove) and fails, the disk unchanged; one inside writes; the result says sandboxed", async () => {
    await setSettings(win, { 'terminalShepherd.safety.perCommandCheck': true, 'chat.agent.sandbox.allowUnsandboxedCommands': false });
    try {
      const tools = await startVsCodeMcpServer(win);
      const viaVsCode = async (command: string): Promise<TerminalRunResult> => JSON.parse((await invokeThroughVsCode(win, tools.terminal_run!, { command, name: 'vscode-client' })).text) as TerminalRunResult;
      const inside = await viaVsCode('echo through-vscode > vscode-inside.txt');
      assert.deepEqual([inside.status, inside.exitCode, inside.sandbox?.mode], ['completed', 0, 'vscode'], JSON.stringify(inside));
      assert.equal(readFileSync(path.join(win.workspace, 'vscode-inside.txt'), 'utf8'), 'through-vscode\n');

      // A write outside the workspace: the rules would ask (blockDetectedFileWrites); in VS Code's sandbox with allowAutoApprove it runs unasked, and the sandbox refuses it.
      const escaped = path.join(outside, 'vscode-escaped.txt');
      const denied = await viaVsCode(`echo out > ${escaped}`);
      assert.equal(denied.safety?.decision, 'approved', JSON.stringify(denied.safety));
      assert.ok(denied.safety?.rules.includes('chat.agent.sandbox.allowAutoApprove'), JSON.stringify(denied.safety));
      assert.equal(denied.sandbox?.mode, 'vscode', JSON.stringify(denied));
      assert.notEqual(denied.exitCode, 0, JSON.stringify(denied));
      assert.ok(denied.sandbox?.denied?.paths.includes(escaped), JSON.stringify(denied.sandbox));
      assert.match(String(denied.message), /disabled by chat\.agent\.sandbox\.allowUnsandboxedCommands/);
      assert.ok(!existsSync(escaped), 'nothing was written outside the workspace');
    } finally {
      await setSettings(win, { 'terminalShepherd.safety.perCommandCheck': false, 'chat.agent.sandbox.allowUnsandboxedCommands': null });
    }
  });

  it('a pwsh terminal runs its command in the sandbox: a write in the workspace lands, one outside fails and the disk is unchanged', async function () {
    if (process.platform !== 'linux' || !pwshAvailable()) return this.skip();
    const pwsh = await ensurePwsh();
    if (!pwsh.ok) return this.skip();
    await useShell(win, pwsh.pwsh);
    try {
      const inside = await client.run(`$ErrorActionPreference = 'Stop'; Set-Content -Path pwsh-inside.txt -Value "pwsh $($PSVersionTable.PSVersion)"`, [], 'pwsh-sandboxed');
      assert.deepEqual([inside.status, inside.exitCode, inside.sandbox?.mode], ['completed', 0, 'vscode'], JSON.stringify(inside));
      assert.equal(readFileSync(path.join(win.workspace, 'pwsh-inside.txt'), 'utf8').trim(), `pwsh ${pwsh.version}`, 'pwsh itself wrote it');
      const escaped = path.join(outside, 'pwsh-escaped.txt');
      const denied = await client.run(`$ErrorActionPreference = 'Stop'; Set-Content -Path '${escaped}' -Value out`, ['decline'], 'pwsh-sandboxed');
      assert.notEqual(denied.exitCode, 0, JSON.stringify(denied));
      assert.deepEqual(denied.sandbox?.retry, { as: 'outside', answer: 'declined' }, JSON.stringify(denied.sandbox));
      assert.ok(!existsSync(escaped), 'nothing was written outside the workspace');
    } finally {
      await useShell(win, String(E2E_MACHINE_SETTINGS['terminalShepherd.terminal.shellPath']));
    }
  });

  it("VS Code's sandbox off, auto-approved lines confined: an approved write outside fails, a line the person approved is theirs", async () => {
    await setSettings(win, { 'chat.agent.sandbox.enabled': 'off', 'terminalShepherd.sandbox.confineAutoApproved': true, 'terminalShepherd.safety.perCommandCheck': true, 'chat.tools.terminal.autoApprove': { echo: true, touch: true } });
    try {
      const target = path.join(outside, 'confined.txt');
      const confined = await client.run(`touch ${target}`, ['decline']);
      assert.equal(confined.safety?.decision, 'approved', JSON.stringify(confined.safety));
      assert.equal(confined.sandbox?.mode, 'confined', JSON.stringify(confined));
      assert.ok(!existsSync(target));
      const inWorkspace = await client.run('touch confined-inside.txt');
      assert.deepEqual([inWorkspace.exitCode, inWorkspace.sandbox?.mode], [0, 'confined']);
      assert.ok(existsSync(path.join(win.workspace, 'confined-inside.txt')));
    } finally {
      await setSettings(win, { 'chat.agent.sandbox.enabled': 'on', 'terminalShepherd.sandbox.confineAutoApproved': false, 'terminalShepherd.safety.perCommandCheck': false, 'chat.tools.terminal.autoApprove': null });
    }
  });
});
