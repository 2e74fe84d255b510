/**
 * ProcessTracker's logic against a fake process table (processTrackerLogicSupport.ts): kills.
 * kill(pid) ends an owned tree (identity-checked), logs every process it kills before it answers
 * (a child born since the last poll too, never a tracked process whose pid a stranger reused) and
 * refuses everything else, saying why; the OS refusing a kill is reported; nothing is killed after
 * dispose; terminalClosed(name) kills what that terminal's processes still run, and only those.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import { waitFor } from '../processes/helpers';
import { describeEvents, eventLine, identity, NO_KILLS, ON_DEMAND, running, useFakeTable } from './processTrackerLogicSupport';
import { rejectsNotOwned } from './trackerSupport';

describe('ProcessTracker logic (fake process table, every OS)', function () {
  const t = useFakeTable();

  it('kill(pid) ends an owned tree (identity-checked), logs it before answering, and refuses everything else', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 'dev');
    const npm = t.fake.spawn(shell.pid, 'npm', 'npm run dev');
    const vite = t.fake.spawn(npm.pid, 'node', 'node vite');
    const esbuild = t.fake.spawn(vite.pid, 'esbuild', 'esbuild --service');
    const job = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    const stranger = t.fake.spawn(1, 'sshd', 'sshd -D');
    await w.tracker.refresh();

    assert.deepEqual(await w.tracker.kill(vite.pid), { killed: [vite.pid, esbuild.pid], failed: [] });
    assert.deepEqual(t.fake.killRequests, [identity(vite)]);
    assert.deepEqual(t.fake.signalled, [vite.pid, esbuild.pid]);
    assert.deepEqual(running(w.tracker), [`${npm.pid}:`, `${job.pid}:`]);
    // In the log before kill() answered: whoever asked may read it next.
    assert.deepEqual(
      describeEvents((await w.events()).filter((e) => e.event === 'killed')),
      [eventLine('killed', vite, 'kill_request'), eventLine('killed', esbuild, 'kill_request')],
    );

    // Each refusal says why, and what to do instead.
    const refuse = (pid: number, why: RegExp): Promise<void> =>
      rejectsNotOwned(w.tracker.kill(pid), new RegExp(`^pid ${pid} ${why.source}.*list_processes shows the processes Terminal Shepherd can kill\\.$`));
    const callsBefore = t.fake.calls.length;
    await refuse(1, /is not a process Terminal Shepherd started \(it is the system's init process\)/);
    await refuse(process.pid, /is the VS Code extension host that runs Terminal Shepherd; it is never killed\./);
    await refuse(shell.pid, /is the shell of terminal "dev".*terminal_input \{name: "dev", text: "\\u0003"\}/);
    assert.equal(t.fake.calls.length, callsBefore, 'refused without asking the OS');
    await refuse(stranger.pid, /is not a process Terminal Shepherd started in this window, so it is not killed\./);
    await refuse(vite.pid, /\(`node vite` in terminal "dev"\) already ended at \d{4}-/);
    assert.deepEqual(t.fake.killRequests, [identity(vite)], 'no refusal reached killTree');

    // Started since the last poll: the refresh kill() makes finds it.
    const late = t.fake.spawn(shell.pid, 'sleep', 'sleep 200');
    assert.deepEqual(await w.tracker.kill(late.pid), { killed: [late.pid], failed: [] });

    // The OS refuses (EPERM): the root stays running and is reported failed; its child is killed.
    const guarded = t.fake.spawn(shell.pid, 'sudo', 'sudo tail -f /var/log/syslog');
    const tail = t.fake.spawn(guarded.pid, 'tail', 'tail -f /var/log/syslog');
    await w.tracker.refresh();
    t.fake.failKill(guarded.pid);
    assert.deepEqual(await w.tracker.kill(guarded.pid), { killed: [tail.pid], failed: [guarded.pid] });
    assert.deepEqual(running(w.tracker), [`${npm.pid}:`, `${job.pid}:`, `${guarded.pid}:`]);
    assert.ok(w.logger.has('warn', new RegExp(`could not kill ${guarded.pid} \\(kill_request\\)`)));

    assert.deepEqual(
      describeEvents((await w.events()).filter((e) => e.event === 'killed')).slice(2),
      [eventLine('killed', late, 'kill_request'), eventLine('killed', tail, 'kill_request')],
    );
    assert.ok(await t.fake.isAlive(stranger));
    assert.deepEqual(t.fake.signalled, [vite.pid, esbuild.pid, late.pid, guarded.pid, tail.pid], 'nothing outside the ledger was touched');
  });

  it('kill(pid) logs every process it kills, also a child born since the last poll (spawned, then killed)', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 'dev');
    const server = t.fake.spawn(shell.pid, 'node', 'node server.js');
    await w.tracker.refresh();
    const worker = t.fake.spawn(server.pid, 'node', 'node worker.js'); // no poll has seen it

    assert.deepEqual(await w.tracker.kill(server.pid), { killed: [server.pid, worker.pid], failed: [] });
    assert.deepEqual(describeEvents(await w.events()), [
      eventLine('started', server),
      eventLine('spawned', worker),
      eventLine('killed', server, 'kill_request'),
      eventLine('killed', worker, 'kill_request'),
    ]);
    const spawned = (await w.events()).find((e) => e.event === 'spawned')!;
    assert.deepEqual({ terminal: spawned.terminal, parentPid: spawned.parentPid, cmd: spawned.cmd }, { terminal: 'dev', parentPid: server.pid, cmd: 'node worker.js' });
    assert.deepEqual(w.tracker.summary(), { running: [], orphaned: [] });
  });

  it('a child born since the last poll under a client’s own-tools process is logged as that client’s before it is killed', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const client = t.fake.spawn(1, 'node', 'node claude.js');
    const clientTools = { client: 'claude-code', pid: client.pid, command: 'node' };
    w.tracker.watchClient({
      identity: identity(client),
      label: 'claude-code (own tools)',
      clientTools,
      select: (table) => table.filter((p) => p.ppid === client.pid),
    });
    const server = t.fake.spawn(client.pid, 'node', 'node server.js');
    await w.tracker.refresh();
    const worker = t.fake.spawn(server.pid, 'node', 'node worker.js'); // no poll has seen it

    assert.deepEqual(await w.tracker.kill(server.pid), { killed: [server.pid, worker.pid], failed: [] });
    const spawned = (await w.events()).find((e) => e.event === 'spawned' && e.pid === worker.pid);
    assert.deepEqual(spawned?.clientTools, clientTools);
    assert.equal(spawned?.terminal, 'claude-code (own tools)');
  });

  it('kill(pid) never logs a tracked process as killed when a stranger in the tree had reused its pid: that one completed, the stranger is logged', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 'dev');
    const server = t.fake.spawn(shell.pid, 'node', 'node server.js');
    const oldChild = t.fake.spawn(server.pid, 'esbuild', 'esbuild --service');
    await w.tracker.refresh();
    t.fake.exit(oldChild.pid); // exits unseen...
    const reuser = t.fake.spawn(server.pid, 'node', 'node worker.js', oldChild.pid); // ...and its pid is reused in the same tree

    assert.deepEqual(await w.tracker.kill(server.pid), { killed: [server.pid, reuser.pid], failed: [] });
    assert.deepEqual(describeEvents(await w.events()), [
      eventLine('started', server),
      eventLine('spawned', oldChild),
      eventLine('spawned', reuser),
      eventLine('killed', server, 'kill_request'),
      eventLine('killed', reuser, 'kill_request'),
      eventLine('completed', oldChild),
    ]);
    assert.deepEqual(w.tracker.summary(), { running: [], orphaned: [] });
  });

  it('after dispose (the window closing) kill() and killOrphans() refuse and touch nothing', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const shell = t.openTerminal(w.tracker, 'dev');
    const server = t.fake.spawn(shell.pid, 'node', 'node server.js');
    await w.tracker.refresh();
    await w.tracker.dispose();
    const closing = (error: unknown): boolean => {
      assert.ok(error instanceof ShepherdError);
      assert.equal(error.code, BridgeErrorCode.WindowClosing);
      assert.match(error.message, /^The VS Code window is closing, so nothing was killed\. .*list_processes/);
      return true;
    };
    await assert.rejects(w.tracker.kill(server.pid), closing);
    await assert.rejects(w.tracker.killOrphans(), closing);
    assert.deepEqual(t.fake.killRequests, []);
    assert.ok(await t.fake.isAlive(server));
  });

  it('terminalClosed(name) kills what that terminal’s processes still run, not other terminals’', async () => {
    const w = await t.openWindow(undefined, { settings: ON_DEMAND });
    const doomed = t.openTerminal(w.tracker, 'doomed');
    const kept = t.openTerminal(w.tracker, 'kept');
    const server = t.fake.spawn(doomed.pid, 'node', 'node server.js');
    const worker = t.fake.spawn(server.pid, 'node', 'node worker.js');
    const wrapper = t.fake.spawn(doomed.pid, 'sh', 'sh -c "daemon &"');
    const daemon = t.fake.spawn(wrapper.pid, 'daemon', 'daemon');
    const other = t.fake.spawn(kept.pid, 'sleep', 'sleep 500');
    await w.tracker.refresh();
    t.fake.exit(wrapper.pid); // the daemon escapes the tree
    const late = t.fake.spawn(doomed.pid, 'sleep', 'sleep 7'); // since the last poll: the closing look finds it

    assert.deepEqual(await w.tracker.terminalClosed('doomed'), { killed: [server.pid, worker.pid, daemon.pid, late.pid], failed: [] });
    assert.deepEqual(t.fake.killRequests, [identity(server), identity(daemon), identity(late)], 'one request per tree, oldest first');
    assert.deepEqual(running(w.tracker), [`${other.pid}:`]);
    assert.deepEqual(await w.tracker.terminalClosed('doomed'), NO_KILLS, 'a second close does nothing');

    // A terminal whose shell already exited: what it started still runs, re-parented, and is killed.
    t.fake.exit(kept.pid);
    assert.deepEqual(await w.tracker.terminalClosed('kept'), { killed: [other.pid], failed: [] });
    assert.deepEqual(t.fake.signalled, [server.pid, worker.pid, daemon.pid, late.pid, other.pid]);
    assert.deepEqual(w.tracker.summary(), { running: [], orphaned: [] });

    const log = await waitFor('the killed events', async () => {
      const events = (await w.events()).filter((e) => e.event === 'killed' || e.event === 'completed');
      return events.length === 6 ? events : undefined;
    });
    assert.deepEqual(describeEvents(log), [
      eventLine('completed', wrapper),
      eventLine('killed', server, 'terminal_closed'),
      eventLine('killed', worker, 'terminal_closed'),
      eventLine('killed', daemon, 'terminal_closed'),
      eventLine('killed', late, 'terminal_closed'),
      eventLine('killed', other, 'terminal_closed'),
    ]);
  });
});
