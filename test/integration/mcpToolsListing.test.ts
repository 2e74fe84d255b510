/**
 * Every MCP tool from source (mcpToolsSupport.ts): what a client sees before it calls. The eight
 * tools with described inputs, output schemas, titles that read after VS Code's "Run", annotations
 * that make VS Code confirm the acting tools only and review no result, and descriptions within a
 * model's budget that name when to prefer terminal_run, each status and the next call.
 */
import assert from 'node:assert/strict';
import { runStatusSchema } from '../../common/src/protocol';
import { ALL_RUN_STATUSES, describeStatus, MAX_DESCRIPTION_CHARS, REPORTED_STATUSES, runStatusGuide } from '../../mcp-server/src/tools/support/toolGuide';
import type { BridgeFixture } from '../support/bridgeFixture';
import { IN_MEMORY_SERVER_VERSION, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { sessionHooks } from './mcpToolsSupport';

describe('MCP tools from source (createServer over an in-memory transport)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  it('lists the terminal tools with described inputs, output schemas and honest annotations', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['kill_orphans', 'kill_process', 'list_processes', 'terminal_input', 'terminal_list', 'terminal_run', 'terminal_state', 'workspace_info']);
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
    assert.deepEqual(session.client.getServerVersion(), { name: 'terminal-shepherd', title: 'Terminal Shepherd', version: IN_MEMORY_SERVER_VERSION });
  });

  it('annotations ask VS Code for what each tool does: no confirmation to read, one before acting, never a review of results', async () => {
    const { tools } = await session.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    // VS Code 1.139: readOnlyHint false = a confirmation before the call; openWorldHint true = a review of every result.
    const readOnly = ['terminal_state', 'terminal_list', 'list_processes', 'workspace_info'];
    const acting = ['terminal_run', 'terminal_input', 'kill_process', 'kill_orphans'];
    for (const name of readOnly) assert.deepEqual(hints[name], { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, name);
    for (const name of acting) {
      assert.equal(hints[name]!.readOnlyHint, false, `${name} asks before it acts`);
      assert.equal(hints[name]!.destructiveHint, true, `${name} is honest about what it can destroy`);
      assert.equal(hints[name]!.openWorldHint, false, `${name}'s results reach the model without a review`);
    }
    assert.deepEqual([...readOnly, ...acting].sort(), tools.map((t) => t.name).sort(), 'every tool is classified');
  });

  it('descriptions fit a model\'s budget and say what a model needs: when to prefer terminal_run, each status and the next call', async () => {
    const { tools } = await session.client.listTools();
    for (const tool of tools) {
      assert.ok(tool.description!.length <= MAX_DESCRIPTION_CHARS, `${tool.name}: ${tool.description!.length} characters (most ${MAX_DESCRIPTION_CHARS})`);
      assert.ok(tool.title && !/^Run\b/.test(tool.title), `${tool.name}: VS Code shows "Run <title>", so the title is a noun (${tool.title})`);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description!]));
    assert.match(byName.terminal_run!, /Prefer it to run_in_terminal/);
    const returns = { terminal_run: ALL_RUN_STATUSES, terminal_state: REPORTED_STATUSES, terminal_input: REPORTED_STATUSES };
    for (const [name, statuses] of Object.entries(returns)) {
      for (const status of statuses) assert.ok(byName[name]!.includes(`- ${status}: ${describeStatus(status)}`), `${name} describes the status ${status}`);
    }
    assert.ok(!(REPORTED_STATUSES as readonly string[]).includes('already_running'), 'a report is always about a run that exists');
    for (const status of runStatusSchema.options) assert.ok(runStatusGuide[status], `the guide covers ${status}`);
  });
});
