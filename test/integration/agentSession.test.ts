/**
 * The agent session from the client to the disk: the MCP server from source (its environment and
 * each call's _meta as a client sets them), the real BridgeClient and bridge socket, the window's
 * handlers and a real ProcessTracker over /proc. The id the client gave is on the process log line
 * of what the run started, read back from the file; list_processes with session "mine" keeps it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunParams, TerminalInfo } from '../../common/src/protocol';
import { silentLogger } from '../../common/src/logger';
import { createBridgeHandlers, type HandlerDependencies } from '../../extension/src/bridge/handlers';
import { ClientProcesses } from '../../extension/src/core/service/clientProcesses';
import { createProcessMonitor } from '../../extension/src/core/processes';
import { ProcessJanitor, waitFor } from '../unit/processes/helpers';
import { makeTracker, spawnShell, type TrackerFixture } from '../unit/ledger/trackerSupport';
import { runResult, startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';

describe('agent session: from the client’s environment and _meta to the run’s records on disk', function () {
  this.timeout(30_000);
  const janitor = new ProcessJanitor();
  let fixture: BridgeFixture;
  let ledger: TrackerFixture;
  let session: InMemoryMcpSession | undefined;

  beforeEach(async () => {
    fixture = await startBridgeFixture();
    ledger = makeTracker(createProcessMonitor('linux'), path.join(fixture.workspace, '.devtools'));
    await ledger.tracker.start();
    // A run: a real shell the ledger watches, the run started with the call's agent session, the command typed.
    const terminals: TerminalInfo[] = [];
    fixture.handlers.run = async (params: RunParams, { meta }) => {
      const name = `t${terminals.length + 1}`;
      terminals.push({ name, busy: true, shellIntegration: true, shell: 'bash', strategy: 'shepherd', command: params.command, ...(meta.agentSession ? { agentSession: meta.agentSession } : {}) });
      const shell = spawnShell(janitor);
      ledger.tracker.terminalOpened(name, shell.pid);
      ledger.tracker.runStarted(name, meta.agentSession);
      shell.type(params.command);
      await waitFor('the command tracked', async () => (await ledger.events()).find((e) => e.terminal === name && e.event === 'started'));
      return runResult({ name, command: params.command, status: 'running', exitCode: undefined });
    };
    // The window's own handlers over the real ledger (and the terminals as the runs above left them).
    const clients = new ClientProcesses({ ledger: ledger.tracker, monitor: createProcessMonitor(), enabled: () => false, logger: silentLogger, ownPid: process.pid });
    const handlers = createBridgeHandlers({ ledger: ledger.tracker, terminals: { list: () => terminals }, clients } as unknown as HandlerDependencies);
    fixture.handlers.listProcesses = handlers.listProcesses;
    fixture.handlers.list = handlers.list;
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await ledger.tracker.dispose();
    janitor.cleanup();
    await fixture.dispose();
  });

  function startedLines(): { terminal: string; cmd: string; agentSession?: unknown }[] {
    const text = readFileSync(path.join(fixture.workspace, '.devtools', 'process-log.jsonl'), 'utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: string; terminal: string; cmd: string; agentSession?: unknown })
      .filter((e) => e.event === 'started');
  }

  it('records the environment’s session, or the call’s conversation, on the process log line and lists it as "mine"', async () => {
    const client = { name: 'copilot-cli-test', version: '1.0.102' };
    session = await connectInMemory({ workspaceFolder: fixture.workspace, clientInfo: client, env: { COPILOT_AGENT_SESSION_ID: 'cop-int-1' } });
    await session.call('terminal_run', { command: 'sleep 31', name: 'a' });
    await session.client.callTool({ name: 'terminal_run', arguments: { command: 'sleep 32', name: 'b' }, _meta: { 'vscode.conversationId': 'conv-int-2' } });

    await waitFor('both lines on disk', () => (startedLines().length >= 2 ? true : undefined));
    const lines = startedLines();
    assert.deepEqual(lines.find((l) => l.cmd === 'sleep 31')?.agentSession, { client: client.name, id: 'cop-int-1', from: 'env.COPILOT_AGENT_SESSION_ID' });
    assert.deepEqual(lines.find((l) => l.cmd === 'sleep 32')?.agentSession, { client: client.name, id: 'conv-int-2', from: '_meta.vscode.conversationId' });

    const mine = (await session.call('list_processes', { session: 'mine' })).structuredContent as { active: { commandLine: string }[] };
    assert.deepEqual(mine.active.map((p) => p.commandLine), ['sleep 31'], 'the calls without _meta are the environment’s session');
    const mineText = JSON.stringify((await session.call('terminal_list', { session: 'mine' })).content);
    assert.ok(mineText.includes('started by copilot-cli-test session cop-int-1') && !mineText.includes('conv-int-2'), mineText);
    const all = (await session.call('list_processes', {})).structuredContent as { active: { commandLine: string }[] };
    assert.deepEqual(all.active.map((p) => p.commandLine).sort(), ['sleep 31', 'sleep 32']);
  });

  it('tells a client that names no session how to list everything instead of an empty "mine"', async () => {
    session = await connectInMemory({ workspaceFolder: fixture.workspace });
    const result = await session.call('list_processes', { session: 'mine' });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /names no agent session.*without session/);
  });
});
