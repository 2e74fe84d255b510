/**
 * process-log.jsonl as the write-ahead record: a window that dies before its snapshot
 * (active-processes.json) saw a process still leaves the process's `started` event, and the next
 * window finds it as an orphan, identity-checked. The replay's rules on their own (logReconcile),
 * then a window on the real /proc whose snapshots never reach the disk.
 */
import assert from 'node:assert/strict';
import type { ActiveEntry, LedgerEvent, OwnerIdentity } from '../../../extension/src/core/ledger/formats';
import { LedgerStore } from '../../../extension/src/core/ledger/ledgerStore';
import { unsnapshotted } from '../../../extension/src/core/ledger/logReconcile';
import { describeWhere } from '../../support/skips';
import { waitFor } from '../processes/helpers';
import { makeTracker, realProcessSuite, runInShell } from './trackerSupport';

const ts = '2026-11-25T10:00:00.000Z';
const ev = (event: LedgerEvent['event'], sessionId: string, pid: number, extra: Partial<LedgerEvent> = {}): LedgerEvent => ({
  event,
  ts,
  sessionId,
  pid,
  startTime: `${pid}@boot`,
  name: event.startsWith('session_') ? 'extension host' : 'sleep',
  terminal: event.startsWith('session_') ? '' : 'jobs',
  ...(event === 'started' || event === 'spawned' || event === 'orphaned' ? { cmd: `sleep ${pid}`, parentPid: 10, startedAt: ts, ports: [] } : {}),
  ...extra,
});
const keys = (entries: readonly ActiveEntry[]): string[] => entries.map((e) => `${e.pid}:${e.sessionId}:${e.owner.pid}/${e.owner.startTime}:${e.status}`);

describe('the process log replayed at startup (pure)', () => {
  // Pid 4242 is alive (maybe the window that wrote those lines); 99999999 is not.
  const alive = (pid: number): boolean => pid === 4242;

  it('finds what a session that died logged and its snapshot lacks; skips what ended, what the snapshot has, clean sessions and its own', () => {
    const events = [
      ev('session_started', 'A', 100),
      ev('started', 'A', 1),
      ev('spawned', 'A', 2),
      ev('completed', 'A', 2),
      ev('started', 'A', 3),
      ev('ports', 'A', 1, { ports: [5173] }),
      ev('session_started', 'B', 200),
      ev('started', 'B', 4),
      ev('session_ended', 'B', 200),
      ev('session_started', 'ME', 300),
      ev('started', 'ME', 5),
    ];
    const snapshot = [{ pid: 3, startTime: '3@boot' } as ActiveEntry];
    const found = unsnapshotted(events, snapshot, 'ME', alive);
    assert.deepEqual(keys(found), ['1:A:100/100@boot:running']);
    assert.deepEqual(found[0]!.ports, [5173]);
    assert.equal(found[0]!.commandLine, 'sleep 1');
  });

  it('a process a later window adopted is that window\'s; one it closed or killed is gone', () => {
    const events = [
      ev('session_started', 'A', 100),
      ev('started', 'A', 1),
      ev('started', 'A', 2),
      ev('session_started', 'C', 400),
      ev('orphaned', 'C', 1, { fromSessionId: 'A' }),
      ev('closed', 'C', 2, { fromSessionId: 'A', reason: 'exited' }),
    ];
    const found = unsnapshotted(events, [], 'ME', alive);
    assert.deepEqual(keys(found), ['1:C:400/400@boot:orphaned']);
    assert.equal(found[0]!.originSessionId, 'A');
  });

  it('a log from before sessions were logged: the owner from the session id, its processes only when that pid is gone', () => {
    const events = [ev('started', '20261125T100000Z-99999999-abc123', 1), ev('started', '20261125T100000Z-4242-def456', 2)];
    assert.deepEqual(keys(unsnapshotted(events, [], 'ME', alive)), ['1:20261125T100000Z-99999999-abc123:99999999/:running']);
  });
});

describeWhere(process.platform === 'linux', 'needs Linux /proc')('a window that dies before its snapshot (real /proc)', function () {
  this.timeout(30_000);
  const { monitor, janitor, dirs, fixtures, infoOf } = realProcessSuite();

  /** A store whose snapshots never reach the disk: the window dies within the second before each. */
  class DiesBeforeItsSnapshot extends LedgerStore {
    override updateActive<T>(): Promise<T> {
      return Promise.reject(new Error('the window died before writing active-processes.json'));
    }
  }

  it('the next window adopts every process whose start reached the log, and closes one whose pid now names another process', async () => {
    const dir = dirs.make();
    const host = janitor.spawn('sleep', ['4200']);
    const hostInfo = await infoOf(host.pid!);
    const owner: OwnerIdentity = { pid: hostInfo.pid, startTime: hostInfo.startTime };
    const a = makeTracker(monitor, dir, { owner, sessionId: 'sessionA', store: new DiesBeforeItsSnapshot({ dir }) });
    fixtures.push(a);
    await a.tracker.start();
    runInShell(janitor, a.tracker, 'jobs', 'setsid sleep 4201 & setsid sleep 4202 &');
    const started = await waitFor('both starts in the log', async () => {
      const events = (await a.events()).filter((e) => e.event === 'started' || e.event === 'spawned');
      return events.length >= 2 ? events : undefined;
    });
    started.forEach((e) => janitor.track(e.pid));
    assert.deepEqual((await a.store.readActive()).entries, [], 'the snapshot never saw them');
    // The window dies: its extension host is gone, no session_ended reached the log.
    host.kill('SIGKILL');
    await waitFor('the window to be gone', async () => !(await monitor.isAlive(hostInfo)));
    // A start logged for a pid that now names another process (the pid was reused).
    const stranger = await infoOf(janitor.spawn('sleep', ['4203']).pid!);
    await a.store.append([{ ...started[0]!, sessionId: 'sessionA', pid: stranger.pid, startTime: '1@not-this-one', cmd: 'sleep 4299' }]);

    const b = makeTracker(monitor, dir, { sessionId: 'sessionB' });
    fixtures.push(b);
    const startup = await b.tracker.start();
    assert.deepEqual(startup.orphans.map((p) => p.pid).sort(), started.map((e) => e.pid).sort());
    assert.ok(startup.orphans.every((p) => p.terminalName === 'jobs' && p.status === 'orphaned'));
    assert.equal(startup.closed, 1);
    assert.ok(b.logger.has('info', /known only from process-log\.jsonl/));
    const log = (await b.allEvents()).filter((e) => e.sessionId === 'sessionB');
    assert.equal(log[0]?.event, 'session_started');
    for (const e of started) assert.ok(log.some((l) => l.event === 'orphaned' && l.pid === e.pid && l.fromSessionId === 'sessionA'), `orphaned ${e.pid}`);
    assert.ok(log.some((e) => e.event === 'closed' && e.pid === stranger.pid && e.reason === 'pid_reused'), 'a stranger is never taken for the logged process');
    const snapshot = (await b.store.readActive()).entries;
    assert.deepEqual(snapshot.filter((e) => e.sessionId === 'sessionB').map((e) => e.pid).sort(), started.map((e) => e.pid).sort(), "now in the snapshot, as B's");
    await b.tracker.killOrphans();
  });
});
