/**
 * A simulated reload on the REAL /proc: window A tracks a process and its extension host dies
 * (A's owner is a child process we kill), then window B starts on the same data dir. B adopts the
 * live process as an orphan, closes entries whose process is gone or whose pid was reused, and
 * leaves a live window's entries alone.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import type { ActiveEntry, OwnerIdentity } from '../../../extension/src/core/ledger/formats';
import { waitFor } from '../processes/helpers';
import { makeTracker, realProcessSuite, runInShell } from './trackerSupport';
import { procAlive } from '../../support/procStat';
import { describeWhere } from '../../support/skips';

const onLinux = process.platform === 'linux';

describeWhere(onLinux, 'needs Linux /proc')('ProcessTracker across a reload (real /proc)', function () {
  this.timeout(30_000);
  const { monitor, janitor, dirs, fixtures, infoOf } = realProcessSuite();

  /** A stand-in extension host: alive until killed. */
  async function fakeWindow(): Promise<{ owner: OwnerIdentity; kill(): Promise<void> }> {
    const child = janitor.spawn('sleep', ['4100']);
    const info = await infoOf(child.pid!);
    return {
      owner: { pid: info.pid, startTime: info.startTime },
      kill: async () => {
        child.kill('SIGKILL');
        await waitFor('the window to be gone', async () => !(await monitor.isAlive(info)));
      },
    };
  }

  it('adopts the orphans of a dead window, closes gone and reused entries, leaves live windows alone', async () => {
    const dir = dirs.make();
    const windowA = await fakeWindow();
    const a = makeTracker(monitor, dir, { owner: windowA.owner, sessionId: 'sessionA' });
    fixtures.push(a);
    await a.tracker.start();
    const shell = runInShell(janitor, a.tracker, 'srv', 'setsid sleep 4101 &');
    shell.type('sleep 4102 &');
    const tracked = await waitFor('A to track both', () => (a.tracker.list().active.length === 2 ? a.tracker.list().active : undefined));
    const seenAt = Date.now();
    tracked.forEach((p) => janitor.track(p.pid));
    const survivor = tracked.find((p) => p.commandLine === 'sleep 4101')!;
    const shortLived = tracked.find((p) => p.commandLine === 'sleep 4102')!;
    await waitFor('A’s entries on disk', async () => (await a.store.readActive()).entries.length === 2, 3000);
    assert.ok(Date.now() - seenAt < 2000, `on disk ${Date.now() - seenAt} ms after being seen`);

    // Window A dies without cleaning up: its timers stop, its extension host is gone.
    await a.tracker.dispose();
    await windowA.kill();

    // Hand-written entries: a pid now owned by another process (fake start time), a gone process,
    // and a process of another window that is alive.
    const stranger = janitor.spawn('sleep', ['4103']);
    const strangerInfo = await infoOf(stranger.pid!);
    const gone = janitor.spawn('true', []);
    await waitFor('true to exit', () => gone.exitCode !== null);
    const goneInfo = { pid: gone.pid!, startTime: '1@gone' };
    const windowC = await fakeWindow();
    const otherWindowsProcess = janitor.spawn('sleep', ['4104']);
    const otherInfo = await infoOf(otherWindowsProcess.pid!);
    const entry = (pid: number, startTime: string, sessionId: string, owner: OwnerIdentity): ActiveEntry => ({
      pid,
      startTime,
      startedAt: new Date().toISOString(),
      name: 'sleep',
      commandLine: 'sleep',
      parentPid: 1,
      terminalName: 'old',
      ports: [],
      status: 'running',
      sessionId,
      owner,
    });
    await a.store.updateActive((current) => ({
      entries: [
        ...current,
        entry(strangerInfo.pid, '12345@not-this-one', 'sessionA', windowA.owner),
        entry(goneInfo.pid, goneInfo.startTime, 'sessionA', windowA.owner),
        entry(otherInfo.pid, otherInfo.startTime, 'sessionC', windowC.owner),
      ],
      result: undefined,
    }));

    // Window B starts on the same data dir.
    const b = makeTracker(monitor, dir, { sessionId: 'sessionB' });
    fixtures.push(b);
    const startup = await b.tracker.start();
    assert.deepEqual(startup.orphans.map((p) => p.pid).sort(), [survivor.pid, shortLived.pid].sort());
    assert.ok(startup.orphans.every((p) => p.status === 'orphaned' && p.terminalName === 'srv'));
    assert.equal(startup.closed, 2);
    assert.equal(startup.foreign, 1);
    assert.deepEqual(b.tracker.list().orphaned.map((p) => p.pid).sort(), [survivor.pid, shortLived.pid].sort());
    assert.deepEqual(b.tracker.list().active, []);
    assert.equal(b.tracker.summary().orphaned.length, 2);
    assert.equal(await b.tracker.start(), startup, 'start is idempotent');

    const log = (await b.events()).filter((e) => e.sessionId === 'sessionB');
    assert.deepEqual(
      log.filter((e) => e.event === 'closed').map((e) => `${e.pid}:${e.reason}:${e.fromSessionId}`).sort(),
      [`${strangerInfo.pid}:pid_reused:sessionA`, `${goneInfo.pid}:exited:sessionA`].sort(),
    );
    assert.deepEqual(log.filter((e) => e.event === 'orphaned').map((e) => e.pid).sort(), [survivor.pid, shortLived.pid].sort());

    const active = (await b.store.readActive()).entries;
    assert.deepEqual(active.map((e) => `${e.sessionId}:${e.pid}`).sort(), [`sessionB:${survivor.pid}`, `sessionB:${shortLived.pid}`, `sessionC:${otherInfo.pid}`].sort());
    const adopted = active.find((e) => e.pid === survivor.pid)!;
    assert.equal(adopted.status, 'orphaned');
    assert.equal(adopted.originSessionId, 'sessionA');
    assert.equal(adopted.owner.pid, process.pid);

    // The reused pid is not ours: never listed, never killed.
    await assert.rejects(b.tracker.kill(strangerInfo.pid), (e: unknown) => e instanceof ShepherdError && e.code === BridgeErrorCode.ProcessNotOwned);
    assert.ok(procAlive(strangerInfo.pid));
    await assert.rejects(b.tracker.kill(otherInfo.pid), (e: unknown) => e instanceof ShepherdError && e.code === BridgeErrorCode.ProcessNotOwned);

    // An orphan that exits on its own becomes completed.
    process.kill(shortLived.pid, 'SIGKILL');
    await waitFor('the orphan to be completed', () => b.tracker.list().orphaned.length === 1, 5000);
    await waitFor('completed logged', async () => (await b.events()).some((e) => e.event === 'completed' && e.pid === shortLived.pid));

    // killOrphans ends the rest and logs it; the active file keeps only the live window's entry.
    const result = await b.tracker.killOrphans();
    assert.deepEqual(result, { killed: [survivor.pid], failed: [] });
    assert.ok(!procAlive(survivor.pid));
    assert.ok(procAlive(otherInfo.pid) && procAlive(strangerInfo.pid), 'nothing else was touched');
    assert.equal(b.tracker.summary().orphaned.length, 0);
    // Logged before killOrphans() answered.
    assert.ok((await b.events()).some((e) => e.event === 'killed' && e.pid === survivor.pid && e.reason === 'orphan_cleanup'));
    await waitFor('active file without the orphans', async () => (await b.store.readActive()).entries.length === 1, 3000);
    assert.equal((await b.store.readActive()).entries[0]!.sessionId, 'sessionC');
  });

  it('survives a second reload: an adopted orphan is adopted again', async () => {
    const dir = dirs.make();
    const windowA = await fakeWindow();
    const a = makeTracker(monitor, dir, { owner: windowA.owner, sessionId: 'A' });
    fixtures.push(a);
    await a.tracker.start();
    runInShell(janitor, a.tracker, 't', 'sleep 4111 &');
    const [proc] = await waitFor('tracked', () => (a.tracker.list().active.length === 1 ? a.tracker.list().active : undefined));
    janitor.track(proc!.pid);
    await a.tracker.dispose();
    await windowA.kill();

    const windowB = await fakeWindow();
    const b = makeTracker(monitor, dir, { owner: windowB.owner, sessionId: 'B' });
    fixtures.push(b);
    assert.equal((await b.tracker.start()).orphans.length, 1);
    await b.tracker.dispose();
    await windowB.kill();

    const c = makeTracker(monitor, dir, { sessionId: 'C' });
    fixtures.push(c);
    const startup = await c.tracker.start();
    assert.deepEqual(startup.orphans.map((p) => p.pid), [proc!.pid]);
    const entry = (await c.store.readActive()).entries[0]!;
    assert.equal(entry.sessionId, 'C');
    assert.equal(entry.originSessionId, 'A', 'where it started is kept');
  });

  it('starts cleanly with a corrupt active file, reporting it', async () => {
    const dir = dirs.make();
    const c = makeTracker(monitor, dir);
    fixtures.push(c);
    writeFileSync(c.store.activePath, '{ this is not json');
    const startup = await c.tracker.start();
    assert.equal(startup.activeFileCorrupt, true);
    assert.deepEqual(startup.orphans, []);
    assert.ok(c.logger.has('warn', /not a valid active-processes file/));
  });
});
