// Every tool as Copilot agent mode reaches it: through VS Code's own MCP client and
// vscode.lm.invokeTool (which sends a progress token with every call), and through an MCP client
// over stdio with and without a progress token. terminal_list, list_processes and kill_orphans
// failed through VS Code's client before (`Unrecognized key: "progressId"`, issue 10).
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { toolText } from '../support/mcpClient';
import { alive, flatten, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';
import { SHEPHERD_TOOLS, invokeThroughVsCode, startVsCodeMcpServer, type VsCodeToolNames } from '../support/vscodeMcp';
import type { ListProcessesResult, TerminalRunResult } from '../../common/src/protocol';

describe("every tool through VS Code's own MCP client (vscode.lm.invokeTool) and over stdio, with and without a progress token", function () {
  this.timeout(180_000);
  // Debug level: the extension's log says which bridge requests asked for progress.
  const win = suiteWindow(() =>
    openShepherdWindow({ label: 'vscode-client', settings: { 'terminalShepherd.log.level': 'debug' }, launch: { serverArgs: ['--log', 'debug'] } }),
  );
  let tools: VsCodeToolNames;
  before(async function () {
    this.timeout(120_000);
    tools = await startVsCodeMcpServer(win);
  });

  /** A tool through VS Code; its structured content (VS Code hands the model that JSON). */
  async function viaVsCode<T = TerminalRunResult & Record<string, unknown>>(tool: string, input: Record<string, unknown>): Promise<T> {
    const { text } = await invokeThroughVsCode(win, tools[tool]!, input);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${tool} through VS Code answered with no structured content: ${text}`);
    }
  }

  it('VS Code lists every tool', () => {
    assert.deepEqual(Object.keys(tools).sort(), [...SHEPHERD_TOOLS].sort(), JSON.stringify(tools));
  });

  it('terminal_run, terminal_input and terminal_state through VS Code', async () => {
    const asked = await viaVsCode('terminal_run', { command: 'read -p "Deploy? [y/N] " a; echo "answer=$a"', name: 'vsc' });
    assert.equal(asked.status, 'waiting_for_input');
    assert.equal(asked.prompt, 'Deploy? [y/N]');
    const answered = await viaVsCode('terminal_input', { name: 'vsc', text: 'y' });
    assert.equal(answered.status, 'completed');
    assert.match(answered.output, /answer=y$/);
    const state = await viaVsCode('terminal_state', { name: 'vsc' });
    assert.equal(state.status, 'completed');
    assert.equal(state.exitCode, 0);
  });

  it('terminal_list, list_processes, kill_orphans and workspace_info through VS Code (strict empty params: they failed with its progress token)', async () => {
    const list = await viaVsCode<{ terminals: { name: string; busy: boolean }[] }>('terminal_list', {});
    assert.ok(list.terminals.some((t) => t.name === 'vsc' && !t.busy), JSON.stringify(list));
    const processes = await viaVsCode<ListProcessesResult>('list_processes', {});
    assert.deepEqual(processes.orphaned, []);
    const killed = await viaVsCode<{ killed: number[]; failed: number[] }>('kill_orphans', {});
    assert.deepEqual({ killed: killed.killed, failed: killed.failed }, { killed: [], failed: [] });
    const info = await viaVsCode<{ analysis?: { projectRoot: string }; servers: unknown[] }>('workspace_info', {});
    assert.equal(info.analysis?.projectRoot, win.workspace);
  });

  it('kill_process through VS Code ends a process the ledger owns (checked in /proc)', async () => {
    const started = await viaVsCode('terminal_run', { command: 'sleep 300', name: 'vsc-bg', waitMode: 'background' });
    assert.equal(started.status, 'running');
    const sleeper = await waitFor('the sleep in the ledger', 20_000, async () => {
      const listed = await viaVsCode<ListProcessesResult>('list_processes', {});
      return flatten(listed.active).find((p) => p.terminalName === 'vsc-bg' && p.commandLine === 'sleep 300');
    });
    assert.ok(alive(sleeper.pid));
    const killed = await viaVsCode<{ killed: number[] }>('kill_process', { pid: sleeper.pid });
    assert.deepEqual(killed.killed, [sleeper.pid]);
    assert.equal(alive(sleeper.pid), false);
  });

  it('every call VS Code made carried a progress token, and it reached the window beside the params', async () => {
    const log = await waitFor("the extension's log", 10_000, () =>
      win.vscode.extensionLogs()
        .find((t) => /bridge: process\/killOrphans/.test(t)),
    );
    // Up to the first stdio call (the tests above went through VS Code only).
    const viaVsCodeOnly = log.slice(0, log.indexOf('terminal "stdio" created'));
    const calls = [...viaVsCodeOnly.matchAll(/bridge: ((?:terminal|process|workspace)\/\w+)( \(progress asked\))?/g)].filter((m) => m[1] !== 'process/summary');
    assert.ok(calls.length >= 10, `tool calls logged: ${calls.length}`);
    assert.deepEqual(calls.filter((m) => m[2] === undefined).map((m) => m[1]), [], 'tool calls through VS Code without a progress token');
  });

  for (const withToken of [false, true]) {
    it(`every tool over stdio ${withToken ? 'with' : 'without'} a progress token`, async () => {
      const name = withToken ? 'stdio-token' : 'stdio';
      const call = async (tool: string, args: Record<string, unknown>): Promise<CallToolResult> => {
        const result = (await win.mcp.client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
          timeout: 120_000,
          ...(withToken ? { onprogress: () => undefined } : {}),
        })) as CallToolResult;
        assert.notEqual(result.isError, true, `${tool}: ${toolText(result)}`);
        return result;
      };
      const structured = <T>(r: CallToolResult): T => r.structuredContent as T;
      const run = structured<TerminalRunResult>(await call('terminal_run', { command: 'sleep 300', name, waitMode: 'background' }));
      assert.equal(run.status, 'running');
      assert.equal(structured<TerminalRunResult>(await call('terminal_state', { name })).status, 'running');
      assert.ok(structured<{ terminals: { name: string }[] }>(await call('terminal_list', {})).terminals.some((t) => t.name === name));
      const sleeper = await waitFor('the sleep in the ledger', 20_000, async () =>
        flatten(structured<ListProcessesResult>(await call('list_processes', {})).active).find((p) => p.terminalName === name && p.commandLine === 'sleep 300'),
      );
      assert.deepEqual(structured<{ killed: number[] }>(await call('kill_process', { pid: sleeper.pid })).killed, [sleeper.pid]);
      assert.equal(structured<TerminalRunResult>(await call('terminal_input', { name, text: '\u0003' })).status, 'completed');
      assert.deepEqual(structured<{ killed: number[] }>(await call('kill_orphans', {})).killed, []);
      assert.equal(typeof structured<Record<string, unknown>>(await call('workspace_info', {})), 'object');
    });
  }
});
