/**
 * The MCP server itself started under the sandbox runtime, as VS Code's agent host starts the MCP
 * servers it launches when chat.agent.sandbox is on (and as `"sandboxEnabled": true` in mcp.json
 * does): with the runtime's default, Unix sockets blocked, its window's bridge cannot be reached
 * and every call says which setting causes it and what to do; with Unix sockets allowed, it works.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { missingDependencies } from '../../extension/src/core/sandbox/sandboxAvailability';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { TEST_CLIENT_INFO, toolText } from '../support/mcpClient';
import { buildSandboxRunner } from '../support/sandboxRunnerBuild';
import { TempDirs } from '../support/tempDirs';

const serverScript = path.resolve(__dirname, '../../dist/mcp-server.js');

describe('the MCP server started under the sandbox runtime', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  let runnerPath: string;
  let fixture: BridgeFixture;
  before(async function () {
    if (process.platform !== 'linux' || missingDependencies(process.env.PATH ?? '').length > 0) this.skip();
    runnerPath = await buildSandboxRunner(dirs.make('tshep-mcp-sandbox-'));
  });
  beforeEach(async () => {
    fixture = await startBridgeFixture();
    fixture.handlers.list = () => ({ terminals: [] });
  });
  afterEach(async () => fixture.dispose());
  after(() => dirs.cleanup());

  /** terminal_list through the bundle run by the runtime under a policy like VS Code's for MCP servers: writes in the workspace only. */
  async function listUnder(network: Record<string, unknown>): Promise<CallToolResult> {
    const tmp = path.join(dirs.make('tshep-mcp-sandbox-tmp-'), 'tmp');
    mkdirSync(tmp);
    const policyPath = path.join(path.dirname(tmp), 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ config: { network: { deniedDomains: [], ...network }, filesystem: { denyRead: [], allowRead: [], allowWrite: [fixture.workspace, tmp], denyWrite: [] } }, tmpDir: tmp, pathAppend: [] }));
    const command = `'${process.execPath}' '${serverScript}' --workspace '${fixture.workspace}'`;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [runnerPath, policyPath, command],
      env: { PATH: process.env.PATH ?? '', TERMINAL_SHEPHERD_HOME: path.join(fixture.workspace, '.devtools', 'no-shepherd-home') },
      cwd: fixture.workspace,
      stderr: 'pipe',
    });
    const client = new Client(TEST_CLIENT_INFO);
    await client.connect(transport);
    try {
      return (await client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
    } finally {
      await client.close();
    }
  }

  it('Unix sockets blocked (the runtime\'s default): the call fails, naming the sandbox setting and what to do', async () => {
    const result = await listUnder({});
    assert.equal(result.isError, true, toolText(result));
    assert.match(toolText(result), /^Unreachable: This MCP server runs in a sandbox that blocks Unix sockets, so it cannot reach its VS Code window's bridge \(EPERM\)\./);
    assert.match(toolText(result), /chat\.agent\.sandbox.*"sandboxEnabled": true.*network\.allowAllUnixSockets: true/s);
  });

  it('Unix sockets allowed: it reaches its window and answers', async () => {
    const result = await listUnder({ allowAllUnixSockets: true });
    assert.notEqual(result.isError, true, toolText(result));
    assert.deepEqual(result.structuredContent, { terminals: [] });
  });
});
