/**
 * ProcessTracker's logic against a fake process table (processTrackerLogicSupport.ts): what the
 * tracker sees. A run's tree as it appears (nested in list(), with ports in summary(), logged in
 * tree order), exits marked completed and a process that escaped its tree kept, a stranger that
 * reused a tracked pid (or the shell's) never taken for the tracked process, ports logged as they
 * change, refresh() and the final snapshot when a run ends, the OS not answering, and onDidChange.
 */
import assert from 'node:assert/strict';
import type { LedgerSummary } from '../../../common/src/protocol';
import { setListenerErrorHandler } from '../../../extension/src/core/events';
import { waitFor } from '../processes/helpers';
import { describeEvents, eventLine, identity, ON_DEMAND, running, useFakeTable } from './processTrackerLogicSupport';
import { flatten, rejectsNotOwned } from './trackerSupport';

describe('ProcessTracker logic (fake process table, every OS)', function () {
  const t = useFakeTable();

  it('tracks a run’s tree as it appears: started under the shell, spawned deeper, nested in list(), with ports in summary()', async () => {
    const w = await t.openWindow();
    const shell = t.openTerminal(w.tracker, 'dev');
    w.tracker.runStarted('dev');
    const npm = t.fake.spawn(shell.pid, 'npm', 'npm run dev');
    const vite = t.fake.spawn(npm.pid, 'node', 'node vite');
    const esbuild = t.fake.spawn(vite.pid, 'esbuild', 'esbuild --service');
    const job = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    t.fake.setPorts(vite.pid, [5173]);

    await waitFor('the tree with its port', () => running(w.tracker).includes(`${vite.pid}:5173`));
    const { active, orphaned } = w.tracker.list();
    assert.deepEqual(orphaned, []);
    assert.deepEqual(active.map((p) => p.pid), [npm.pid, job.pid], 'the shell’s children on top; the shell itself is not tracked');
    assert.deepEqual(active[0]?.children?.map((p) => p.pid), [vite.pid]);
    assert.deepEqual(active[0]?.children?.[0]?.children?.map((p) => p.pid), [esbuild.pid]);
    assert.equal(active[1]?.children, undefined);
    assert.deepEqual(
      flatten(active).map((p) => `${p.pid} ${p.parentPid} ${p.name} ${p.commandLine} ${p.terminalName} ${p.status} ${p.startedAt}`),
      [npm, vite, esbuild, job].map((p) => `${p.pid} ${p.ppid} ${p.name} ${p.commandLine} dev running ${p.startedAt}`),
    );
    assert.deepEqual(w.tracker.summary(), {
      running: [npm, vite, esbuild, job].map((p) => ({ pid: p.pid, name: p.name, terminalName: 'dev', ports: p === vite ? [5173] : [], startedAt: p.startedAt })),
      orphaned: [],
    });

    // One poll found it all: discovery in tree order, then the port.
    const log = await waitFor('the port in the log', async () => {
      const events = await w.events();
      return events.some((e) => e.event === 'ports') ? events : undefined;
    });
    assert.deepEqual(describeEvents(log), [
      eventLine('started', npm),
      eventLine('started', job),
      eventLine('spawned', vite),
      eventLine('spawned', esbuild),
      eventLine('ports', vite),
    ]);
    const deep = log.find((e) => e.pid === esbuild.pid)!;
    assert.deepEqual(
      { terminal: deep.terminal, cmd: deep.cmd, parentPid: deep.parentPid, startedAt: deep.startedAt, sessionId: deep.sessionId },
      { terminal: 'dev', cmd: 'esbuild --service', parentPid: vite.pid, startedAt: esbuild.startedAt, sessionId: w.tracker.sessionId },
    );
    assert.deepEqual(log.find((e) => e.event === 'ports')!.ports, [5173]);
  });

  it('marks a process that exits completed, also after the run ended, and keeps one that escaped its tree', async () => {
    const w = await t.openWindow();
    const shell = t.openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const wrapper = t.fake.spawn(shell.pid, 'bash', 'bash -c "sleep 4041 & sleep 1"');
    const daemon = t.fake.spawn(wrapper.pid, 'sleep', 'sleep 4041');
    const short = t.fake.spawn(wrapper.pid, 'sleep', 'sleep 1');
    await waitFor('the three tracked', () => running(w.tracker).length === 3);
    w.tracker.runEnded('t'); // from now on only the idle cadence looks

    t.fake.exit(short.pid);
    t.fake.exit(wrapper.pid); // the daemon is re-parented to init: out of the shell's tree, alive
    await waitFor('the exits seen', () => running(w.tracker).length === 1);
    assert.deepEqual(
      flatten(w.tracker.list().active).map((p) => `${p.pid} ${p.status}`),
      [`${daemon.pid} running`],
    );
    const log = await waitFor('the completed events', async () => {
      const events = await w.events();
      return events.filter((e) => e.event === 'completed').length === 2 ? events : undefined;
    });
    assert.deepEqual(
      describeEvents(log.filter((e) => e.event === 'completed')).sort(),
      [eventLine('completed', wrapper), eventLine('completed', short)].sort(),
    );
    assert.deepEqual(t.fake.killRequests, []);
  });

  it('never takes a stranger that reused a tracked pid, or the shell’s pid, for the tracked process', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 't');
    const seenExit = t.fake.spawn(shell.pid, 'sleep', 'sleep 10');
    const unseenExit = t.fake.spawn(shell.pid, 'sleep', 'sleep 11');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${seenExit.pid}:`, `${unseenExit.pid}:`]);

    // Each exits and a stranger outside every terminal takes its pid: the first before a poll
    // (completed by identity), the second after the last one, so the ledger still believes it
    // running when kill() is asked: kill() re-checks the identity.
    t.fake.exit(seenExit.pid);
    const stranger1 = t.fake.spawn(1, 'postgres', 'postgres -D /var/lib/pg', seenExit.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${unseenExit.pid}:`]);
    await rejectsNotOwned(w.tracker.kill(seenExit.pid), /^pid \d+ \(`sleep 10` in terminal "t"\) already ended at .*may now belong to another process, so it is not killed\. list_processes/);
    t.fake.exit(unseenExit.pid);
    const stranger2 = t.fake.spawn(1, 'sshd', 'sshd -D', unseenExit.pid);
    assert.deepEqual(running(w.tracker), [`${unseenExit.pid}:`]);
    await rejectsNotOwned(w.tracker.kill(unseenExit.pid), /`sleep 11` in terminal "t"\) already ended/);
    assert.deepEqual(running(w.tracker), []);
    assert.deepEqual(t.fake.killRequests, [], 'killTree never asked');
    assert.ok((await t.fake.isAlive(stranger1)) && (await t.fake.isAlive(stranger2)));

    // A pid reused inside the terminal's tree is a new process of the ledger, and killable.
    t.fake.exit(stranger1.pid);
    const newcomer = t.fake.spawn(shell.pid, 'node', 'node app.js', seenExit.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${newcomer.pid}:`]);
    assert.deepEqual(await w.tracker.kill(newcomer.pid), { killed: [newcomer.pid], failed: [] });
    assert.deepEqual(t.fake.killRequests, [identity(newcomer)]);

    // The shell exits and a stranger with children takes its pid: the terminal's tree is gone.
    t.fake.exit(shell.pid);
    const impostor = t.fake.spawn(1, 'bash', 'bash', shell.pid);
    const impostorChild = t.fake.spawn(impostor.pid, 'sleep', 'sleep 12');
    w.tracker.runStarted('t');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), []);
    assert.ok(await t.fake.isAlive(impostorChild));

    assert.deepEqual(describeEvents(await w.events()), [
      eventLine('started', seenExit),
      eventLine('started', unseenExit),
      eventLine('completed', seenExit),
      eventLine('completed', unseenExit),
      eventLine('started', newcomer),
      eventLine('killed', newcomer, 'kill_request'),
    ]);
    assert.deepEqual(t.fake.signalled, [newcomer.pid], 'nothing outside the ledger was touched');
  });

  it('logs `ports` when a process’s ports change while a run is polled', async () => {
    const w = await t.openWindow();
    const shell = t.openTerminal(w.tracker, 'srv');
    w.tracker.runStarted('srv');
    const server = t.fake.spawn(shell.pid, 'node', 'node server.js');
    await waitFor('the server tracked', () => running(w.tracker).length === 1);
    for (const ports of [[3000], [3000, 3001], []]) {
      t.fake.setPorts(server.pid, ports);
      await waitFor(`ports [${ports.join(', ')}]`, () => running(w.tracker)[0] === `${server.pid}:${ports.join(',')}`);
    }
    const log = await waitFor('three ports events', async () => {
      const events = (await w.events()).filter((e) => e.event === 'ports');
      return events.length === 3 ? events : undefined;
    });
    assert.deepEqual(log.map((e) => `${e.pid} [${e.ports!.join(',')}]`), [`${server.pid} [3000]`, `${server.pid} [3000,3001]`, `${server.pid} []`]);
  });

  it('refresh() reads ports and checks every live process, also those in no terminal’s tree', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const a = t.openTerminal(w.tracker, 'a');
    const b = t.openTerminal(w.tracker, 'b');
    const wrapper = t.fake.spawn(a.pid, 'sh', 'sh -c "node worker.js &"');
    const worker = t.fake.spawn(wrapper.pid, 'node', 'node worker.js');
    const web = t.fake.spawn(b.pid, 'node', 'node web.js');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${wrapper.pid}:`, `${worker.pid}:`, `${web.pid}:`]);

    t.fake.exit(wrapper.pid); // the worker escapes the tree
    t.fake.setPorts(worker.pid, [9229]);
    t.fake.setPorts(web.pid, [8080]);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${worker.pid}:9229`, `${web.pid}:8080`]);

    t.fake.exit(worker.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${web.pid}:8080`]);
    const log = await waitFor('the second completed event', async () => {
      const events = (await w.events()).filter((e) => e.event !== 'started' && e.event !== 'spawned');
      return events.length === 4 ? events : undefined;
    });
    assert.deepEqual(describeEvents(log), [eventLine('completed', wrapper), eventLine('ports', worker), eventLine('ports', web), eventLine('completed', worker)]);
  });

  it('takes a final snapshot when a run ends: a background job started just before is found', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const job = t.fake.spawn(shell.pid, 'sleep', 'sleep 100'); // the run's `sleep 100 &`
    w.tracker.runEnded('t');
    // The first poll of a run is due after 200 ms but skips a terminal whose run ended with
    // nothing tracked: only the final snapshot can find the job.
    await waitFor('the final snapshot', () => running(w.tracker).length === 1);
    assert.deepEqual(running(w.tracker), [`${job.pid}:`]);
    await waitFor('started in the log', async () => (await w.events()).length === 1);
    assert.deepEqual(describeEvents(await w.events()), [eventLine('started', job)]);
  });

  it('when the OS does not answer, warns, keeps its records, and recovers at the next poll', async () => {
    const w = await t.openWindow();
    const shell = t.openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const job = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    await waitFor('the job tracked', () => running(w.tracker).length === 1);

    t.fake.failNext('listAll');
    await waitFor('the failed poll logged', () => w.logger.has('warn', /ledger: polling processes failed fake: listAll did not answer/));
    assert.deepEqual(running(w.tracker), [`${job.pid}:`], 'a failed look is not taken for "all gone"');
    const late = t.fake.spawn(shell.pid, 'sleep', 'sleep 200');
    await waitFor('the next poll', () => running(w.tracker).length === 2);

    // Ports are best effort: the last known ones stay until the OS answers again.
    t.fake.failNext('listeningPorts');
    t.fake.setPorts(job.pid, [3000]);
    await waitFor('the failed port read logged', () => w.logger.has('debug', /listening ports unavailable/));
    await waitFor('the port read again', () => running(w.tracker).includes(`${job.pid}:3000`));
    assert.deepEqual(running(w.tracker), [`${job.pid}:3000`, `${late.pid}:`]);
    assert.ok(!(await w.events()).some((e) => e.event === 'completed'));
  });

  it('fires onDidChange with the new summary after each change; a throwing listener breaks nothing', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const reported: string[] = [];
    const restore = setListenerErrorHandler((error, where) => reported.push(`${where}: ${(error as Error).message}`));
    try {
      w.tracker.onDidChange(() => {
        throw new Error('listener bug');
      });
      const seen: LedgerSummary[] = [];
      w.tracker.onDidChange((summary) => seen.push(summary));
      const job = t.fake.spawn(t.openTerminal(w.tracker, 't').pid, 'sleep', 'sleep 100');
      await w.tracker.refresh(); // appeared
      await w.tracker.refresh(); // nothing changed: no event
      t.fake.setPorts(job.pid, [3000]);
      await w.tracker.refresh(); // ports changed
      t.fake.exit(job.pid);
      await w.tracker.refresh(); // ended
      assert.deepEqual(
        seen.map((s) => s.running.map((e) => `${e.pid}:${e.ports.join(',')}`)),
        [[`${job.pid}:`], [`${job.pid}:3000`], []],
      );
      assert.equal(seen[2], w.tracker.summary());
      assert.deepEqual(reported, Array(3).fill('an event listener: listener bug'));
    } finally {
      restore.dispose();
    }
  });
});
