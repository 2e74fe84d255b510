/**
 * client/attach from the MCP server's side: once its client initialized, the server (from source,
 * over the real BridgeClient and bridge socket) connects without waiting for a call and names its
 * client process, its path and the environment's session; a window that goes and comes back (a
 * reload) is attached to again without any call.
 */
import assert from 'node:assert/strict';
import type { ClientAttachParams } from '../../common/src/protocol';
import { waitFor } from '../unit/processes/helpers';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';

describe('client/attach: the MCP server names its client to the window', function () {
  this.timeout(20_000);
  let fixture: BridgeFixture | undefined;
  let session: InMemoryMcpSession | undefined;
  afterEach(async () => {
    await session?.close();
    await fixture?.dispose();
    session = fixture = undefined;
  });

  function scriptAttach(into: BridgeFixture, seen: Array<{ params: ClientAttachParams; connection: string }>): void {
    into.handlers.attachClient = (params, { session: connection }) => {
      seen.push({ params, connection });
      return { watching: true };
    };
  }

  it('attaches once initialized, before any call, with the client’s name and the environment’s session; again after a reload', async () => {
    fixture = await startBridgeFixture();
    const seen: Array<{ params: ClientAttachParams; connection: string }> = [];
    scriptAttach(fixture, seen);
    session = await connectInMemory({
      workspaceFolder: fixture.workspace,
      clientInfo: { name: 'claude-code', version: '2.1.0' },
      env: { CLAUDE_CODE_SESSION_ID: 'cc-1' },
      clientProcess: async () => ({ pid: 4242, serverPath: [4300, 4250] }),
    });
    await waitFor('the attach', () => seen.length === 1);
    assert.deepEqual(seen[0]!.params, { pid: 4242, serverPath: [4300, 4250], client: 'claude-code', session: { id: 'cc-1', from: 'env.CLAUDE_CODE_SESSION_ID' } });

    // The window reloads: a new bridge in the same folder; the server finds it and attaches again on its own.
    const workspace = fixture.workspace;
    await fixture.dispose();
    fixture = await startBridgeFixture({ workspace });
    scriptAttach(fixture, seen);
    await waitFor('the attach after the reload', () => seen.length === 2, 10_000);
    assert.deepEqual(seen[1]!.params, seen[0]!.params);
    assert.notEqual(seen[1]!.connection, seen[0]!.connection);
  });

  it('without a client process (in process, as Run a Command), nothing is attached and the tools work', async () => {
    fixture = await startBridgeFixture();
    const seen: Array<{ params: ClientAttachParams; connection: string }> = [];
    scriptAttach(fixture, seen);
    fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
    fixture.handlers.list = () => ({ terminals: [] });
    session = await connectInMemory({ workspaceFolder: fixture.workspace });
    const listed = await session.call('terminal_list', {});
    assert.notEqual(listed.isError, true);
    assert.deepEqual(seen, []);
  });
});
