/**
 * Every MCP tool from source (mcpToolsSupport.ts): long calls. Progress is relayed when the client
 * sent a progress token, saying the elapsed time and the last line, out of the call's timeout when
 * it gave one; a cancellation reaches the extension's side and the session still serves calls; a
 * call cancelled before it was sent starts nothing in the window.
 */
import assert from 'node:assert/strict';
import { runResult, type BridgeFixture } from '../support/bridgeFixture';
import type { InMemoryMcpSession } from '../support/inMemoryMcp';
import { script, sessionHooks } from './mcpToolsSupport';

describe('MCP tools from source (createServer over an in-memory transport)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  it('relays progress while a run is long, when the client sent a progress token', async () => {
    fixture.handlers.run = async (params, context) => {
      for (let i = 1; i <= 3; i++) {
        context.progress({ elapsedMs: i * 1000, outputChars: i * 10, lastLine: `step ${i}` });
        await new Promise((r) => setTimeout(r, 30));
      }
      return runResult({ command: params.command });
    };
    const updates: { progress: number; message?: string }[] = [];
    await session.call('terminal_run', { command: 'make' }, { onprogress: (p) => updates.push(p) });
    assert.deepEqual(
      updates.map((u) => [u.progress, u.message]),
      [
        [1000, '1s: step 1'],
        [2000, '2s: step 2'],
        [3000, '3s: step 3'],
      ],
    );
  });

  const waitingCalls: { tool: string; key: 'run' | 'state' | 'input'; args: Record<string, unknown> }[] = [
    { tool: 'terminal_run', key: 'run', args: { command: 'sleep 100' } },
    { tool: 'terminal_state', key: 'state', args: { name: 'ci', wait: true, timeout: 3000 } },
    { tool: 'terminal_input', key: 'input', args: { name: 'ci', text: 'y', timeout: 3000 } },
  ];

  for (const { tool, key, args } of waitingCalls) {
    it(`${tool}: progress says the elapsed time and the last line, out of the call's timeout when it gave one`, async () => {
      script(fixture, key, async (context) => {
        context.progress({ elapsedMs: 1500, outputChars: 0 });
        await new Promise((r) => setTimeout(r, 30));
        context.progress({ elapsedMs: 2000, outputChars: 3, lastLine: 'ok' });
        await new Promise((r) => setTimeout(r, 30));
        return runResult();
      });
      const updates: { progress: number; total?: number; message?: string }[] = [];
      await session.call(tool, args, { onprogress: (p) => updates.push(p) });
      const total = args.timeout as number | undefined;
      assert.deepEqual(
        updates.map((u) => [u.progress, u.total, u.message]),
        [
          [1500, total, '1.5s, no output yet'],
          [2000, total, '2s: ok'],
        ],
      );
    });

    it(`${tool}: honours cancellation: the extension side sees the abort`, async () => {
      let started: () => void = () => undefined;
      const sawStart = new Promise<void>((resolve) => (started = resolve));
      let aborted: () => void = () => undefined;
      const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
      script(fixture, key, (context) => {
        started();
        return new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted();
            resolve(runResult({ status: 'cancelled' }));
          });
        });
      });
      const abort = new AbortController();
      const call = session.call(tool, args, { signal: abort.signal });
      await sawStart;
      abort.abort('user pressed stop');
      await assert.rejects(call);
      await sawAbort;
      fixture.handlers.list = () => ({ terminals: [] });
      assert.equal((await session.call('terminal_list', {})).isError, undefined, 'the session still serves calls');
    });
  }

  it('starts nothing in the window for a call cancelled before it was sent', async () => {
    const runs = script(fixture, 'run', () => runResult());
    fixture.handlers.list = () => ({ terminals: [] });
    const abort = new AbortController();
    // The session's first call, so the bridge connection is still being made when it is cancelled.
    const call = session.call('terminal_run', { command: 'rm -rf build' }, { signal: abort.signal });
    abort.abort('user pressed stop');
    await assert.rejects(call);
    // This call goes over the same connection after anything the cancelled one sent.
    assert.equal((await session.call('terminal_list', {})).isError, undefined);
    assert.deepEqual(runs, []);
  });
});
