/**
 * Nothing lost at any instant, on the REAL /proc: processes a managed terminal started carry its
 * mark in their environment, so a window that died before any poll saw them still leaves them
 * findable. Window A's terminal starts `nohup … &`, `setsid …` and a double fork that A's tracker
 * never polls; A's extension host dies; window B adopts exactly those, identity-checked, and
 * leaves the marks of unknown sessions, of a live window and the terminal's shell alone.
 */
import assert from 'node:assert/strict';
import type { OwnerIdentity } from '../../../extension/src/core/ledger/formats';
import { markedEntries } from '../../../extension/src/core/ledger/orphanMarks';
import { MARK_SESSION, MARK_TERMINAL, processMarkEnv } from '../../../extension/src/core/ledger/processMarks';
import type { MarkedProcess } from '../../../extension/src/core/processes/types';
import { procAlive } from '../../support/procStat';
import { describeWhere } from '../../support/skips';
import { waitFor } from '../processes/helpers';
import { makeTracker, realProcessSuite } from './trackerSupport';

describe('markedEntries (pure)', () => {
  const owner = (pid: number): OwnerIdentity => ({ pid, startTime: `${pid}@b` });
  const proc = (pid: number, session: string, terminalShell = false): MarkedProcess => ({
    info: { pid, ppid: 1, name: 'sleep', commandLine: `sleep ${pid}`, startTime: `${pid}@b`, startedAt: '2026-01-01T00:00:00.000Z' },
    marks: { [MARK_SESSION]: session, [MARK_TERMINAL]: 'srv' },
    terminalShell,
  });
  const started = (sessionId: string, pid: number) => ({ event: 'session_started' as const, ts: 't', sessionId, pid, startTime: `${pid}@b`, name: 'window', terminal: '' });

  it('takes the processes of this ledger\'s gone sessions only, never a terminal shell', () => {
    const events = [started('gone', 10), started('live', 11), started('mine', 12)];
    const entries = markedEntries(
      [proc(100, 'gone'), proc(101, 'gone', true), proc(102, 'live'), proc(103, 'mine'), proc(104, 'other-workspace')],
      events,
      'mine',
      (o) => o.pid === 11,
    );
    assert.deepEqual(entries.map((e) => e.pid), [100]);
    assert.deepEqual(entries[0]!.owner, owner(10));
    assert.equal(entries[0]!.sessionId, 'gone');
    assert.equal(entries[0]!.terminalName, 'srv');
  });
});

describeWhere(process.platform === 'linux', 'needs Linux /proc')('orphans found by their terminal mark (real /proc)', function () {
  this.timeout(30_000);
  const { monitor, janitor, dirs, fixtures, infoOf } = realProcessSuite();

  it('a window that died before any poll: its nohup, setsid and double-forked processes are the next window\'s orphans', async () => {
    const dir = dirs.make();
    const windowA = janitor.spawn('sleep', ['4200']);
    const a = await infoOf(windowA.pid!);
    const sessionA = `A-${process.pid}-${Date.now()}`;
    const first = makeTracker(monitor, dir, { owner: { pid: a.pid, startTime: a.startTime }, sessionId: sessionA });
    fixtures.push(first);
    await first.tracker.start(); // session_started is on disk: from here every marked process can be found

    // The terminal's shell, never told to the tracker: no poll sees anything it starts.
    const env = { ...process.env, ...processMarkEnv(sessionA, 'srv') };
    janitor.spawn('bash', ['-c', 'nohup sleep 4201 >/dev/null 2>&1 & setsid sleep 4202 & (sleep 4203 &) ; sleep 4209'], { env, detached: true });
    const stranger = janitor.spawn('sleep', ['4204'], { env: { ...process.env, ...processMarkEnv('unknown-session', 'x') } });
    const started = await waitFor('the three sleeps', async () => {
      const all = (await monitor.listAll()).filter((p) => /^sleep 420[123]$/.test(p.commandLine));
      return all.length === 3 ? all : undefined;
    });
    started.forEach((p) => janitor.track(p.pid));

    windowA.kill('SIGKILL'); // the extension host dies; A never polled, never wrote a snapshot
    await waitFor('window A gone', () => !procAlive(a.pid));
    const second = makeTracker(monitor, dir, { sessionId: `B-${process.pid}-${Date.now()}` });
    fixtures.push(second);
    const startup = await second.tracker.start();

    const adopted = new Map(startup.orphans.map((o) => [o.commandLine, o]));
    for (const p of started) {
      const orphan = adopted.get(p.commandLine);
      assert.ok(orphan, `${p.commandLine} adopted; got ${[...adopted.keys()].join(', ')}`);
      assert.equal(orphan.pid, p.pid);
      assert.equal(orphan.terminalName, 'srv');
    }
    assert.ok(adopted.has('sleep 4209'), 'the command still running in the terminal is its process too');
    assert.ok(!startup.orphans.some((o) => o.pid === stranger.pid), 'a mark of a session this ledger never had');
    assert.ok(second.logger.has('info', /known only by the terminal mark in their environment/));
    const logged = (await second.events()).filter((e) => e.event === 'orphaned').map((e) => e.pid);
    for (const p of started) assert.ok(logged.includes(p.pid), `orphaned event for ${p.pid}`);
    // B's kill_orphans ends them: identity-checked, and only them.
    const killed = await second.tracker.killOrphans();
    for (const p of started) assert.ok(killed.killed.includes(p.pid), `killed ${p.pid}`);
    assert.ok(procAlive(stranger.pid!), 'the stranger lives');
  });
});
