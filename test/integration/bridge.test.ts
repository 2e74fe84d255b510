import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, ResponseError } from 'vscode-jsonrpc/node';
import { silentLogger } from '../../common/src/logger';
import { BridgeErrorCode, PROTOCOL_VERSION, methods } from '../../common/src/protocol';
import { publishBridgeFile } from '../../extension/src/bridge/bridgeFile';
import { ShepherdError } from '../../extension/src/core/errors';
import { BridgeClient, BridgeError } from '../../mcp-server/src/bridge/bridgeClient';
import { runResult, startBridgeFixture, tempWorkspace, type BridgeFixture } from '../support/bridgeFixture';

function rawConnection(endpoint: string) {
  const socket = net.createConnection(endpoint);
  const rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  rpc.listen();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, rpc, closed };
}

async function expectResponseError(promise: Promise<unknown>, code: number, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ResponseError, `expected a ResponseError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('bridge over a real socket', () => {
  let fixture: BridgeFixture;
  beforeEach(async () => {
    fixture = await startBridgeFixture();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('listens on a Unix socket in a 0700 directory and advertises it in a 0600 bridge.json', async function () {
    if (process.platform === 'win32') {
      console.warn('    !!! SKIPPING: Windows uses a named pipe, which has no file mode to check !!!');
      this.skip();
    }
    const dir = path.dirname(fixture.server.endpoint);
    assert.equal((await fs.stat(dir)).mode & 0o777, 0o700);
    assert.ok((await fs.stat(fixture.server.endpoint)).isSocket());
    const file = path.join(fixture.workspace, '.devtools', 'bridge.json');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    const content = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.equal(content.endpoint, fixture.server.endpoint);
    assert.equal(content.token, fixture.server.token);
    assert.equal(content.protocolVersion, PROTOCOL_VERSION);
    assert.equal(content.pid, process.pid);
  });

  it('refuses a wrong token and closes the connection', async () => {
    const c = rawConnection(fixture.server.endpoint);
    await expectResponseError(
      c.rpc.sendRequest(methods.hello.name, { token: 'x'.repeat(43), protocolVersion: PROTOCOL_VERSION }),
      BridgeErrorCode.Unauthorized,
      /wrong token/,
    );
    await c.closed;
  });

  it('refuses any request before hello, including unknown methods, and closes the connection', async () => {
    fixture.handlers.list = () => ({ terminals: [] });
    const c = rawConnection(fixture.server.endpoint);
    await expectResponseError(c.rpc.sendRequest(methods.list.name, {}), BridgeErrorCode.Unauthorized, /before bridge\/hello/);
    await c.closed;
    const d = rawConnection(fixture.server.endpoint);
    await expectResponseError(d.rpc.sendRequest('system/exec', {}), BridgeErrorCode.Unauthorized, /before bridge\/hello/);
    await d.closed;
  });

  it('drops an unauthenticated connection that streams data or announces a huge Content-Length, and one that sends garbage', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await new Promise((r) => setTimeout(r, 1)); // mocha arms its own test timer after the test function started
    const timersBefore = timers();
    const flood = net.createConnection(fixture.server.endpoint);
    const floodClosed = new Promise<void>((resolve) => flood.once('close', () => resolve()));
    flood.on('error', () => undefined);
    flood.write(`Content-Length: ${2 ** 40}\r\n\r\n`);
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const timer = setInterval(() => flood.write(chunk), 1);
    const t0 = Date.now();
    await floodClosed;
    clearInterval(timer);
    assert.ok(Date.now() - t0 < 900, `dropped after a few writes, before the auth timeout (${Date.now() - t0} ms)`);
    await new Promise((r) => setTimeout(r, 100));
    // vscode-jsonrpc's partial-message timer would re-arm forever for the unfinished message.
    assert.ok(timers() <= timersBefore, `no timer outlives the dropped connection (${timersBefore} before, ${timers()} after)`);
    const garbage = net.createConnection(fixture.server.endpoint);
    garbage.on('error', () => undefined);
    const garbageClosed = new Promise<void>((resolve) => garbage.once('close', () => resolve()));
    garbage.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const t1 = Date.now();
    await garbageClosed;
    assert.ok(Date.now() - t1 < 900, `a header without Content-Length ends the connection at once (${Date.now() - t1} ms)`);
    // A real client is still served.
    fixture.handlers.list = () => ({ terminals: [] });
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      assert.deepEqual(await client.request('list', {}), { terminals: [] });
    } finally {
      client.dispose();
    }
  });

  it('on dispose lets a call in flight answer before the connection closes', async () => {
    let answer: () => void = () => undefined;
    fixture.handlers.run = () =>
      new Promise((_resolve, reject) => {
        answer = () => reject(new ShepherdError(BridgeErrorCode.WindowClosing, 'The VS Code window is closing.'));
      });
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      const call = client.request('run', { command: 'sleep 100' });
      await new Promise((r) => setTimeout(r, 100));
      const disposed = fixture.server.dispose();
      answer(); // the window closing ends the wait; its answer must still reach the client
      await assert.rejects(call, (e: unknown) => e instanceof BridgeError && e.codeName === 'WindowClosing' && /closing/.test(e.message));
      await disposed;
    } finally {
      client.dispose();
    }
  });

  it('drops a connection that never authenticates', async () => {
    const c = rawConnection(fixture.server.endpoint);
    const t0 = Date.now();
    await c.closed;
    assert.ok(Date.now() - t0 < 3000);
  });

  it('refuses a client of another protocol version with a next step', async () => {
    const c = rawConnection(fixture.server.endpoint);
    await expectResponseError(
      c.rpc.sendRequest(methods.hello.name, { token: fixture.server.token, protocolVersion: PROTOCOL_VERSION + 1 }),
      BridgeErrorCode.ProtocolVersionMismatch,
      /speaks bridge protocol .* Use the MCP server shipped with the installed extension/,
    );
    await c.closed;
  });

  it('serves an authenticated client and validates params on the server side', async () => {
    fixture.handlers.run = async (params) => runResult({ command: params.command });
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      const result = await client.request('run', { command: 'echo hello' });
      assert.equal(result.command, 'echo hello');
      await assert.rejects(client.request('run', { command: '' } as never), (e: unknown) => {
        assert.ok(e instanceof BridgeError);
        // A named code and a next step, as the agent reads it (`${codeName}: message`).
        assert.equal(e.codeName, 'InvalidInput');
        assert.equal(e.message, "Invalid input for terminal/run: command: command must not be empty. Correct the arguments as the tool's input schema describes and retry.");
        return true;
      });
    } finally {
      client.dispose();
    }
  });

  it('carries cancellation to the handler and progress back to the caller', async () => {
    let sawAbort = false;
    fixture.handlers.run = (params, context) =>
      new Promise((resolve) => {
        const timer = setInterval(() => context.progress({ elapsedMs: 100, outputChars: 5, lastLine: 'building' }), 20);
        context.signal.addEventListener('abort', () => {
          sawAbort = true;
          clearInterval(timer);
          resolve(runResult({ status: 'cancelled', command: params.command }));
        });
      });
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      const abort = new AbortController();
      const updates: string[] = [];
      const pending = client.request('run', { command: 'sleep 100' }, { signal: abort.signal, onProgress: (u) => updates.push(u.lastLine ?? '') });
      await new Promise((r) => setTimeout(r, 150));
      abort.abort();
      const result = await pending;
      assert.equal(result.status, 'cancelled');
      assert.equal(sawAbort, true);
      assert.ok(updates.length >= 2 && updates.every((u) => u === 'building'), `progress relayed (${updates.length})`);
    } finally {
      client.dispose();
    }
  });

  it('maps a thrown ShepherdError to its named code', async () => {
    const { ShepherdError } = await import('../../extension/src/core/errors');
    fixture.handlers.state = () => {
      throw new ShepherdError(BridgeErrorCode.TerminalNotFound, 'No terminal named "x".');
    };
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      await assert.rejects(client.request('state', { name: 'x' }), (e: unknown) => {
        assert.ok(e instanceof BridgeError);
        assert.equal(e.code, BridgeErrorCode.TerminalNotFound);
        assert.equal(e.codeName, 'TerminalNotFound');
        return true;
      });
    } finally {
      client.dispose();
    }
  });

  it('fails a call in flight when the window goes away, and reconnects to the next window', async () => {
    fixture.handlers.run = () => new Promise(() => undefined);
    const client = new BridgeClient({ workspaceFolder: fixture.workspace, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      const pending = client.request('run', { command: 'sleep 100' }).then(
        () => assert.fail('the call should fail'),
        (e: unknown) => e,
      );
      await new Promise((r) => setTimeout(r, 100));
      await fixture.dispose();
      const error = await pending;
      assert.ok(error instanceof BridgeError && error.code === BridgeErrorCode.ConnectionLost && /still be running/.test(error.message), String(error));
      await assert.rejects(client.request('list', {}), (e: unknown) => e instanceof BridgeError && e.code === BridgeErrorCode.Unreachable && e.message.includes(`Open ${fixture.workspace} in VS Code`));
      fixture = await startBridgeFixture({ workspace: fixture.workspace });
      fixture.handlers.list = () => ({ terminals: [] });
      assert.deepEqual(await client.request('list', {}), { terminals: [] });
    } finally {
      client.dispose();
    }
  });
});

describe('bridge.json ownership', () => {
  it('replaces a file left by a dead window, keeps a live window\'s file, and removes only its own', async () => {
    const workspace = tempWorkspace();
    const file = path.join(workspace, '.devtools', 'bridge.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const stale = { endpoint: '/nonexistent/bridge.sock', token: 't'.repeat(43), protocolVersion: 1, pid: 2 ** 22 + 7, extensionVersion: '0', workspaceFolder: workspace, createdAt: '' };
    await fs.writeFile(file, JSON.stringify(stale));
    const first = await startBridgeFixture({ workspace });
    assert.equal(JSON.parse(await fs.readFile(file, 'utf8')).token, first.server.token, 'stale file replaced');

    const second = await publishBridgeFile(workspace, { endpoint: '/x/other.sock', token: 'o'.repeat(43), protocolVersion: 1, pid: process.pid, extensionVersion: '0' }, silentLogger);
    assert.equal(second.owned, false, 'a live window keeps the file');
    assert.equal(JSON.parse(await fs.readFile(file, 'utf8')).token, first.server.token);
    await second.dispose();
    assert.equal(JSON.parse(await fs.readFile(file, 'utf8')).token, first.server.token, 'a non-owner does not remove it');
    await first.dispose();
    await assert.rejects(fs.stat(file), 'the owner removes it on dispose');
  });

  it('a second window takes the file over at once when the first closes, and repairs it when it is corrupted or removed', async () => {
    const workspace = tempWorkspace();
    const file = path.join(workspace, '.devtools', 'bridge.json');
    const first = await startBridgeFixture({ workspace });
    const second = await startBridgeFixture({ workspace });
    const advertised = async (): Promise<string | undefined> => {
      try {
        return JSON.parse(await fs.readFile(file, 'utf8')).token;
      } catch {
        return undefined;
      }
    };
    const within = async (what: string, ms: number, ok: () => Promise<boolean>): Promise<void> => {
      const deadline = Date.now() + ms;
      while (!(await ok())) {
        if (Date.now() > deadline) assert.fail(`${what} not within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      assert.equal(await advertised(), first.server.token);
      await first.dispose();
      // Well under the 10 s recheck: the removal is watched.
      await within('the second window advertised', 2000, async () => (await advertised()) === second.server.token);
      await fs.writeFile(file, 'garbage');
      await within('the corrupt file repaired', 2000, async () => (await advertised()) === second.server.token);
      await fs.rm(file);
      await within('the removed file restored', 2000, async () => (await advertised()) === second.server.token);
      assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    } finally {
      await second.dispose();
    }
  });

  it('ignores a corrupt file', async () => {
    const workspace = tempWorkspace();
    const file = path.join(workspace, '.devtools', 'bridge.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"endpoint": ');
    const fixture = await startBridgeFixture({ workspace });
    assert.equal(JSON.parse(await fs.readFile(file, 'utf8')).token, fixture.server.token);
    await fixture.dispose();
  });
});
