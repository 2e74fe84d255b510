/**
 * Nothing lost at any instant, on the REAL /proc: processes a managed terminal started carry its
 * mark in their environment, so a window that died before any poll saw them still leaves them
 * findable. Window A's terminal starts `nohup … &`, `setsid …` and a double fork that A's tracker
 * never polls; A's extension host dies; window B adopts exactly those, identity-checked, and
 * leaves the marks of unknown sessions, of a live window and the terminal's shell alone. On Windows,
 * where environments cannot be read, the same is done by lineage from the shells the ledger
 * logged (a scripted table with Windows' re-parenting, through the real tracker).
 */
import assert from 'node:assert/strict';
import type { OwnerIdentity } from '../../../extension/src/core/ledger/formats';
import { markedEntries } from '../../../extension/src/core/ledger/orphanMarks';
import { MARK_SESSION, MARK_TERMINAL, processMarkEnv } from '../../../extension/src/core/ledger/processMarks';
import { shellDescendants } from '../../../extension/src/core/processes/shellLineage';
import type { LoggedShell, MarkedProcess } from '../../../extension/src/core/processes/types';
import { procAlive } from '../../support/procStat';
import { describeWhere } from '../../support/skips';
import { waitFor } from '../processes/helpers';
import { FakeProcessMonitor } from './fakeProcessMonitor';
import { ON_DEMAND } from './processTrackerLogicSupport';
import { TempDirs } from '../../support/tempDirs';
import { makeTracker, realProcessSuite, type TrackerFixture } from './trackerSupport';

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

/** A process table that reads no environment but answers lineage, as WindowsProcessMonitor does. */
class LineageOnlyMonitor extends FakeProcessMonitor {
  async shellDescendants(shells: readonly LoggedShell[]): Promise<MarkedProcess[]> {
    return shellDescendants(await this.listAll(), shells);
  }
}

describe('orphans found by lineage from their dead shell, where environments cannot be read (Windows; scripted table, real tracker)', () => {
  const dirs = new TempDirs();
  const windows: TrackerFixture[] = [];
  afterEach(async () => {
    await Promise.all(windows.splice(0).map((w) => w.tracker.dispose()));
    dirs.cleanup();
  });

  it('a window that died before any poll of what its shell started: the next window adopts that tree by lineage, never a reused pid’s or a stranger', async () => {
    const fake = new LineageOnlyMonitor();
    const dir = dirs.make();
    const hostA = fake.spawn(1, 'Code.exe', 'Code.exe --type=extensionHost');
    const a = makeTracker(fake, dir, { owner: { pid: hostA.pid, startTime: hostA.startTime }, sessionId: 'A', settings: ON_DEMAND });
    windows.push(a);
    await a.tracker.start();
    const shell = fake.spawn(1, 'pwsh.exe', 'pwsh.exe -NoLogo');
    a.tracker.terminalOpened('web', shell.pid);
    a.tracker.runStarted('web');
    await a.tracker.refresh(); // the shell is seen (and logged); nothing under it yet
    const logged = await waitFor('the shell in the log', async () => (await a.allEvents()).find((e) => e.event === 'session_shell'));
    assert.deepEqual({ pid: logged.pid, startTime: logged.startTime, terminal: logged.terminal }, { pid: shell.pid, startTime: shell.startTime, terminal: 'web' });
    // Typed the instant before the crash: no poll sees them.
    const cmd = fake.spawn(shell.pid, 'cmd.exe', 'cmd.exe /d /s /c "npm run dev"');
    const vite = fake.spawn(cmd.pid, 'node.exe', 'node vite.js');
    const server = fake.spawn(shell.pid, 'node.exe', 'node server.js');
    const stranger = fake.spawn(1, 'notepad.exe', 'notepad.exe');
    // The window dies (no clean end: A is disposed only after the test), and its shell with it;
    // Windows leaves the children's parent pid as it was.
    fake.exit(hostA.pid);
    fake.exit(shell.pid, false);
    // A newer process takes the shell's pid, and starts a child of its own.
    const reuser = fake.spawn(1, 'svchost.exe', 'svchost.exe -k netsvcs', shell.pid);
    const reusersChild = fake.spawn(reuser.pid, 'svchost.exe', 'svchost.exe -k child');

    const b = makeTracker(fake, dir, { sessionId: 'B', settings: ON_DEMAND });
    windows.push(b);
    const startup = await b.tracker.start();
    assert.deepEqual(startup.orphans.map((o) => `${o.pid} ${o.terminalName}`).sort(), [cmd, vite, server].map((p) => `${p.pid} web`).sort());
    for (const p of [reuser, reusersChild, stranger]) assert.equal(startup.orphans.some((o) => o.pid === p.pid), false, `pid ${p.pid} (${p.commandLine}) is not the shell's`);
    assert.ok(b.logger.has('info', /3 known only by the terminal mark in their environment, or on Windows by lineage/));
    // kill_orphans ends exactly them, identity-checked.
    assert.deepEqual((await b.tracker.killOrphans()).killed.sort((x, y) => x - y), [cmd.pid, vite.pid, server.pid].sort((x, y) => x - y));
    assert.ok(await fake.isAlive(reusersChild), 'the reused pid’s child lives');
  });
});
