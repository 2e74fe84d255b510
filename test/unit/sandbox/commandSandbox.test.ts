import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { BridgeErrorCode } from '../../../common/src/protocol';
import { ShepherdError } from '../../../extension/src/core/errors';
import { CommandSandbox, sandboxMode } from '../../../extension/src/core/sandbox/commandSandbox';
import { missingDependencies } from '../../../extension/src/core/sandbox/sandboxAvailability';
import { defaultVsCodeSandboxSettings, type VsCodeSandboxSettings } from '../../../extension/src/core/sandboxSettings';
import { defaultSettings } from '../../../extension/src/core/settings';
import { collectingLogger } from '../../support/collectingLogger';
import { buildSandboxRunner } from '../../support/sandboxRunnerBuild';
import { TempDirs } from '../../support/tempDirs';

const linux = process.platform === 'linux';
const on: VsCodeSandboxSettings = { ...defaultVsCodeSandboxSettings, enabled: true };
const BASH = { kind: 'bash', path: undefined } as const;

/** The line as a terminal's bash runs it: its exit code and what it printed. */
function runLine(line: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', line], { cwd, env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('CommandSandbox (the real runtime: bubblewrap, socat, ripgrep)', function () {
  const dirs = new TempDirs();
  let runnerPath: string;
  let home: string;
  let workspace: string;
  let outside: string;
  const sandboxes: CommandSandbox[] = [];
  const sandboxFor = (env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): CommandSandbox => {
    const sandbox = new CommandSandbox({
      runner: { execPath: process.execPath, runnerPath },
      platform,
      place: () => ({ home, workspaceFolders: [workspace], runtimeReadPaths: [] }),
      extraPath: [],
      env: () => env,
      logger: collectingLogger(),
    });
    sandboxes.push(sandbox);
    return sandbox;
  };

  before(async function () {
    if (!linux || missingDependencies(process.env.PATH ?? '').length > 0) this.skip();
    this.timeout(60_000);
    const root = dirs.make('tshep-sandbox-');
    runnerPath = await buildSandboxRunner(root);
    home = path.join(root, 'home');
    workspace = path.join(home, 'project');
    outside = dirs.make('tshep-sandbox-outside-');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(home, '.bashrc'), 'export SECRET=1\n');
  });
  after(() => {
    for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
    dirs.cleanup();
  });

  it('writes in the workspace, not outside it nor in the home folder; the home folder is unreadable; the exit code and cd are the command\'s', async function () {
    this.timeout(60_000);
    const sandbox = sandboxFor();
    const command = `echo inside > made.txt; echo out > ${outside}/escaped.txt; echo home >> ${home}/.bashrc; cat ${home}/.bashrc; pwd; exit 3`;
    const prepared = await sandbox.prepare(command, 'vscode', on);
    assert.equal(prepared.network, true);
    const { code, output } = await runLine(prepared.line(workspace, BASH), outside);
    assert.equal(code, 3, output);
    assert.equal(readFileSync(path.join(workspace, 'made.txt'), 'utf8'), 'inside\n');
    assert.ok(!existsSync(path.join(outside, 'escaped.txt')), output);
    assert.equal(readFileSync(path.join(home, '.bashrc'), 'utf8'), 'export SECRET=1\n');
    assert.ok(!output.includes('SECRET'), output);
    assert.match(output, /Read-only file system/);
    assert.ok(output.includes(`${workspace}\n`), `runs in the directory it was given: ${output}`);
  });

  it('closes the network when allowNetwork is off: a loopback server of the host receives nothing', async function () {
    this.timeout(60_000);
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => { console.log('got ' + d); process.exit(0) }).on('error', e => { console.log(e.code); process.exit(7) })"`;
      const closed = await sandboxFor().prepare(probe, 'vscode', { ...on, allowNetwork: false });
      assert.equal(closed.network, false);
      const denied = await runLine(closed.line(workspace, BASH), workspace);
      assert.equal(denied.code, 7, denied.output);
      assert.equal(connections, 0);
      const open = await sandboxFor().prepare(probe, 'vscode', on);
      const allowed = await runLine(open.line(workspace, BASH), workspace);
      assert.equal(allowed.code, 0, allowed.output);
      assert.equal(connections, 1);
    } finally {
      server.close();
    }
  });

  it('fails closed without bubblewrap on PATH, naming what to install; and where the OS has no sandbox', async () => {
    const noBwrap = dirs.make('tshep-sandbox-path-');
    for (const program of ['socat', 'rg', 'bash', 'node']) {
      const found = (process.env.PATH ?? '').split(':').map((dir) => path.join(dir, program)).find((file) => existsSync(file));
      if (found) writeFileSync(path.join(noBwrap, program), `#!/bin/sh\nexec ${found} "$@"\n`, { mode: 0o755 });
    }
    await assert.rejects(sandboxFor({ ...process.env, PATH: noBwrap }).prepare('true', 'vscode', on), (error: unknown) => {
      assert.ok(error instanceof ShepherdError);
      assert.equal(error.code, BridgeErrorCode.SandboxUnavailable);
      assert.match(error.message, /not installed: bubblewrap\. .*apt-get install bubblewrap.*The command was not executed/);
      assert.match(error.message, /chat\.agent\.sandbox\.enabled/);
      return true;
    });
    await assert.rejects(sandboxFor(process.env, 'win32').prepare('true', 'vscode', on), /Sandboxing is not supported in this environment \(win32\)\. To disable sandboxing, set `chat\.agent\.sandbox\.enabledWindows` to `off`\. The command was not executed\./);
    await assert.rejects(sandboxFor({ ...process.env, PATH: noBwrap }).prepare('true', 'confined', on), /terminalShepherd\.sandbox\.confineAutoApproved/);
  });
});

describe('sandboxMode', () => {
  const approved = { decision: 'approved' as const, reason: 'rules', rules: ['ls'] };
  const asked = { decision: 'asked' as const, reason: 'rm', rules: [], answer: 'once' };
  it("runs every command in VS Code's sandbox when it is on, and confines only what ran unasked when ours is", () => {
    const vscodeOn = { ...defaultSettings, vscodeSandbox: on };
    assert.equal(sandboxMode(vscodeOn, 'linux', asked), 'vscode');
    assert.equal(sandboxMode(vscodeOn, 'linux', undefined), 'vscode');
    assert.equal(sandboxMode(vscodeOn, 'win32', approved), undefined, 'Windows reads enabledWindows');
    assert.equal(sandboxMode({ ...vscodeOn, vscodeSandbox: { ...on, enabledWindows: true } }, 'win32', approved), 'vscode');
    const confined = { ...defaultSettings, confineAutoApproved: true };
    assert.equal(sandboxMode(confined, 'linux', approved), 'confined');
    assert.equal(sandboxMode(confined, 'linux', asked), undefined);
    assert.equal(sandboxMode(defaultSettings, 'linux', approved), undefined);
  });
});
