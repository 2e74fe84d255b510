import assert from 'node:assert/strict';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BridgeErrorCode } from '../../common/src/protocol';
import { ShepherdError } from '../../extension/src/core/errors';
import { runResult, startBridgeFixture, tempWorkspace, type BridgeFixture } from '../support/bridgeFixture';
import { connectMcpServer, type McpSession } from '../support/mcpClient';

const text = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP server over stdio (dist/mcp-server.js)', () => {
  let fixture: BridgeFixture;
  let session: McpSession;
  beforeEach(async () => {
    fixture = await startBridgeFixture();
    session = await connectMcpServer({ workspace: fixture.workspace });
  });
  afterEach(async () => {
    await session.close();
    await fixture.dispose();
  });

  it('lists the terminal tools with described inputs, output schemas and honest annotations', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['kill_orphans', 'kill_process', 'list_processes', 'terminal_input', 'terminal_list', 'terminal_run', 'terminal_state']);
    for (const tool of tools) {
      assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`);
      assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
      const a = tool.annotations!;
      for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof a[key], 'boolean', `${tool.name}.${key} is set`);
      }
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${field} is described`);
      }
    }
    assert.equal(byName.terminal_run!.annotations!.readOnlyHint, false);
    assert.equal(byName.terminal_state!.annotations!.readOnlyHint, true);
    assert.deepEqual(byName.terminal_run!.inputSchema.required, ['command']);
  });

  it('terminal_run maps its input to the bridge and returns structured content plus text', async () => {
    let seen: unknown;
    fixture.handlers.run = async (params) => {
      seen = params;
      return runResult({ command: params.command, output: 'a\nb', exitCode: 3 });
    };
    const result = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'false', timeout: 5000, name: 'build', waitMode: 'completion', cwd: 'sub' } })) as CallToolResult;
    assert.deepEqual(seen, { command: 'false', timeoutMs: 5000, name: 'build', waitMode: 'completion', cwd: 'sub' });
    assert.equal(result.isError, undefined);
    assert.equal((result.structuredContent as { exitCode: number }).exitCode, 3);
    assert.match(text(result), /^completed · exit code 3 · 12 ms · terminal "default" \(shell pid 4242\)\n\$ false\n/);
    assert.match(text(result), /--- output ---\na\nb$/);
  });

  it('renders the prompt, the message and an empty output for non-final statuses', async () => {
    fixture.handlers.run = async () => runResult({ status: 'waiting_for_input', exitCode: undefined, prompt: 'Continue? [y/N]', message: 'Answer with terminal_input.' });
    const waiting = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'x' } })) as CallToolResult;
    assert.match(text(waiting), /Prompt: "Continue\? \[y\/N\]"\nAnswer with terminal_input\.\n--- output ---/);
    fixture.handlers.run = async () => runResult({ status: 'running', exitCode: undefined, output: '' });
    const running = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'x', waitMode: 'background' } })) as CallToolResult;
    assert.match(text(running), /^running · 12 ms/);
    assert.match(text(running), /--- output ---\n\(no output\)$/);
  });

  it('rejects bad input with a clear tool error before reaching the bridge', async () => {
    const empty = (await session.client.callTool({ name: 'terminal_run', arguments: { command: '  ' } })) as CallToolResult;
    assert.equal(empty.isError, true);
    assert.match(text(empty), /command must not be empty/);
    const range = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'ls', timeout: 99_999_999 } })) as CallToolResult;
    assert.equal(range.isError, true);
    assert.match(text(range), /at most 3600000 ms/);
  });

  it('turns extension errors into isError results naming the code and the next step', async () => {
    fixture.handlers.run = async () => {
      throw new ShepherdError(BridgeErrorCode.TerminalBusy, 'Terminal "default" is busy: `npm run dev` is running. Use another name.');
    };
    const result = (await session.client.callTool({ name: 'terminal_run', arguments: { command: 'ls' } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(text(result), /^TerminalBusy: Terminal "default" is busy: `npm run dev` is running\. Use another name\.$/);
  });

  it('relays progress while a run is long, when the client sent a progress token', async () => {
    fixture.handlers.run = async (params, context) => {
      for (let i = 1; i <= 3; i++) {
        context.progress({ elapsedMs: i * 1000, outputChars: i * 10, lastLine: `step ${i}` });
        await new Promise((r) => setTimeout(r, 30));
      }
      return runResult({ command: params.command });
    };
    const updates: { progress: number; message?: string }[] = [];
    await session.client.callTool({ name: 'terminal_run', arguments: { command: 'make' } }, CallToolResultSchema, {
      onprogress: (p) => updates.push(p),
    });
    assert.deepEqual(
      updates.map((u) => [u.progress, u.message]),
      [
        [1000, '1s: step 1'],
        [2000, '2s: step 2'],
        [3000, '3s: step 3'],
      ],
    );
  });

  it('honours cancellation: the extension side sees the abort', async () => {
    let aborted: () => void = () => undefined;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    fixture.handlers.run = (params, context) =>
      new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted();
          resolve(runResult({ status: 'cancelled', command: params.command }));
        });
      });
    const abort = new AbortController();
    const call = session.client.callTool({ name: 'terminal_run', arguments: { command: 'sleep 100' } }, CallToolResultSchema, { signal: abort.signal });
    setTimeout(() => abort.abort('user pressed stop'), 200);
    await assert.rejects(call);
    await sawAbort;
  });

  it('reconnects for the next call after the bridge dropped mid-call', async () => {
    fixture.handlers.run = () => new Promise(() => undefined);
    const call = session.client.callTool({ name: 'terminal_run', arguments: { command: 'sleep 100' } });
    await new Promise((r) => setTimeout(r, 200));
    await fixture.dispose();
    const dropped = (await call) as CallToolResult;
    assert.equal(dropped.isError, true);
    assert.match(text(dropped), /^ConnectionLost: .*may still be running/);
    fixture = await startBridgeFixture({ workspace: fixture.workspace });
    fixture.handlers.list = () => ({ terminals: [{ name: 'default', busy: false, shellIntegration: true, pid: 7 }] });
    const listed = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
    assert.equal(listed.isError, undefined, text(listed));
    assert.match(text(listed), /"default": idle · shell pid 7/);
  });

  it('attaches the ledger reminder to every response, capped, and to errors too', async () => {
    const entry = (pid: number) => ({ pid, name: `node${pid}`, terminalName: 'dev', ports: pid === 1 ? [5173] : [], startedAt: new Date(Date.now() - 125_000).toISOString() });
    fixture.handlers.ledgerSummary = () => ({ running: Array.from({ length: 10 }, (_, i) => entry(i + 1)), orphaned: [entry(99)] });
    fixture.handlers.list = () => ({ terminals: [] });
    const listed = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
    const t = text(listed);
    assert.match(t, /Still running \(10; list_processes shows them, kill_process stops one\):\n- node1, pid 1, listening on 5173, terminal "dev", up 2m 5s\n/);
    assert.match(t, /- and 2 more\n/);
    assert.match(t, /Orphaned by an earlier window \(1; kill_orphans ends them\):\n- node99, pid 99/);
    const ledger = (listed.structuredContent as { ledger: { running: unknown[]; runningTotal: number; orphanedTotal: number } }).ledger;
    assert.equal(ledger.running.length, 8);
    assert.equal(ledger.runningTotal, 10);
    assert.equal(ledger.orphanedTotal, 1);
    fixture.handlers.killProcess = async () => {
      throw new ShepherdError(BridgeErrorCode.ProcessNotOwned, 'pid 1 is not a process Terminal Shepherd started.');
    };
    const refused = (await session.client.callTool({ name: 'kill_process', arguments: { pid: 1 } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^ProcessNotOwned: pid 1 is not a process Terminal Shepherd started\.\n\nStill running \(10/);
  });

  it('renders process trees and kill results', async () => {
    const started = new Date(Date.now() - 60_000).toISOString();
    const proc = (pid: number, name: string, children: unknown[] = []) => ({ pid, name, commandLine: `${name} --serve`, parentPid: 10, terminalName: 'dev', startedAt: started, status: 'running', ports: pid === 11 ? [8080] : [], children });
    fixture.handlers.listProcesses = () => ({ active: [proc(11, 'node', [proc(12, 'esbuild')])], orphaned: [{ ...proc(20, 'sleep'), status: 'orphaned', terminalName: 'old' }] } as never);
    const listed = (await session.client.callTool({ name: 'list_processes', arguments: {} })) as CallToolResult;
    assert.match(text(listed), /^Terminal "dev":\n- node \(pid 11, parent 10\) · listening on 8080 · up 1m: node --serve\n  - esbuild \(pid 12, parent 10\) · up 1m: esbuild --serve\n\nOrphaned/);
    fixture.handlers.killOrphans = () => ({ killed: [20, 21], failed: [22] });
    const killed = (await session.client.callTool({ name: 'kill_orphans', arguments: {} })) as CallToolResult;
    assert.equal(text(killed), 'Killed 2: pid 20, 21. Could not kill pid 22 (still alive, or not permitted); see list_processes.');
  });

  it('logs to stderr only', async () => {
    fixture.handlers.list = () => ({ terminals: [] });
    await session.client.callTool({ name: 'terminal_list', arguments: {} });
    assert.match(session.stderr(), /connected to the VS Code window/);
  });
});

describe('MCP server without a VS Code window', () => {
  it('says to open the folder in VS Code with the extension enabled', async () => {
    const workspace = await tempWorkspace();
    const session = await connectMcpServer({ workspace });
    try {
      const result = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.match(text(result), /^Unreachable: No VS Code window with the Terminal Shepherd extension is reachable for .*Open this folder in VS Code with the extension installed and enabled/);
    } finally {
      await session.close();
    }
  });

  it('prefers the bridge VS Code passes in the environment', async () => {
    const fixture = await startBridgeFixture();
    await fixture.publisher.dispose();
    const session = await connectMcpServer({
      workspace: await tempWorkspace(),
      env: { TERMINAL_SHEPHERD_BRIDGE: fixture.server.endpoint, TERMINAL_SHEPHERD_TOKEN: fixture.server.token },
    });
    try {
      fixture.handlers.list = () => ({ terminals: [] });
      const result = (await session.client.callTool({ name: 'terminal_list', arguments: {} })) as CallToolResult;
      assert.equal(result.isError, undefined, text(result));
    } finally {
      await session.close();
      await fixture.dispose();
    }
  });
});
