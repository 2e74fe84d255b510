/**
 * Every MCP tool from source (mcpToolsSupport.ts): the ledger reminder. Every answer, errors too,
 * names what still runs (capped, with the totals and the next step in the structured ledger) and
 * the running dev servers with their URLs; there is no reminder text when nothing runs, and none
 * (logged why) when the ledger cannot be read.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode } from '../../common/src/protocol';
import { ShepherdError } from '../../extension/src/core/errors';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { collectingLogger } from '../support/collectingLogger';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { toolText as text } from '../support/mcpClient';
import { script, sessionHooks } from './mcpToolsSupport';

describe('MCP tools from source (createServer over an in-memory transport)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  it('the reminder names the running dev servers with their URLs', async () => {
    fixture.handlers.ledgerSummary = () => ({
      running: [],
      orphaned: [],
      servers: [{ terminal: 'web', command: 'npm run dev', pid: 70, ports: [5173], urls: ['http://localhost:5173/'] }],
    });
    script(fixture, 'list', () => ({ terminals: [] }));
    const result = await session.call('terminal_list', {});
    assert.match(text(result), /Dev servers running \(reuse them; terminal_run with the same command says already_running\):\n- `npm run dev` in terminal "web": http:\/\/localhost:5173\/ \(pid 70\)$/);
    assert.deepEqual((result.structuredContent as { ledger: { servers: unknown } }).ledger.servers, [
      { terminal: 'web', command: 'npm run dev', pid: 70, ports: [5173], urls: ['http://localhost:5173/'] },
    ]);
  });

  it('attaches the ledger reminder to every response, capped, and to errors too', async () => {
    const entry = (pid: number) => ({ pid, name: `node${pid}`, terminalName: 'dev', ports: pid === 1 ? [5173] : [], startedAt: new Date(Date.now() - 125_000).toISOString() });
    fixture.handlers.ledgerSummary = () => ({ running: Array.from({ length: 10 }, (_, i) => entry(i + 1)), orphaned: [entry(99)] });
    fixture.handlers.list = () => ({ terminals: [] });
    const listed = await session.call('terminal_list', {});
    const t = text(listed);
    assert.match(t, /Still running \(10; list_processes shows them, kill_process stops one\):\n- node1, pid 1, listening on 5173, terminal "dev", up 2m 5s\n/);
    assert.match(t, /- and 2 more\n/);
    assert.match(t, /Orphaned by an earlier window \(1; kill_orphans ends them\):\n- node99, pid 99/);
    const ledger = (listed.structuredContent as { ledger: { running: unknown[]; runningTotal: number; orphanedTotal: number } }).ledger;
    assert.equal(ledger.running.length, 8);
    assert.equal(ledger.runningTotal, 10);
    assert.equal(ledger.orphanedTotal, 1);
    assert.equal((ledger as { next?: string }).next, 'list_processes shows them, kill_process stops one; kill_orphans ends them.', 'the next step is in the structured ledger too');
    fixture.handlers.killProcess = async () => {
      throw new ShepherdError(BridgeErrorCode.ProcessNotOwned, 'pid 1 is not a process Terminal Shepherd started.');
    };
    const refused = await session.call('kill_process', { pid: 1 });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^ProcessNotOwned: pid 1 is not a process Terminal Shepherd started\.\n\nStill running \(10/);
  });

  it('the reminder comes with the answer: the summary as the window answered, no process/summary round trip after it', async () => {
    // A bridge whose log shows every request it served.
    await session.close();
    await fixture.dispose();
    const served = collectingLogger();
    fixture = await startBridgeFixture({ logger: served });
    session = await connectInMemory({ workspaceFolder: fixture.workspace });
    fixture.handlers.list = () => ({ terminals: [] });
    const entry = { pid: 7, name: 'node', terminalName: 'dev', ports: [], startedAt: new Date().toISOString() };
    fixture.handlers.ledgerSummary = () => ({ running: [entry], orphaned: [] });
    const listed = await session.call('terminal_list', {});
    assert.match(text(listed), /Still running \(1;.*\n- node, pid 7/);
    assert.ok(served.has('debug', /bridge: terminal\/list/));
    assert.ok(!served.has('debug', /bridge: process\/summary/), 'no process/summary request');
  });

  it('adds no reminder text when nothing runs, and only the two totals to the structured ledger', async () => {
    fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
    fixture.handlers.list = () => ({ terminals: [] });
    const listed = await session.call('terminal_list', {});
    assert.equal(text(listed), 'No managed terminals. terminal_run creates one (name "default" unless you give a name).');
    assert.deepEqual((listed.structuredContent as { ledger: unknown }).ledger, { runningTotal: 0, orphanedTotal: 0 });
  });

  it('answers without the reminder when the ledger cannot be read, and logs why', async () => {
    fixture.handlers.ledgerSummary = () => {
      throw new Error('ledger file locked');
    };
    fixture.handlers.killOrphans = () => ({ killed: [20], failed: [] });
    const killed = await session.call('kill_orphans', {});
    assert.equal(killed.isError, undefined, text(killed));
    assert.equal(text(killed), 'Killed 1: pid 20.');
    assert.deepEqual(killed.structuredContent, { killed: [20], failed: [] });
    assert.match(session.log(), /debug .*no ledger summary for this response .*ledger file locked/);
  });
});
