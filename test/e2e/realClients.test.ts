// Terminal Shepherd with the real MCP clients people run (Claude Code, Codex, Gemini CLI, opencode:
// pinned versions from the npm registry, test/support/realClients.ts), against a real VS Code
// window, in a home folder of the test's own. Each client is connected by the extension's own
// "Connect an MCP Client" command (over configuration files that already hold another server and
// settings, which must survive), then its own listing command shows the server, and an agent turn
// against a scripted model (test/support/scriptedModel.ts) calls terminal_run: what the client
// sent back to the model is checked for the exact output and exit code, and the command's effects
// are checked on disk and in /proc. What each client printed and forwarded is kept in
// test-results/real-clients/ (docs/clients.md's tables quote it).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readLauncherTarget } from '../../extension/src/clients/launcher';
import { launcherPath, windowRecordPath } from '../../common/src/shepherdHome';
import { vsCodeInstallPaths } from '../../.devtools/scripts/vscodeInstall';
import { repoRoot, serverScript, toolText } from '../support/mcpClient';
import { ClientHome, ensureRealClients, readForwarded, type RealClient, type RealClientName } from '../support/realClients';
import { startScriptedModel, type ToolExchange } from '../support/scriptedModel';
import { openShepherdWindow, suiteWindow } from '../support/shepherdE2e';
import { SHEPHERD_TOOLS } from '../support/vscodeMcp';
import { runAnsweringDialogs } from '../support/windowCommands';

const RECORDS = path.join(repoRoot, 'test-results', 'real-clients');

/** Another server and settings already in each client's file: the command must keep them. */
const EXISTING: Record<Exclude<RealClientName, 'copilot'>, { file: string; text: string }> = {
  claude: { file: '.claude.json', text: JSON.stringify({ numStartups: 3, mcpServers: { other: { type: 'stdio', command: 'other-mcp', args: ['--x'], env: {} } } }, null, 2) },
  codex: { file: '.codex/config.toml', text: '# my Codex settings\nmodel_reasoning_effort = "high"\n\n[mcp_servers.other]\ncommand = "other-mcp"\nargs = ["--x"]\n' },
  // A person who signs in to Gemini CLI with an API key (the agent turn needs it: no browser sign-in here).
  gemini: { file: '.gemini/settings.json', text: '{\n  // my settings\n  "ui": { "theme": "GitHub" },\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "mcpServers": { "other": { "command": "other-mcp", "args": ["--x"] } }\n}\n' },
  opencode: { file: '.config/opencode/opencode.json', text: JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { other: { type: 'local', command: ['other-mcp', '--x'], enabled: false } } }, null, 2) },
};

/** /proc facts about a pid: its program and the programs above it. */
function procChain(pid: number): { comm: string; ancestors: string[] } {
  const read = (p: number, f: string): string => readFileSync(`/proc/${p}/${f}`, 'utf8');
  const ancestors: string[] = [];
  let current = pid;
  for (let i = 0; i < 40; i++) {
    const stat = read(current, 'stat');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!parent || parent <= 1) break;
    ancestors.push(read(parent, 'cmdline').split('\0').join(' ').trim());
    current = parent;
  }
  return { comm: read(pid, 'comm').trim(), ancestors };
}

describe('real MCP clients (Claude Code, Codex, Gemini CLI, opencode from the npm registry) with a real VS Code window', function () {
  this.timeout(300_000);
  // Made in the first hook, not when mocha reads the file (a run of other suites makes no folder).
  let home: ClientHome;
  let shepherdRoot: string;
  const clients = {} as Record<RealClientName, RealClient>;
  before(async function () {
    this.timeout(900_000);
    home = new ClientHome();
    shepherdRoot = path.join(home.dir, '.terminal-shepherd');
    for (const client of await ensureRealClients()) clients[client.name] = client;
    for (const { file, text } of Object.values(EXISTING)) {
      mkdirSync(path.dirname(path.join(home.dir, file)), { recursive: true });
      writeFileSync(path.join(home.dir, file), text);
    }
    mkdirSync(RECORDS, { recursive: true });
  });
  // The window runs in the same home: the extension writes the launcher and the clients' files there.
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'real-clients', launch: { env: { HOME: home.dir, USERPROFILE: home.dir, XDG_CONFIG_HOME: path.join(home.dir, '.config'), TERMINAL_SHEPHERD_HOME: shepherdRoot } } }),
    () => home?.remove(),
  );
  const forwarded: Partial<Record<RealClientName, string>> = {};
  after(() => {
    mkdirSync(RECORDS, { recursive: true });
    writeFileSync(path.join(RECORDS, 'forwarded.json'), `${JSON.stringify(forwarded, null, 2)}\n`);
  });
  const record = (name: string, data: unknown): void => writeFileSync(path.join(RECORDS, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
  const launcher = (): string => launcherPath(shepherdRoot);

  it('the window keeps ~/.terminal-shepherd/bin/terminal-shepherd-mcp pointing at this build, and records itself', async () => {
    const target = readLauncherTarget(readFileSync(launcher(), 'utf8'));
    assert.ok(target, readFileSync(launcher(), 'utf8'));
    // The extension's own folder (code-server's extensions dir links to this repository) and the window's runtime.
    assert.deepEqual(
      { version: target.version, runtime: target.runtime, serverScript: realpathSync(target.serverScript) },
      { version: JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version, runtime: realpathSync(vsCodeInstallPaths().nodeBin), serverScript },
    );
    const version = await home.run({ bin: launcher() }, ['--version'], { cwd: win.workspace });
    assert.equal(version.stdout.trim(), target.version);
    const pid = await win.vscode.driver.evaluate<number>('return process.pid');
    assert.equal(JSON.parse(readFileSync(windowRecordPath(shepherdRoot, pid), 'utf8')).workspaceFolder, win.workspace);
  });

  /** An MCP SDK client starting the launcher the way a client configured by the command does. */
  async function viaLauncher(cwd: string, tool: string): Promise<CallToolResult> {
    const transport = new StdioClientTransport({ command: launcher(), args: [], cwd, env: home.env() as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'launcher-test', version: '1' });
    await client.connect(transport);
    try {
      return (await client.callTool({ name: tool, arguments: {} })) as CallToolResult;
    } finally {
      await client.close();
    }
  }

  it("the launcher's server finds the window from a subfolder; from a folder no window serves it says where it looked and which windows are open", async () => {
    const inside = await viaLauncher(path.join(win.workspace, 'sub dir'), 'terminal_list');
    assert.notEqual(inside.isError, true, toolText(inside));
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'tshep-elsewhere-'));
    const outside = await viaLauncher(elsewhere, 'terminal_list');
    assert.equal(outside.isError, true);
    assert.equal(
      toolText(outside),
      `Unreachable: No VS Code window with the Terminal Shepherd extension serves ${elsewhere}: no live .devtools/bridge.json in it or any folder above it. ` +
        `Open ${elsewhere} (or a folder that contains it) in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry. ` +
        `Windows with Terminal Shepherd open now: ${win.workspace}; to use one, start the server in that folder or pass --workspace <folder>.`,
    );
  });

  it("started by the window's own extension host in another folder (as Cline and Continue start servers), the server finds that window", async () => {
    const answer = await win.vscode.driver.evaluate<{ isError?: boolean; structuredContent?: unknown; content: { text: string }[] }>(
      `
      const child = require('child_process').spawn(${JSON.stringify(launcher())}, [], { cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      let exit = 'running';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', (e) => (exit = 'not started: ' + e.message));
      child.on('exit', (code, signal) => (exit = 'exited ' + (signal ?? code)));
      const reply = async (id) => {
        for (let i = 0; i < 300; i++) {
          const line = out.split('\\n').find((l) => l.startsWith('{') && JSON.parse(l).id === id);
          if (line) return JSON.parse(line);
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('no answer to ' + id + ' in 30 s; the server ' + exit + '; stdout: ' + out + '; stderr: ' + err);
      };
      const send = (m) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
      try {
        send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'in-window-client', version: '1' } } });
        await reply(1);
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/call', params: { name: 'terminal_list', arguments: {} } });
        return (await reply(2)).result;
      } finally {
        child.kill();
      }
      `,
      { timeoutMs: 60_000 },
    );
    assert.notEqual(answer.isError, true, JSON.stringify(answer));
    assert.ok(Array.isArray((answer.structuredContent as { terminals?: unknown[] }).terminals), JSON.stringify(answer));
  });

  for (const name of ['claude', 'codex', 'gemini', 'opencode'] as const) {
    it(`Connect an MCP Client writes ${name}'s own file (user scope) after a diff and a confirmation, keeping what was there`, async () => {
      const run = await runAnsweringDialogs(win, 'terminalShepherd.connectClient', { client: name, scope: 'user' }, /^Write$/);
      assert.deepEqual(run.clicked, ['Write'], 'the file is outside the workspace: one confirmation');
      const text = readFileSync(path.join(home.dir, EXISTING[name].file), 'utf8');
      assert.ok(text.includes(launcher()), text);
      for (const kept of ['other-mcp', '--x']) assert.ok(text.includes(kept), `the other server stays:\n${text}`);
      if (name === 'codex') assert.ok(text.startsWith('# my Codex settings\nmodel_reasoning_effort = "high"\n'), text);
      if (name === 'gemini') assert.ok(text.includes('// my settings') && text.includes('"theme": "GitHub"'), text);
      if (name === 'claude') assert.equal(JSON.parse(text).numStartups, 3);
      record(`${name}-config`, { file: `~/${EXISTING[name].file}`, text: text.split(home.dir).join('~') });
    });
  }

  it("each client's own listing command shows Terminal Shepherd", async () => {
    // Gemini CLI runs MCP servers only in trusted folders: a person answers its trust prompt once.
    const trusted = path.join(home.dir, '.gemini', 'trustedFolders.json');
    const untrusted = await home.run(clients.gemini, ['mcp', 'list'], { cwd: win.workspace });
    writeFileSync(trusted, JSON.stringify({ [win.workspace]: 'TRUST_FOLDER' }));
    const listings = {
      claude: await home.run(clients.claude, ['mcp', 'list'], { cwd: win.workspace }),
      codex: await home.run(clients.codex, ['mcp', 'list'], { cwd: win.workspace }),
      gemini: await home.run(clients.gemini, ['mcp', 'list'], { cwd: win.workspace }),
      opencode: await home.run(clients.opencode, ['mcp', 'list'], { cwd: win.workspace }),
    };
    const printed = Object.fromEntries(Object.entries(listings).map(([n, r]) => [n, r.text.split(home.dir).join('~').trim()]));
    record('listings', { ...printed, 'gemini (before the folder is trusted)': untrusted.text.split(home.dir).join('~').trim() });
    const line = (text: string): string => text.split('\n').find((l) => l.includes('terminal-shepherd')) ?? `(no terminal-shepherd line in)\n${text}`;
    assert.match(line(listings.claude.text), /^terminal-shepherd: .*terminal-shepherd-mcp\s+- ✔ Connected$/, listings.claude.text);
    assert.match(line(untrusted.text), /○ terminal-shepherd: .*terminal-shepherd-mcp\s+\(stdio\) - Disabled/, untrusted.text);
    assert.match(line(listings.gemini.text), /✓ terminal-shepherd: .*terminal-shepherd-mcp\s+\(stdio\) - Connected/, listings.gemini.text);
    // Codex lists its configuration without starting servers: enabled, not connected.
    assert.match(line(listings.codex.text), /^terminal-shepherd\s+\S*terminal-shepherd-mcp\s+.*\benabled\b/, listings.codex.text);
    assert.match(listings.opencode.text, /✓ terminal-shepherd\s+connected/, listings.opencode.text);
    for (const [n, r] of Object.entries(listings)) console.log(`      ${n}: ${line(r.text).trim()}`);
  });

  for (const name of ['claude', 'opencode', 'codex', 'gemini'] as const) {
    it(`${name}: an agent turn against a scripted model calls terminal_run; the model gets the exact output and exit code`, async () => {
      const command = `echo "${name}-$(( 6 * 7 ))" | tee ${name}-proof.txt; (exit 7)`;
      const model = await startScriptedModel({ steps: [{ call: { tool: 'terminal_run', input: { command, name } } }, { text: `${name} is done.` }] });
      try {
        const turn = await home.agentTurn(clients[name], { cwd: win.workspace, prompt: `Run ${command}`, model, timeoutMs: 180_000 });
        const exchange: ToolExchange | undefined = model.exchanges()[0];
        record(`${name}-turn`, { offered: model.offeredTools(), exchanges: model.exchanges(), stdout: turn.stdout, errors: model.errors });
        assert.equal(turn.code, 0, turn.text);
        assert.deepEqual(model.errors, []);
        const ours = model.offeredTools().filter((t) => SHEPHERD_TOOLS.some((s) => t.endsWith(s)));
        assert.equal(ours.length, 8, `the model was offered all 8 tools: ${model.offeredTools().join(', ')}`);
        assert.ok(exchange?.result, `${name} sent no tool result back: ${JSON.stringify(model.requests.map((r) => r.path))}\n${turn.text}`);
        const { text } = exchange.result;
        assert.ok(turn.stdout.includes(`${name} is done.`), turn.stdout);
        // Ground truth: the file on disk, the shell that ran it (bash under VS Code's pty host, not the client).
        assert.equal(readFileSync(path.join(win.workspace, `${name}-proof.txt`), 'utf8'), `${name}-42\n`);
        const result = readForwarded(text);
        assert.deepEqual({ status: result.status, exitCode: result.exitCode, output: result.output }, { status: 'completed', exitCode: 7, output: `${name}-42` }, text);
        forwarded[name] = result.form;
        const shell = procChain(result.pid);
        assert.equal(shell.comm, 'bash');
        assert.ok(shell.ancestors.some((a) => a.includes('ptyHost') || a.startsWith(realpathSync(vsCodeInstallPaths().nodeBin))), shell.ancestors.join('\n'));
        assert.ok(!shell.ancestors.some((a) => a.includes(clients[name].bin)), 'the command did not run under the client');
        console.log(`      ${name} sent the model the ${result.form} content: ${JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text)}`);
      } finally {
        await model.close();
      }
    });
  }

  it("Claude Code at project scope: .mcp.json names the launcher through ${HOME}; pending until approved, then connected", async () => {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.connectClient', { client: 'claude', scope: 'project' })`);
    const file = JSON.parse(readFileSync(path.join(win.workspace, '.mcp.json'), 'utf8'));
    assert.equal(file.mcpServers['terminal-shepherd'].command, '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp');
    // One scope per server: Claude Code warns when the same name has two endpoints.
    await home.run(clients.claude, ['mcp', 'remove', 'terminal-shepherd', '-s', 'user'], { cwd: win.workspace });
    const pending = await home.run(clients.claude, ['mcp', 'list'], { cwd: win.workspace });
    // The person's approval, as Claude Code's own setting for it.
    mkdirSync(path.join(home.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(home.dir, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
    const approved = await home.run(clients.claude, ['mcp', 'list'], { cwd: win.workspace });
    record('claude-project', { pending: pending.text.trim(), approved: approved.text.trim() });
    assert.match(pending.text, /terminal-shepherd: \$\{HOME\}\/\.terminal-shepherd\/bin\/terminal-shepherd-mcp\s+- ⏸ Pending approval/, pending.text);
    assert.match(approved.text, /terminal-shepherd: \$\{HOME\}\/\.terminal-shepherd\/bin\/terminal-shepherd-mcp\s+- ✔ Connected/, approved.text);
  });
});
