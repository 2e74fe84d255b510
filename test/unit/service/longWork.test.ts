/**
 * Long work through the terminal service (scripted terminal host, real runs, real output capture,
 * real ledger and dev servers on a scripted process table): a call returns `running` with the
 * exact next call before its client's deadline (known client, the setting, none for an MCP task);
 * a cancelled call stops the waiting, never the command, and the next call reports how it ended;
 * a command that turns into a watcher returns `watching` with its cycle's counts, reports its
 * next cycle, and is never started twice.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallMeta } from '../../../extension/src/core/service/callDeadline';
import type { Disposable } from '../../../extension/src/core/events';
import { attachToTerminalService } from '../../../extension/src/core/service/terminalServiceAdapter';
import { DevServers } from '../../../extension/src/core/servers/devServers';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { type TerminalService, type AbandonedRun } from '../../../extension/src/core/service/terminalService';
import { FakeProcessMonitor } from '../ledger/fakeProcessMonitor';
import { collectingLogger, type CollectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { makeTracker, type TrackerFixture } from '../ledger/trackerSupport';
import { FakeTerminalHost } from '../terminals/fakeTerminalHost';
import { fakeTerminalService } from './serviceSupport';

const recorded = (name: string): string => readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'watchers', name), 'utf8').replace(/\n/g, '\r\n');
const waitNext = { tool: 'terminal_state', arguments: { name: 'default', wait: true } };

describe('long work through the terminal service: deadlines, cancels, watchers', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let ledger: TrackerFixture;
  let service: TerminalService;
  let attachment: Disposable;
  let logger: CollectingLogger;
  let settings: ShepherdSettings;

  async function setup(overrides: Partial<ShepherdSettings> = {}): Promise<void> {
    settings = { ...defaultSettings, gracePeriodMs: 200, defaultTimeoutMs: 5000, shellIntegrationTimeoutMs: 1000, ...overrides };
    host = new FakeTerminalHost();
    // Commands keep running until a test ends them.
    host.onExecute = (execution) => {
      execution.start();
      execution.push('working\r\n');
    };
    const monitor = new FakeProcessMonitor();
    for (let pid = 1001; pid <= 1004; pid++) monitor.spawn(1, 'bash', '/bin/bash', pid);
    ledger = makeTracker(monitor, dirs.make('long-work-ledger-'));
    await ledger.tracker.start();
    logger = collectingLogger();
    service = fakeTerminalService(host, () => settings, dirs, { logger, servers: new DevServers({ ledger: ledger.tracker, monitor, logger }) });
    attachment = attachToTerminalService(ledger.tracker, service, logger);
  }

  beforeEach(() => setup());

  afterEach(async () => {
    attachment.dispose();
    service.dispose();
    host.dispose();
    await ledger.tracker.dispose();
    dirs.cleanup();
  });

  const known: CallMeta = { client: { name: 'codex-mcp-client', version: '0.150.0' }, clientDeadlineMs: 2500, deadlineSource: "Codex's tool_timeout_sec" };

  it('a known client: running before its deadline, with the next call; the same again; then the exact exit code', async () => {
    const first = await service.run({ command: 'make all', timeoutMs: 60_000 }, { meta: known });
    assert.equal(first.status, 'running');
    assert.equal(first.output, 'working');
    assert.deepEqual(first.nextCall, waitNext);
    assert.match(first.message ?? '', /^Still running after .*: this call returns before the client's own 2\.5 s limit for a tool call \(Codex's tool_timeout_sec\), and the command keeps running in terminal "default"\. Continue with terminal_state \{name: "default", wait: true\}/);
    assert.ok(logger.has('info', /terminal_run from "codex-mcp-client" 0\.150\.0 via a deadline-aware wait \(returns within 1\.5 s; the client cuts calls at 2\.5 s: Codex's tool_timeout_sec\)/));
    const second = await service.state({ name: 'default', wait: true, timeoutMs: 60_000 }, { meta: known });
    assert.equal(second.status, 'running');
    assert.deepEqual(second.nextCall, waitNext);
    const third = service.state({ name: 'default', wait: true, timeoutMs: 60_000 }, { meta: known });
    host.last.current.push('done\r\n');
    host.last.current.end(7);
    const done = await third;
    assert.deepEqual([done.status, done.exitCode, done.output, done.nextCall], ['completed', 7, 'working\ndone', undefined]);
  });

  it('a client it does not know: the run.clientTimeoutMs setting is its deadline', async () => {
    await setup({ clientTimeoutMs: 2000 });
    const result = await service.run({ command: 'make all' }, { meta: { client: { name: 'some-agent', version: '1' } } });
    assert.equal(result.status, 'running');
    assert.match(result.message ?? '', /the client's own 2\.0 s limit for a tool call \(the terminalShepherd\.run\.clientTimeoutMs setting, for clients not known by name\)/);
    host.last.current.end(0);
  });

  it('an MCP task has no deadline: its own timeout alone ends the wait', async () => {
    const result = await service.run({ command: 'make all', timeoutMs: 3000 }, { meta: { ...known, task: true } });
    assert.equal(result.status, 'timeout', 'not running at 1.5 s: no client deadline applies to a task');
    assert.ok(logger.has('info', /via an MCP task \(no deadline/));
    host.last.current.end(0);
  });

  it('a cancelled call stops the waiting, never the command: nothing typed, the person is told, the next call reports its end', async () => {
    const abandoned: AbandonedRun[] = [];
    service.onDidAbandonRun((a) => abandoned.push(a));
    const abort = new AbortController();
    const call = service.run({ command: 'sleep 10; echo survived' }, { signal: abort.signal, meta: known });
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    const cancelled = await call;
    assert.equal(cancelled.status, 'cancelled');
    assert.match(cancelled.message ?? '', /stopped waiting, and the command keeps running in terminal "default" \(a cancel never stops it\)/);
    assert.deepEqual(host.last.sentText, [], 'no Ctrl+C');
    assert.deepEqual(abandoned.map(({ runId, ...rest }) => (assert.equal(typeof runId, 'number'), rest)), [{ terminal: 'default', command: 'sleep 10; echo survived', client: 'codex-mcp-client' }]);
    assert.equal((await service.state({ name: 'default' })).status, 'running');
    host.last.current.push('survived\r\n');
    host.last.current.end(0);
    const next = await service.state({ name: 'default', wait: true });
    assert.deepEqual([next.status, next.exitCode, next.output], ['completed', 0, 'working\nsurvived']);
  });

  it('terminal_run after a run that ended unreported says how it ended (once)', async () => {
    const abort = new AbortController();
    const call = service.run({ command: 'npm ci' }, { signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    await call;
    host.last.current.push('added 312 packages\r\n');
    host.last.current.end(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    host.onExecute = (execution) => execution.complete('next\r\n', 0);
    const next = await service.run({ command: 'echo next' });
    assert.equal(next.status, 'completed');
    assert.deepEqual(next.previous, { command: 'npm ci', status: 'completed', exitCode: 3, durationMs: next.previous!.durationMs, output: 'working\nadded 312 packages' });
    assert.match(next.message ?? '', /Before this command, `npm ci` in terminal "default" completed with exit code 3 while no call was waiting on it/);
    assert.equal((await service.run({ command: 'echo again' })).previous, undefined, 'reported once');
  });

  it('a test runner turned watcher: watching with its counts, its next cycle after an edit, never started twice', async () => {
    host.onExecute = (execution) => {
      execution.start();
      execution.push(recorded('vitest-4-fail.txt'));
    };
    const first = await service.run({ command: 'npx vitest', timeoutMs: 30_000 });
    assert.equal(first.status, 'watching');
    assert.deepEqual(
      { ...first.watch, stop: undefined, rerun: undefined },
      { tool: 'vitest', cycle: 1, summary: ['Test Files  1 failed | 1 passed (2)', 'Tests  1 failed | 3 passed (4)'], passed: 3, failed: 1, stop: undefined, rerun: undefined },
    );
    assert.equal(first.watch?.stop, 'terminal_input {name: "default", text: "q", enter: false} (quits), or terminal_input {name: "default", text: "\\u0003"}');
    assert.deepEqual(first.nextCall, waitNext);
    assert.match(first.message ?? '', /watching for file changes \(vitest, cycle 1: 1 failed, 3 passed\)\. It keeps running in terminal "default"/);
    assert.equal((await service.state({ name: 'default' })).status, 'watching');
    const quiet = await service.state({ name: 'default', wait: true, timeoutMs: 300 });
    assert.equal(quiet.status, 'watching');
    assert.match(quiet.message ?? '', /^No new cycle in \d+ ms\./);
    // A file was edited: vitest runs again.
    const next = service.state({ name: 'default', wait: true, timeoutMs: 30_000 });
    host.last.current.push(recorded('vitest-4-rerun.txt'));
    const second = await next;
    assert.deepEqual([second.status, second.watch?.cycle, second.watch?.passed, second.watch?.failed], ['watching', 2, 1, 1]);
    // Never twice: the same watcher in the same folder is reported, not started again.
    const again = await service.run({ command: 'npx  vitest', name: 'other' });
    assert.equal(again.status, 'already_running');
    assert.equal(host.terminals.filter((t) => !t.closed).length, 1);
  });
});
