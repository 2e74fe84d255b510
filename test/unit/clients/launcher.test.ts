/**
 * The stable launcher: the POSIX form run for real by /bin/sh (arguments, working directory and
 * environment passed on; a server that is gone and a runtime that is gone each say what to do),
 * the .cmd form checked line by line (it cannot run here), and the newest version winning.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launcherPath } from '../../../common/src/shepherdHome';
import { compareVersions, installLauncher, posixLauncher, readLauncherTarget, windowsLauncher, type LauncherTarget } from '../../../extension/src/clients/launcher';
import { TempDirs } from '../../support/tempDirs';

const dirs = new TempDirs();
after(() => dirs.cleanup());

/** A fake dist/mcp-server.js that prints what it was started with. */
function fakeServer(dir: string): string {
  const file = path.join(dir, "it's dist", 'mcp-server.js');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), electron: process.env.ELECTRON_RUN_AS_NODE }))');
  return file;
}

describe('the MCP launcher (~/.terminal-shepherd/bin/terminal-shepherd-mcp)', () => {
  it('POSIX: /bin/sh runs the server with the recorded runtime, passing arguments (spaces and quotes too) and the working directory', () => {
    const dir = dirs.make();
    const target: LauncherTarget = { version: '1.2.3', runtime: process.execPath, serverScript: fakeServer(dir) };
    const launcher = path.join(dir, 'launcher');
    writeFileSync(launcher, posixLauncher(target));
    chmodSync(launcher, 0o755);
    const cwd = dirs.make('tshep-client-cwd-');
    const r = spawnSync(launcher, ['--workspace', "/a b/c'd"], { cwd, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { args: ['--workspace', "/a b/c'd"], cwd, electron: '1' });
  });

  it('POSIX: says what to do when the server is gone, and falls back to node on PATH when the runtime is gone', () => {
    const dir = dirs.make();
    const gone = path.join(dir, 'launcher-gone');
    writeFileSync(gone, posixLauncher({ version: '1.2.3', runtime: process.execPath, serverScript: path.join(dir, 'missing.js') }));
    chmodSync(gone, 0o755);
    const r = spawnSync(gone, [], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /missing\.js is gone: Terminal Shepherd 1\.2\.3 was updated or uninstalled\. Open VS Code with Terminal Shepherd once; it points this launcher at the installed version\./);
    const noRuntime = path.join(dir, 'launcher-node');
    writeFileSync(noRuntime, posixLauncher({ version: '1.2.3', runtime: path.join(dir, 'no-such-runtime'), serverScript: fakeServer(dir) }));
    chmodSync(noRuntime, 0o755);
    const viaNode = spawnSync(noRuntime, ['x'], { encoding: 'utf8', env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` } });
    assert.equal(viaNode.status, 0, viaNode.stderr);
    assert.deepEqual(JSON.parse(viaNode.stdout).args, ['x']);
    const nothing = spawnSync(noRuntime, [], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
    assert.equal(nothing.status, 1);
    assert.match(nothing.stderr, /node is not on PATH\. Open VS Code with Terminal Shepherd once, or install Node\.js 20 or newer\./);
  });

  it('Windows: a .cmd with CRLF lines that runs the runtime with %*, falls back to node, doubles % in paths', () => {
    const target = { version: '1.2.3', runtime: 'C:\\Users\\ana\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe', serverScript: 'C:\\Users\\ana\\.vscode\\extensions\\terminal-shepherd-1.2.3\\100%\\dist\\mcp-server.js' };
    const text = windowsLauncher(target);
    assert.ok(!/[^\r]\n/.test(text), 'every line ends with CRLF');
    const lines = text.split('\r\n');
    assert.equal(lines[0], '@echo off');
    assert.ok(lines.includes('set "TS_SCRIPT=C:\\Users\\ana\\.vscode\\extensions\\terminal-shepherd-1.2.3\\100%%\\dist\\mcp-server.js"'), text);
    assert.ok(lines.includes(`set "TS_RUNTIME=${target.runtime}"`));
    assert.ok(lines.includes('if not exist "%TS_SCRIPT%" goto gone'));
    assert.ok(lines.includes('if not exist "%TS_RUNTIME%" set "TS_RUNTIME=node"'));
    assert.ok(lines.includes('set ELECTRON_RUN_AS_NODE=1'));
    assert.ok(lines.includes('"%TS_RUNTIME%" "%TS_SCRIPT%" %*'));
    assert.ok(lines.includes('exit /b %ERRORLEVEL%'));
    assert.ok(!lines.some((l) => l.startsWith('echo') && /[()]/.test(l)), 'no parentheses in echo lines');
    assert.deepEqual(readLauncherTarget(text), target, 'its version line reads back, % and all');
  });

  it('versions compare numerically, a pre-release before its release', () => {
    assert.equal(compareVersions('1.10.0', '1.9.3'), 1);
    assert.equal(compareVersions('0.2.0', '0.2.0'), 0);
    assert.equal(compareVersions('0.2.0-beta.1', '0.2.0'), -1);
    assert.equal(compareVersions('0.1.9', '0.2'), -1);
  });

  it('install: writes it executable, keeps a newer version whose server exists, replaces a newer one whose server is gone', async () => {
    const root = dirs.make();
    const ours: LauncherTarget = { version: '0.2.0', runtime: process.execPath, serverScript: fakeServer(root) };
    const first = await installLauncher(root, ours, 'linux');
    assert.deepEqual({ outcome: first.outcome, path: first.path }, { outcome: 'written', path: launcherPath(root, 'linux') });
    assert.equal(statSync(first.path).mode & 0o777, 0o755);
    assert.equal((await installLauncher(root, ours, 'linux')).outcome, 'unchanged');
    const newer: LauncherTarget = { version: '0.3.0', runtime: process.execPath, serverScript: fakeServer(dirs.make()) };
    assert.equal((await installLauncher(root, newer, 'linux')).outcome, 'written');
    const older = await installLauncher(root, ours, 'linux');
    assert.deepEqual({ outcome: older.outcome, target: older.target }, { outcome: 'kept', target: newer });
    assert.deepEqual(readLauncherTarget(readFileSync(first.path, 'utf8')), newer);
    const uninstalled: LauncherTarget = { ...newer, serverScript: path.join(root, 'gone', 'mcp-server.js') };
    writeFileSync(first.path, posixLauncher(uninstalled));
    assert.equal((await installLauncher(root, ours, 'linux')).outcome, 'written', 'a newer version that was uninstalled does not hold the launcher');
    assert.equal((await installLauncher(root, ours, 'win32')).path, path.join(root, 'bin', 'terminal-shepherd-mcp.cmd'));
  });
});
