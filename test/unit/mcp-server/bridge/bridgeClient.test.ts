/**
 * The bridge client against a window that dies mid-handshake: a socket that takes the hello and
 * closes without answering (the extension host SIGKILLed as a call arrives).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../../../common/src/logger';
import { BridgeClient, BridgeError } from '../../../../mcp-server/src/bridge/bridgeClient';

describe('bridge client', () => {
  it('a window that dies during the hello fails the call, not every call after it: the next one connects afresh', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ts-bridge-client-'));
    const endpoint = path.join(dir, 'bridge.sock');
    let accepted = 0;
    const server = net.createServer((socket) => {
      accepted++;
      socket.once('data', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(endpoint, resolve));
    // A silence bound far past the test's own timeout: only the closed socket can end the hello.
    const client = new BridgeClient({ target: { endpoint, token: 'token' }, connectTimeoutMs: 60_000, logger: silentLogger, clientInfo: { name: 't', version: '1' } });
    try {
      const lost = (error: unknown): boolean => error instanceof BridgeError && error.codeName === 'Unreachable' && /connection/i.test(error.message);
      await assert.rejects(client.request('list', {}), lost);
      await assert.rejects(client.request('list', {}), lost);
      assert.equal(accepted, 2, 'the second call opened a connection of its own');
    } finally {
      client.dispose();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
