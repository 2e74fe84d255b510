/**
 * Every MCP tool from source (mcpToolsSupport.ts): the window the tools reach, and what happens
 * when it goes. The next call reconnects after the bridge dropped mid-call (ConnectionLost for the
 * dropped one); the window VS Code passed (target) comes before the one bridge.json advertises,
 * bridge.json when the target is gone, and an Unreachable error says what was tried.
 */
import assert from 'node:assert/strict';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { toolText as text } from '../support/mcpClient';
import { sessionHooks } from './mcpToolsSupport';

describe('MCP tools from source (createServer over an in-memory transport)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  it('reconnects for the next call after the bridge dropped mid-call', async () => {
    fixture.handlers.run = () => new Promise(() => undefined);
    const call = session.call('terminal_run', { command: 'sleep 100' });
    await new Promise((r) => setTimeout(r, 200));
    await fixture.dispose();
    const dropped = await call;
    assert.equal(dropped.isError, true);
    assert.match(text(dropped), /^ConnectionLost: .*may still be running/);
    fixture = await startBridgeFixture({ workspace: fixture.workspace });
    fixture.handlers.list = () => ({ terminals: [{ name: 'default', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode', pid: 7 }] });
    const listed = await session.call('terminal_list', {});
    assert.equal(listed.isError, undefined, text(listed));
    assert.match(text(listed), /"default": idle · bash \(strategy vscode\) · shell pid 7/);
  });
});

describe('MCP tools from source: which window they reach', () => {
  it('reaches the window VS Code passed (target) before the one bridge.json advertises', async () => {
    const advertised = await startBridgeFixture();
    const passed = await startBridgeFixture();
    advertised.handlers.list = () => ({ terminals: [{ name: 'advertised', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode' }] });
    passed.handlers.list = () => ({ terminals: [{ name: 'passed', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode' }] });
    const session = await connectInMemory({ workspaceFolder: advertised.workspace, target: { endpoint: passed.server.endpoint, token: passed.server.token } });
    try {
      assert.match(text(await session.call('terminal_list', {})), /^"passed": idle/);
    } finally {
      await session.close();
      await passed.dispose();
      await advertised.dispose();
    }
  });

  it('falls back to bridge.json when the target is gone, and says what it tried when nothing answers', async () => {
    const fixture = await startBridgeFixture();
    fixture.handlers.list = () => ({ terminals: [] });
    const gone = `${fixture.server.endpoint}.gone`;
    const session = await connectInMemory({ workspaceFolder: fixture.workspace, target: { endpoint: gone, token: fixture.server.token } });
    try {
      assert.equal((await session.call('terminal_list', {})).isError, undefined);
      await fixture.dispose();
      const result = await session.call('terminal_list', {});
      assert.equal(result.isError, true);
      assert.equal(
        text(result),
        `Unreachable: No VS Code window with the Terminal Shepherd extension serves ${fixture.workspace}: there is no live ${fixture.workspace}/.devtools/bridge.json. ` +
          `Open ${fixture.workspace} in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry. ` +
          `(Tried the bridge VS Code passed in the environment: cannot connect to ${gone} (ENOENT).)`,
      );
    } finally {
      await session.close();
      await fixture.dispose();
    }
  });
});
