/**
 * ProcessTracker's logic against a fake process table (processTrackerLogicSupport.ts): a window's
 * start and end. A second window on the same data dir (a reload) adopts a dead window's live
 * processes as orphans with their ports, closes exited and reused ones, leaves live windows alone
 * and can kill the orphans; a corrupt active-processes.json is reported and replaced; a window
 * starting while the OS does not answer leaves the entries to the next. dispose() stops polling
 * and writes the ledger a last time.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LEDGER_FILES, type SessionSummary } from '../../../extension/src/core/ledger/formats';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { waitFor } from '../processes/helpers';
import { describeEvents, eventLine, identity, NO_KILLS, ON_DEMAND, running, useFakeTable } from './processTrackerLogicSupport';
import { rejectsNotOwned } from './trackerSupport';

describe('ProcessTracker logic (fake process table, every OS)', function () {
  const t = useFakeTable();

  describe('startup: a second window on the same data dir (a reload)', () => {
    /**
     * Window "sessionA" tracks what `start` runs in its terminal "srv", writes its ledger and
     * dies: its extension host and shell leave the table, the processes they started stay.
     */
    async function windowThatDies<T extends [] | ProcessInfo[]>(dir: string, start: (shell: ProcessInfo) => T): Promise<T> {
      const a = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionA' });
      const shell = t.openTerminal(a.tracker, 'srv');
      const started = start(shell);
      await a.tracker.refresh();
      await a.tracker.dispose();
      t.fake.exit(a.host.pid);
      t.fake.exit(shell.pid);
      return started;
    }

    it('adopts live processes as orphans with their ports, closes exited and reused ones, leaves live windows alone', async () => {
      const dir = t.dirs.make();
      // Window C lives on (its host stays in the table), with a process of its own.
      const c = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionC' });
      const cJob = t.fake.spawn(t.openTerminal(c.tracker, 'c').pid, 'sleep', 'sleep 300');
      await c.tracker.refresh();
      await c.tracker.dispose();
      const [server, exited, reused] = await windowThatDies(dir, (shell) => {
        const s = t.fake.spawn(shell.pid, 'node', 'node server.js');
        t.fake.setPorts(s.pid, [8080]);
        return [s, t.fake.spawn(shell.pid, 'sleep', 'sleep 1'), t.fake.spawn(shell.pid, 'sleep', 'sleep 2')];
      });
      // While no window looked: one exits, one's pid is reused, the server opens another port.
      t.fake.exit(exited.pid);
      t.fake.exit(reused.pid);
      const stranger = t.fake.spawn(1, 'sleep', 'sleep 3', reused.pid);
      t.fake.setPorts(server.pid, [8080, 8081]);

      const b = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
      assert.deepEqual(b.startup, {
        orphans: [
          {
            pid: server.pid,
            name: 'node',
            commandLine: 'node server.js',
            parentPid: server.ppid,
            terminalName: 'srv',
            startedAt: server.startedAt,
            status: 'orphaned',
            ports: [8080, 8081],
          },
        ],
        closed: 2,
        foreign: 1,
        skippedEntries: 0,
        activeFileCorrupt: false,
      });
      assert.equal(await b.tracker.start(), b.startup, 'start() is idempotent');
      assert.deepEqual(b.tracker.list(), { active: [], orphaned: b.startup.orphans });
      assert.deepEqual(b.tracker.summary(), {
        running: [],
        orphaned: [{ pid: server.pid, name: 'node', terminalName: 'srv', ports: [8080, 8081], startedAt: server.startedAt }],
      });
      // In the log when start() resolved.
      assert.deepEqual(describeEvents((await b.events()).filter((e) => e.sessionId === 'sessionB')), [
        eventLine('closed', exited, 'exited', 'sessionA'),
        eventLine('closed', reused, 'pid_reused', 'sessionA'),
        eventLine('orphaned', server, 'sessionA'),
        eventLine('ports', server),
      ]);

      const entries = await waitFor('the adopted orphan on disk with its ports', async () => {
        const read = (await b.store.readActive()).entries;
        return read.some((e) => e.sessionId === 'sessionB' && e.ports.length === 2) ? read : undefined;
      });
      assert.deepEqual(
        entries.map((e) => `${e.sessionId} ${e.pid} ${e.status} ${e.owner.pid} ${e.originSessionId ?? '-'}`).sort(),
        [`sessionB ${server.pid} orphaned ${b.host.pid} sessionA`, `sessionC ${cJob.pid} running ${c.host.pid} -`].sort(),
      );

      await rejectsNotOwned(b.tracker.kill(stranger.pid), /not a process Terminal Shepherd started in this window/);
      await rejectsNotOwned(b.tracker.kill(cJob.pid), /not a process Terminal Shepherd started in this window/);
      assert.deepEqual(t.fake.killRequests, []);
    });

    it('killOrphans() kills the orphans still alive and nothing else', async () => {
      const dir = t.dirs.make();
      const [server, worker, watcher] = await windowThatDies(dir, (shell) => {
        const s = t.fake.spawn(shell.pid, 'node', 'node server.js');
        return [s, t.fake.spawn(s.pid, 'node', 'node worker.js'), t.fake.spawn(shell.pid, 'node', 'node watch.js')];
      });
      const b = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
      assert.deepEqual(b.startup.orphans.map((p) => p.pid), [server.pid, watcher.pid, worker.pid], 'in the order A found them');
      const own = t.fake.spawn(t.openTerminal(b.tracker, 'mine').pid, 'sleep', 'sleep 100');
      t.fake.exit(watcher.pid); // an orphan that exits on its own is completed, not killed
      await b.tracker.refresh();
      assert.deepEqual(b.tracker.summary().orphaned.map((e) => e.pid), [server.pid, worker.pid]);

      assert.deepEqual(await b.tracker.killOrphans(), { killed: [server.pid, worker.pid], failed: [] });
      assert.deepEqual(t.fake.killRequests, [identity(server)], 'the worker went down with its parent');
      assert.deepEqual(t.fake.signalled, [server.pid, worker.pid]);
      assert.deepEqual(b.tracker.summary(), { running: [{ pid: own.pid, name: 'sleep', terminalName: 'mine', ports: [], startedAt: own.startedAt }], orphaned: [] });
      assert.deepEqual(describeEvents((await b.events()).filter((e) => e.sessionId === 'sessionB')), [
        eventLine('orphaned', server, 'sessionA'),
        eventLine('orphaned', watcher, 'sessionA'),
        eventLine('orphaned', worker, 'sessionA'),
        eventLine('started', own),
        eventLine('completed', watcher),
        eventLine('killed', server, 'orphan_cleanup'),
        eventLine('killed', worker, 'orphan_cleanup'),
      ]);
      assert.deepEqual(await b.tracker.killOrphans(), NO_KILLS);
    });

    it('reports a corrupt active-processes.json, starts empty, and replaces it', async () => {
      const dir = t.dirs.make();
      writeFileSync(path.join(dir, LEDGER_FILES.active), '{ this is not json');
      const w = await t.openWindow(dir, { settings: ON_DEMAND });
      assert.deepEqual(w.startup, { orphans: [], closed: 0, foreign: 0, skippedEntries: 0, activeFileCorrupt: true });
      assert.ok(w.logger.has('warn', /not a valid active-processes file; treating it as empty/));
      const job = t.fake.spawn(t.openTerminal(w.tracker, 't').pid, 'sleep', 'sleep 100');
      await w.tracker.refresh();
      await w.tracker.dispose();
      const active = await w.store.readActive();
      assert.equal(active.corrupt, false);
      assert.deepEqual(active.entries.map((e) => e.pid), [job.pid]);
    });

    it('a window starting while the OS does not answer adopts nothing and leaves the entries to the next one', async () => {
      const dir = t.dirs.make();
      const [server] = await windowThatDies(dir, (shell) => [t.fake.spawn(shell.pid, 'node', 'node server.js')]);
      t.fake.failNext('listAll');
      const b = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
      assert.deepEqual(b.startup.orphans, []);
      assert.ok(b.logger.has('warn', /cannot list processes; orphans of earlier windows are not checked/));
      await b.tracker.dispose();
      const c = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionC' });
      assert.deepEqual(c.startup.orphans.map((p) => p.pid), [server.pid]);
    });
  });

  it('dispose() stops polling and writes active-processes.json and the session summary a last time', async () => {
    const quiet = { activeDelayMs: 60_000, activeMaxDelayMs: 60_000, sessionDelayMs: 60_000, sessionMaxDelayMs: 60_000 };
    const w = await t.openWindow(undefined, { persistence: quiet });
    const shell = t.openTerminal(w.tracker, 't');
    w.tracker.runStarted('t'); // polled every 100 ms until disposed
    const job = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    await waitFor('the job tracked', () => running(w.tracker).length === 1);
    assert.deepEqual((await w.store.readActive()).entries, [], 'not written yet: the writes are debounced for a minute');

    await w.tracker.dispose();
    assert.deepEqual(
      (await w.store.readActive()).entries.map((e) => `${e.pid} ${e.status} ${e.sessionId} ${e.owner.pid}`),
      [`${job.pid} running ${w.tracker.sessionId} ${w.host.pid}`],
    );
    const session = JSON.parse(readFileSync(path.join(w.store.sessionsDir, `${w.tracker.sessionId}.json`), 'utf8')) as SessionSummary;
    assert.ok(session.endedAt, 'the session summary says it ended');
    assert.deepEqual(session.counts, { tracked: 1, running: 1, orphaned: 0, completed: 0, killed: 0, adopted: 0 });

    // Nothing runs any more: no look at the OS, no write, whatever happens.
    const calls = t.fake.calls.length;
    rmSync(w.store.activePath);
    w.tracker.terminalOpened('u', t.fake.spawn(1, 'bash', 'bash').pid);
    w.tracker.runStarted('u');
    w.tracker.runEnded('t');
    assert.deepEqual(await w.tracker.terminalClosed('t'), NO_KILLS);
    t.fake.spawn(shell.pid, 'sleep', 'sleep 200');
    await new Promise((resolve) => setTimeout(resolve, 500)); // five poll intervals
    assert.equal(t.fake.calls.length, calls);
    assert.deepEqual(await w.store.readActive(), { entries: [], skipped: 0, corrupt: false });
  });
});
