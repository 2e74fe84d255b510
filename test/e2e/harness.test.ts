// Proves the real-VS-Code harness itself (code-server + headless Chromium + the driver extension),
// without the Terminal Shepherd extension: terminals with shell integration, screenshots, .vsix
// install, restart semantics, and that stop() leaves no process behind.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packVsix } from '../support/extensionFolders';
import { procAlive as alive } from '../support/procStat';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';
import { launchProcesses } from '../support/vscodeProcesses';
import { findRepoRoot } from '../../.devtools/scripts/installSteps';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';

const repoRoot = findRepoRoot();

/** Runs in the extension host: a bash terminal, shell integration, one command through it. */
const RUN_ECHO = `
  const withTimeout = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('timed out: ' + what)), ms))]);
  const t = vscode.window.createTerminal({ name: 'harness', shellPath: '/bin/bash' });
  t.show();
  state.terminal = t;
  const pid = await withTimeout(t.processId, 20000, 'terminal pid');
  const si = t.shellIntegration ?? await withTimeout(new Promise((resolve) => {
    const d = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === t) { d.dispose(); resolve(e.shellIntegration); } });
  }), 20000, 'shell integration');
  const execution = si.executeCommand('echo hi');
  const ended = new Promise((resolve) => {
    const d = vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) { d.dispose(); resolve(e.exitCode); } });
  });
  let output = '';
  await withTimeout((async () => { for await (const chunk of execution.read()) output += chunk; })(), 20000, 'output');
  const exitCode = await withTimeout(ended, 20000, 'end of execution');
  return { pid, exitCode, output };
`;

function makeWorkspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-e2e-ws-'));
  fs.writeFileSync(path.join(ws, 'README.md'), '# harness test workspace\n');
  return ws;
}

describe('real VS Code harness (code-server)', function () {
  this.timeout(300_000);
  let vsc: VsCode | undefined;
  let workspace: string;
  const tmp: string[] = [];

  before(async function () {
    this.timeout(900_000); // a first install takes about 2 minutes
    await ensureVsCode();
  });

  beforeEach(() => {
    workspace = makeWorkspace();
    tmp.push(workspace);
  });

  afterEach(async function () {
    await vsc?.stop({ failed: this.currentTest?.state === 'failed' });
    vsc = undefined;
  });

  after(() => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs a command in a real terminal with shell integration, screenshots, and leaves no process after stop', async () => {
    vsc = await launchVsCode({ workspace, label: 'harness', settings: { 'terminal.integrated.shellIntegration.enabled': true } });
    const version = await vsc.driver.evaluate<string>('return vscode.version');
    assert.match(version, /^1\.139\./);
    assert.equal(await vsc.driver.evaluate('return process.env.TS_HARNESS_RUN_ID'), vsc.runId, 'code-server env reaches the extension host');
    assert.equal(await vsc.driver.evaluate('return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath'), workspace);

    const r = await vsc.driver.evaluate<{ pid: number; exitCode: number | undefined; output: string }>(RUN_ECHO);
    assert.equal(r.exitCode, 0);
    assert.match(r.output, /hi/);
    assert.ok(alive(r.pid), 'the terminal shell runs');

    // Errors from the extension host come back with their message.
    await assert.rejects(vsc.driver.evaluate('throw new TypeError("boom")'), /boom/);

    await vsc.screenshot(path.join(repoRoot, 'test-results', 'harness.png'));
    assert.ok(fs.statSync(path.join(repoRoot, 'test-results', 'harness.png')).size > 10_000);

    const procs = vsc.processes();
    const cmd = procs.map((p) => p.cmdline).join('\n');
    assert.match(cmd, /entry\.js/, 'code-server runs');
    assert.match(cmd, /extensionHost/, 'an extension host runs');
    assert.ok(procs.some((p) => p.pid === r.pid), 'the shell is found as a process of this launch');

    const runId = vsc.runId;
    const serverPid = vsc.serverPid;
    const runDir = vsc.runDir;
    await vsc.stop();
    vsc = undefined;
    assert.deepEqual(launchProcesses(runId, serverPid), [], 'no process of the launch remains');
    assert.ok(!alive(r.pid), 'the shell is gone');
    assert.ok(!alive(serverPid), 'code-server is gone');
    assert.ok(!fs.existsSync(runDir), 'temp dirs removed');
  });

  it('restarts on the same workspace: a detached process outlives VS Code, a new extension host starts, stop() kills the survivor', async () => {
    vsc = await launchVsCode({ workspace, label: 'harness-restart' });
    const marker = path.join(workspace, 'survivor.pid');
    const firstHost = vsc.driver.hello!.pid;
    await vsc.driver.evaluate(`
      const t = vscode.window.createTerminal({ name: 'survivor', shellPath: '/bin/bash' });
      // A daemon in a session of its own outlives the terminal, as a detached dev server would.
      t.sendText("setsid bash -c 'echo $$ > ${marker}; exec sleep 600' &");
    `);
    const pid = Number(
      await waitForFile(marker, 20_000).then(() => fs.readFileSync(marker, 'utf8').trim()),
    );
    assert.ok(alive(pid), 'the detached process runs');

    await vsc.restart();
    assert.notEqual(vsc.driver.hello!.pid, firstHost, 'a new extension host');
    assert.ok(!alive(firstHost), 'the first extension host is gone');
    assert.ok(alive(pid), 'the detached process outlived the first VS Code');
    assert.equal(await vsc.driver.evaluate('return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath'), workspace);

    await vsc.stop();
    vsc = undefined;
    assert.ok(!alive(pid), 'stop() killed the survivor too');
  });

  it('installs a .vsix with code-server --install-extension next to symlinked extensions', async () => {
    const extDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-e2e-probe-'));
    tmp.push(extDir);
    fs.writeFileSync(
      path.join(extDir, 'package.json'),
      JSON.stringify({
        name: 'probe',
        publisher: 'terminal-shepherd-test',
        version: '0.0.3',
        engines: { vscode: '^1.101.0' },
        main: './extension.js',
        activationEvents: ['onStartupFinished'],
        contributes: { commands: [{ command: 'tsProbe.hello', title: 'Probe Hello' }] },
      }),
    );
    fs.writeFileSync(
      path.join(extDir, 'extension.js'),
      `exports.activate = (ctx) => { ctx.subscriptions.push(require('vscode').commands.registerCommand('tsProbe.hello', () => 'hello from the vsix')); };\n`,
    );
    const vsix = packVsix(extDir, path.join(extDir, 'probe.vsix'));
    vsc = await launchVsCode({ workspace, label: 'harness-vsix', vsix: [vsix] });
    const got = await vsc.driver.evaluate<string>(`
      for (let i = 0; i < 100 && !vscode.extensions.getExtension('terminal-shepherd-test.probe')?.isActive; i++) await new Promise((r) => setTimeout(r, 100));
      return vscode.commands.executeCommand('tsProbe.hello');
    `);
    assert.equal(got, 'hello from the vsix');
  });
});

async function waitForFile(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
