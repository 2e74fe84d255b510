/**
 * Long work through the MCP server from source: what the window learns of each call (the client
 * as it named itself, its deadline when known, or that the call is an MCP task), terminal_run as
 * an MCP task for a client that asks (the SDK client's callToolStream: a task at once, status
 * messages, the result when the command ends), answered directly for one that does not, and
 * tasks/cancel stopping only the waiting.
 */
import assert from 'node:assert/strict';
import type { RequestMeta } from '../../common/src/protocol';
import type { RequestContext } from '../../extension/src/bridge/bridgeServer';
import { runResult, startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { TEST_CLIENT_INFO } from '../support/mcpClient';

describe('long work through the MCP server: deadlines and MCP tasks', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession | undefined;
  const metas: Array<RequestContext['meta']> = [];

  beforeEach(async () => {
    fixture = await startBridgeFixture();
    metas.length = 0;
    fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fixture.dispose();
  });

  const open = async (options: { env?: NodeJS.ProcessEnv; clientInfo?: { name: string; version: string } } = {}): Promise<InMemoryMcpSession> =>
    (session = await connectInMemory({ workspaceFolder: fixture.workspace, ...options }));

  it('tells the window the client and its known deadline (or nothing for one it does not know)', async () => {
    fixture.handlers.run = (_params, context) => {
      metas.push(context.meta);
      return runResult();
    };
    await (await open({ clientInfo: { name: 'codex-mcp-client', version: '0.150.0' } })).call('terminal_run', { command: 'make' });
    assert.match(metas[0]?.deadlineSource ?? '', /Codex's default tool_timeout_sec/);
    assert.deepEqual({ ...metas[0], deadlineSource: undefined }, { client: { name: 'codex-mcp-client', version: '0.150.0' }, clientDeadlineMs: 60_000, deadlineSource: undefined });
    await session!.close();
    await (await open()).call('terminal_run', { command: 'make' });
    assert.deepEqual(metas[1], { client: TEST_CLIENT_INFO } satisfies Omit<RequestMeta, 'progressId'>);
    await session!.close();
    await (await open({ env: { TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS: '30000' } })).call('terminal_state', { name: 'default', wait: true });
    assert.equal(metas.length, 2, 'terminal_state goes to its own method');
  });

  it('the override reaches terminal_state too', async () => {
    fixture.handlers.state = (_params, context) => {
      metas.push(context.meta);
      return runResult();
    };
    await (await open({ env: { TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS: '30000' } })).call('terminal_state', { name: 'default', wait: true });
    assert.deepEqual(metas[0], { client: TEST_CLIENT_INFO, clientDeadlineMs: 30_000, deadlineSource: 'TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS=30000' });
  });

  it('declares tasks for tools/call, and terminal_run alone as optional', async () => {
    const s = await open();
    assert.deepEqual(s.client.getServerCapabilities()?.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await s.client.listTools();
    assert.deepEqual(
      tools.filter((t) => t.execution?.taskSupport !== 'forbidden').map((t) => [t.name, t.execution?.taskSupport]),
      [['terminal_run', 'optional']],
    );
  });

  it('a client that asks for a task gets one at once, status messages while the command runs, and the result when it ends', async () => {
    let finish: () => void = () => undefined;
    fixture.handlers.run = (_params, context) => {
      metas.push(context.meta);
      return new Promise((resolve) => {
        let elapsed = 0;
        const tick = setInterval(() => context.progress({ elapsedMs: (elapsed += 2100), outputChars: 5, lastLine: `step ${elapsed}` }), 20);
        finish = () => {
          clearInterval(tick);
          resolve(runResult({ command: 'make', output: 'built', exitCode: 0 }));
        };
      });
    };
    const s = await open();
    const kinds: string[] = [];
    const messages: string[] = [];
    let result: Record<string, unknown> | undefined;
    for await (const message of s.client.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { command: 'make' } })) {
      kinds.push(message.type);
      if (message.type === 'taskStatus' && message.task.statusMessage) {
        messages.push(message.task.statusMessage);
        if (messages.length === 2) finish();
      }
      if (message.type === 'result') result = message.result.structuredContent as Record<string, unknown>;
      if (message.type === 'error') assert.fail(String(message.error));
    }
    assert.equal(kinds[0], 'taskCreated');
    assert.equal(kinds.at(-1), 'result');
    assert.match(messages[0] ?? '', /^\d+(\.\d)?s: step \d+$/);
    assert.deepEqual([result?.status, result?.output, result?.exitCode], ['completed', 'built', 0]);
    assert.deepEqual(metas[0], { client: TEST_CLIENT_INFO, task: true });
    assert.match(s.log(), /terminal_run: runs as MCP task run-1-\w+; the client follows it to its result/);
  });

  it('a task whose command ends within a second is completed in its first reply', async () => {
    fixture.handlers.run = () => runResult();
    const s = await open();
    const seen: string[] = [];
    for await (const message of s.client.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { command: 'true' } })) {
      seen.push(message.type === 'taskCreated' ? `taskCreated ${message.task.status}` : message.type);
    }
    assert.deepEqual(seen.slice(0, 1), ['taskCreated completed']);
    assert.equal(seen.at(-1), 'result');
    assert.match(s.log(), /ended within 1000 ms: its first reply carries the result/);
  });

  it('a client that asks for none is answered directly (no task status sent to it)', async () => {
    fixture.handlers.run = () => runResult();
    const s = await open();
    let notifications = 0;
    s.client.fallbackNotificationHandler = async () => {
      notifications++;
    };
    const result = await s.call('terminal_run', { command: 'echo hello' });
    assert.equal((result.structuredContent as { status: string }).status, 'completed');
    assert.equal(notifications, 0);
    assert.deepEqual((await s.client.experimental.tasks.listTasks()).tasks, [], 'a direct call leaves no task behind');
    assert.match(s.log(), /terminal_run: answered directly/);
  });

  it('tasks/cancel stops the waiting in the window (the command is the window\'s to keep running)', async () => {
    let aborted: () => void = () => undefined;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    let started: () => void = () => undefined;
    const sawStart = new Promise<void>((resolve) => (started = resolve));
    fixture.handlers.run = (_params, context) =>
      new Promise((resolve) => {
        started();
        context.signal.addEventListener('abort', () => {
          aborted();
          resolve(runResult({ status: 'cancelled' }));
        });
      });
    const s = await open();
    for await (const message of s.client.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { command: 'sleep 100' } })) {
      if (message.type === 'taskCreated') {
        await sawStart; // the run reached the window
        const cancelled = await s.client.experimental.tasks.cancelTask(message.task.taskId);
        assert.equal(cancelled.status, 'cancelled');
        break;
      }
    }
    await sawAbort;
  });
});
