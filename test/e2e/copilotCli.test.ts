// The Copilot CLI (@github/copilot from the npm registry, pinned in test/support/realClients.ts) as
// a real client of a real VS Code window, in a home folder of the test's own. It runs here without a
// GitHub sign-in: offline, with a BYOK model (COPILOT_PROVIDER_*) that is the scripted model on
// 127.0.0.1. "Connect an MCP Client" → "VS Code agents and Copilot CLI" writes
// ~/.copilot/mcp-config.json (user) and .mcp.json (project); `copilot mcp list` lists the server
// from them, and an agent turn calls terminal_run through it. What it printed and forwarded is kept
// in test-results/real-clients/copilot-*.json (docs/clients.md quotes it).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launcherPath } from '../../common/src/shepherdHome';
import { repoRoot } from '../support/mcpClient';
import { ClientHome, ensureRealClients, readForwarded, type RealClient } from '../support/realClients';
import { startScriptedModel } from '../support/scriptedModel';
import { openShepherdWindow, suiteWindow } from '../support/shepherdE2e';
import { SHEPHERD_TOOLS } from '../support/vscodeMcp';
import { runAnsweringDialogs } from '../support/windowCommands';

const RECORDS = path.join(repoRoot, 'test-results', 'real-clients');
/** Another server already in the Copilot CLI's file, as `copilot mcp add` writes it: it must stay. */
const OTHER = { mcpServers: { other: { tools: ['*'], type: 'local', command: 'other-mcp', args: ['--x'] } } };

describe('the Copilot CLI (from the npm registry) with a real VS Code window', function () {
  this.timeout(300_000);
  let home: ClientHome;
  let copilot: RealClient;
  let shepherdRoot: string;
  before(async function () {
    this.timeout(900_000);
    home = new ClientHome();
    shepherdRoot = path.join(home.dir, '.terminal-shepherd');
    [copilot] = (await ensureRealClients(['copilot'])) as [RealClient];
    mkdirSync(path.join(home.dir, '.copilot'), { recursive: true });
    writeFileSync(path.join(home.dir, '.copilot', 'mcp-config.json'), JSON.stringify(OTHER, null, 2));
    mkdirSync(RECORDS, { recursive: true });
  });
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'copilot-cli', launch: { env: { HOME: home.dir, USERPROFILE: home.dir, XDG_CONFIG_HOME: path.join(home.dir, '.config'), TERMINAL_SHEPHERD_HOME: shepherdRoot } } }),
    () => home?.remove(),
  );
  const record = (name: string, data: unknown): void => writeFileSync(path.join(RECORDS, `copilot-${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
  const printed = (text: string): string => text.split(home.dir).join('~').trim();
  const userFile = (): string => path.join(home.dir, '.copilot', 'mcp-config.json');

  /** One agent turn: terminal_run of a command whose output and exit code the model must get. */
  async function turn(label: string, env: Record<string, string> = {}) {
    const command = `echo "copilot-${label}-$(( 6 * 7 ))" | tee copilot-${label}.txt; (exit 7)`;
    const model = await startScriptedModel({ steps: [{ call: { tool: 'terminal_run', input: { command, name: `copilot-${label}` } } }, { text: `copilot ${label} is done.` }] });
    try {
      const ran = await home.agentTurn(copilot, { cwd: win.workspace, prompt: `Run ${command}`, model, env, timeoutMs: 180_000 });
      record(`${label}-turn`, { offered: model.offeredTools(), exchanges: model.exchanges(), stdout: printed(ran.stdout), errors: model.errors });
      return { ran, model, exchange: model.exchanges()[0], file: path.join(win.workspace, `copilot-${label}.txt`) };
    } finally {
      await model.close();
    }
  }

  it('Connect an MCP Client → VS Code agents and Copilot CLI writes ~/.copilot/mcp-config.json (user scope) after a diff and a confirmation, keeping the other server', async () => {
    const run = await runAnsweringDialogs(win, 'terminalShepherd.connectClient', { client: 'copilot', scope: 'user' }, /^Write$/);
    assert.deepEqual(run.clicked, ['Write'], 'the file is outside the workspace: one confirmation');
    const written = JSON.parse(readFileSync(userFile(), 'utf8'));
    assert.deepEqual(written.mcpServers.other, OTHER.mcpServers.other);
    assert.deepEqual(written.mcpServers['terminal-shepherd'], { type: 'local', command: launcherPath(shepherdRoot), args: [], tools: ['*'] });
    record('config', { file: '~/.copilot/mcp-config.json', text: printed(readFileSync(userFile(), 'utf8')) });
  });

  it('`copilot mcp list` lists Terminal Shepherd from that file, and `copilot mcp get` names the launcher', async () => {
    const listed = await home.run(copilot, ['mcp', 'list'], { cwd: win.workspace, timeoutMs: 60_000 });
    const got = await home.run(copilot, ['mcp', 'get', 'terminal-shepherd'], { cwd: win.workspace, timeoutMs: 60_000 });
    record('listing', { list: printed(listed.text), get: printed(got.text) });
    assert.equal(listed.code, 0, listed.text);
    assert.match(listed.text, /User servers:[\s\S]*\n\s+terminal-shepherd \(local\)/, listed.text);
    assert.match(got.text, /Status: Enabled/, got.text);
    assert.ok(got.text.includes(`Command: ${launcherPath(shepherdRoot)}`), got.text);
  });

  it('an agent turn (offline, BYOK scripted model, no GitHub sign-in) starts the server and calls terminal_run; the model gets the exact output and exit code', async () => {
    const { ran, model, exchange, file } = await turn('user');
    assert.equal(ran.code, 0, ran.text);
    assert.deepEqual(model.errors, []);
    const ours = model.offeredTools().filter((t) => SHEPHERD_TOOLS.some((s) => t.endsWith(`-${s}`)));
    assert.equal(ours.length, 8, `the model was offered all 8 tools: ${model.offeredTools().join(', ')}`);
    assert.ok(exchange?.result, `no tool result came back:\n${ran.text}`);
    const result = readForwarded(exchange.result.text);
    assert.deepEqual({ status: result.status, exitCode: result.exitCode, output: result.output }, { status: 'completed', exitCode: 7, output: 'copilot-user-42' }, exchange.result.text);
    assert.equal(readFileSync(file, 'utf8'), 'copilot-user-42\n', 'the command ran in the window (its file on disk)');
    console.log(`      the Copilot CLI sent the model the ${result.form} content`);
  });

  it('project scope: .mcp.json (the file Claude Code reads too) serves a trusted folder once the user entry is gone; without either, the tools are gone', async () => {
    await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('terminalShepherd.connectClient', { client: 'copilot', scope: 'project' })`);
    const project = JSON.parse(readFileSync(path.join(win.workspace, '.mcp.json'), 'utf8'));
    assert.equal(project.mcpServers['terminal-shepherd'].command, '${HOME}/.terminal-shepherd/bin/terminal-shepherd-mcp');
    const removed = await home.run(copilot, ['mcp', 'remove', 'terminal-shepherd'], { cwd: win.workspace, timeoutMs: 60_000 });
    assert.equal(removed.code, 0, removed.text);
    // The Copilot CLI loads a folder's .mcp.json only where it is trusted (COPILOT_ALLOW_ALL=true trusts it, as a person's "trust" answer does).
    const untrusted = await home.run(copilot, ['mcp', 'list'], { cwd: win.workspace, timeoutMs: 60_000 });
    const trusted = await home.run(copilot, ['mcp', 'list'], { cwd: win.workspace, env: { COPILOT_ALLOW_ALL: 'true' }, timeoutMs: 60_000 });
    record('project', { untrusted: printed(untrusted.text), trusted: printed(trusted.text) });
    assert.ok(!untrusted.text.includes('terminal-shepherd'), untrusted.text);
    assert.match(trusted.text, /Workspace servers:[\s\S]*\n\s+terminal-shepherd \(local\)/, trusted.text);
    const viaProject = await turn('project', { COPILOT_ALLOW_ALL: 'true' });
    assert.equal(readForwarded(viaProject.exchange?.result?.text ?? '').output, 'copilot-project-42', viaProject.ran.text);
    rmSync(path.join(win.workspace, '.mcp.json'));
    const none = await turn('none', { COPILOT_ALLOW_ALL: 'true' });
    const offered = none.model.requests.flatMap((r) => r.tools);
    assert.ok(offered.includes('bash'), `the turn reached the model: ${JSON.stringify(offered)}`);
    assert.deepEqual(offered.filter((t) => t.includes('terminal-shepherd')), [], 'no configuration, no tools');
    assert.equal(existsSync(none.file), false);
  });
});
