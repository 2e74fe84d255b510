import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { parseProcessRows } from '../../../../mcp-server/src/bridge/ancestry';
import { clientProcess, findClient, isLauncher } from '../../../../mcp-server/src/bridge/clientProcess';

describe('the MCP client process', () => {
  it('takes shells, env, npx and cmd for launchers, and a client for none', () => {
    for (const launcher of ['/bin/sh -c node mcp-server.js', 'bash -lc x', 'C:\\Windows\\System32\\cmd.exe /d /s /c "launcher.cmd"', '/usr/bin/env node x', 'node /usr/lib/node_modules/npm/bin/npx-cli.js -y pkg', 'npx -y pkg']) {
      assert.equal(isLauncher(launcher), true, launcher);
    }
    for (const client of ['claude', 'node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', 'codex', '/opt/gemini/bin/gemini', 'node fake-client.js', 'copilot --banner']) {
      assert.equal(isLauncher(client), false, client);
    }
  });

  it('walks up past the launchers to the client; the path holds the server and the launchers', async () => {
    const rows = parseProcessRows(['  500     1 /usr/bin/claude', '  600   500 /bin/sh -c node mcp-server.js', '  700   600 node mcp-server.js', '  800   700 '].join('\n'));
    assert.deepEqual(await findClient(700, (pid) => rows.get(pid)), { pid: 500, serverPath: [700, 600] });
    assert.deepEqual(rows.get(800), { ppid: 700, commandLine: '' });
  });

  it('finds none when only launchers lead up to pid 1, or a parent cannot be read', async () => {
    const rows = parseProcessRows(['600 1 sh -c x', '700 600 node mcp-server.js', '900 42 node orphaned.js'].join('\n'));
    assert.equal(await findClient(700, (pid) => rows.get(pid)), undefined);
    assert.equal(await findClient(900, (pid) => rows.get(pid)), undefined);
  });

  it('on Linux, a process started through `sh -c` by this test names the test as its client', async function () {
    if (process.platform !== 'linux') this.skip();
    // The child asks for its own client and prints it: sh is its launcher, this mocha process its client.
    const script = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(require.resolve('../../../../mcp-server/src/bridge/clientProcess'))}).clientProcess().then((c) => console.log(JSON.stringify(c)))`;
    // The same through the `ps` table (procps answers the query macOS gets): one shared lookup, two sources.
    const viaPs = script.replace('.clientProcess()', '.clientProcess("darwin")');
    const child = spawn('/bin/sh', ['-c', `"${process.execPath}" -e '${script}'; "${process.execPath}" -e '${viaPs}'; true`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    const [found, foundByPs] = out.trim().split('\n').map((line) => JSON.parse(line) as { pid: number; serverPath: number[] });
    assert.ok(found && foundByPs, out);
    assert.equal(foundByPs.pid, process.pid, 'the ps table names the same client');
    assert.equal(foundByPs.serverPath[1], child.pid);
    assert.equal(found.pid, process.pid);
    assert.equal(found.serverPath.length, 2, 'the node process and its sh');
    assert.equal(found.serverPath[1], child.pid);
    assert.equal(await clientProcess('linux', 1), undefined, 'init has no client');
  });
});
