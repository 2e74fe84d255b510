/**
 * One smoke test of the built bundle over stdio (the tools themselves are tested from source in
 * the mcpTools*.test.ts files), and what depends on the process: its environment and its streams.
 */
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runResult, startBridgeFixture, tempWorkspace } from '../support/bridgeFixture';
import { connectMcpServer, toolText } from '../support/mcpClient';

describe('MCP server bundle over stdio (dist/mcp-server.js)', () => {
  it('starts, lists the 8 tools and runs terminal_run end to end; stdout carries only MCP, logs go to stderr', async () => {
    const fixture = await startBridgeFixture();
    const session = await connectMcpServer({ workspace: fixture.workspace });
    try {
      const { tools } = await session.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['kill_orphans', 'kill_process', 'list_processes', 'terminal_input', 'terminal_list', 'terminal_run', 'terminal_state', 'workspace_info']);
      let seen: unknown;
      fixture.handlers.run = (params) => {
        seen = params;
        return runResult({ command: params.command, output: 'built' });
      };
      const result = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'make', timeout: 5000 } })) as CallToolResult;
      assert.deepEqual(seen, { command: 'make', timeoutMs: 5000 });
      assert.equal(result.isError, undefined, toolText(result));
      assert.deepEqual(result.structuredContent, runResult({ command: 'make', output: 'built' }));
      assert.match(toolText(result), /^completed · exit code 0 · 12 ms · terminal "default" \(shell pid 4242, strategy vscode\)\n\$ make\n--- output ---\nbuilt$/);
      // The SDK parses every stdout line as a JSON-RPC message: anything else is reported here.
      assert.deepEqual(session.protocolErrors(), []);
      const log = session.stderr();
      assert.match(log, /ready \(workspace /);
      assert.match(log, /connected to the VS Code window/);
      for (const line of log.trimEnd().split('\n')) {
        assert.match(line, /^\S+Z (trace|debug|info |warn |error) \[terminal-shepherd-mcp\] /, 'every stderr line is a log line');
      }
    } finally {
      await session.close();
      await fixture.dispose();
    }
  });
});

describe('MCP server bundle without a VS Code window', () => {
  it('says which folder it looked for and to open it in VS Code with the extension enabled', async () => {
    const workspace = tempWorkspace();
    const session = await connectMcpServer({ workspace });
    try {
      const result = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.equal(
        toolText(result),
        `Unreachable: No VS Code window with the Terminal Shepherd extension serves ${workspace}: there is no live ${workspace}/.devtools/bridge.json. ` +
          `Open ${workspace} in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry.`,
      );
    } finally {
      await session.close();
    }
  });

  it('prefers the bridge VS Code passes in the environment', async () => {
    const fixture = await startBridgeFixture();
    await fixture.publisher.dispose();
    const session = await connectMcpServer({
      workspace: tempWorkspace(),
      env: { TERMINAL_SHEPHERD_BRIDGE: fixture.server.endpoint, TERMINAL_SHEPHERD_TOKEN: fixture.server.token },
    });
    try {
      fixture.handlers.list = () => ({ terminals: [] });
      const result = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, undefined, toolText(result));
    } finally {
      await session.close();
      await fixture.dispose();
    }
  });
});
