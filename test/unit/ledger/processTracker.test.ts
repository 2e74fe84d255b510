/**
 * The tracker against the REAL /proc of this machine (Linux monitor): a bash stands in for a
 * terminal's shell, real trees and a real listening socket appear under it, real signals end
 * them. Every process is cleaned up by the janitor (after hooks).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TrackedProcess } from '../../../common/src/protocol';
import { createProcessMonitor } from '../../../extension/src/core/processes';
import { TempDirs } from '../../support/tempDirs';
import { ProcessJanitor, waitFor } from '../processes/helpers';
import { flatten, makeTracker, rejectsNotOwned, runInShell, spawnShell, type TrackerFixture } from './trackerSupport';
import { procAlive } from '../../support/procStat';
import { describeWhere } from '../../support/skips';

const onLinux = process.platform === 'linux';

describeWhere(onLinux, 'needs Linux /proc')('ProcessTracker (real /proc)', function () {
  this.timeout(30_000);
  const monitor = createProcessMonitor('linux');
  const janitor = new ProcessJanitor();
  const dirs = new TempDirs();
  let fixture: TrackerFixture | undefined;

  afterEach(async () => {
    await fixture?.tracker.dispose();
    fixture = undefined;
    janitor.cleanup();
    dirs.cleanup();
  });
  after(() => monitor.dispose());

  async function started(): Promise<TrackerFixture> {
    fixture = makeTracker(monitor, dirs.make());
    await fixture.tracker.start();
    return fixture;
  }

  it('tracks a three-generation tree and a TCP server as they appear, kills one tree only, refuses the rest', async () => {
    const { tracker, events, store } = await started();
    const shell = runInShell(janitor, tracker, 'dev', `bash -c "sleep 4011 & bash -c 'sleep 4012 & wait' & wait" &`);
    shell.type(`sleep 4013 &`);
    shell.type(`${process.execPath} -e "const s=require('net').createServer().listen(0,'127.0.0.1'); setInterval(()=>{},1000)" &`);

    const all = await waitFor('the whole tree with the port', () => {
      const flat = flatten(tracker.list().active);
      const node = flat.find((p) => p.name === 'node');
      return flat.length === 6 && node && node.ports.length > 0 ? flat : undefined;
    });
    all.forEach((p) => janitor.track(p.pid));
    const byCmd = (cmd: string): TrackedProcess => all.find((p) => p.commandLine === cmd) ?? assert.fail(`no ${cmd} in ${JSON.stringify(all.map((p) => p.commandLine))}`);
    const outer = byCmd(`bash -c sleep 4011 & bash -c 'sleep 4012 & wait' & wait`);
    const middle = byCmd(`bash -c sleep 4012 & wait`);
    const sleepA = byCmd('sleep 4011');
    const sleepB = byCmd('sleep 4012');
    const sibling = byCmd('sleep 4013');
    const server = all.find((p) => p.name === 'node')!;

    // Trees: top level are the shell's direct children; the shell itself is not a tracked process.
    const top = tracker.list().active;
    assert.deepEqual(top.map((p) => p.pid).sort(), [outer.pid, sibling.pid, server.pid].sort());
    assert.ok(!all.some((p) => p.pid === shell.pid), 'the shell is the root, not a tracked process');
    assert.equal(outer.parentPid, shell.pid);
    assert.equal(middle.parentPid, outer.pid);
    assert.equal(sleepB.parentPid, middle.pid);
    const outerNode = top.find((p) => p.pid === outer.pid)!;
    assert.deepEqual(outerNode.children?.map((c) => c.pid).sort(), [sleepA.pid, middle.pid].sort());
    assert.deepEqual(outerNode.children?.find((c) => c.pid === middle.pid)?.children?.map((c) => c.pid), [sleepB.pid]);
    for (const p of all) {
      assert.equal(p.status, 'running');
      assert.equal(p.terminalName, 'dev');
      assert.ok(Date.parse(p.startedAt) > Date.now() - 60_000, `startedAt ${p.startedAt} is the OS start time`);
    }
    assert.equal(sleepA.name, 'sleep');
    assert.equal(middle.name, 'bash');
    assert.match(server.commandLine, /createServer/);
    const port = server.ports[0]!;
    assert.ok(port > 0);

    const summary = tracker.summary();
    assert.equal(summary.running.length, 6);
    assert.deepEqual(summary.running.find((e) => e.pid === server.pid)?.ports, [port]);
    assert.equal(tracker.summary(), summary, 'cached while nothing changes');

    // The log: one discovery event per process (`started` under the shell, `spawned` deeper), and the port.
    await waitFor('discovery events in the log', async () => (await events()).filter((e) => e.event === 'started' || e.event === 'spawned').length === 6);
    const log = await events();
    const discovered = new Map(log.filter((e) => e.event === 'started' || e.event === 'spawned').map((e) => [e.pid, e]));
    assert.equal(discovered.get(outer.pid)?.event, 'started');
    assert.equal(discovered.get(sibling.pid)?.event, 'started');
    assert.equal(discovered.get(middle.pid)?.event, 'spawned');
    assert.equal(discovered.get(sleepB.pid)?.event, 'spawned');
    assert.equal(discovered.get(sleepB.pid)?.parentPid, middle.pid);
    assert.equal(discovered.get(sleepB.pid)?.cmd, 'sleep 4012');
    assert.equal(discovered.get(sleepB.pid)?.terminal, 'dev');
    assert.match(discovered.get(sleepB.pid)?.startTime ?? '', /^\d+@/);
    assert.ok(log.some((e) => e.event === 'ports' && e.pid === server.pid && e.ports?.[0] === port));

    // Refusals: never anything the ledger did not start, whatever the pid.
    await rejectsNotOwned(tracker.kill(1), /^pid 1 is not a process Terminal Shepherd started.*list_processes/);
    await rejectsNotOwned(tracker.kill(process.pid), /extension host/);
    await rejectsNotOwned(tracker.kill(shell.pid), /shell of terminal "dev"/);
    const stranger = janitor.spawn('sleep', ['4019']);
    await rejectsNotOwned(tracker.kill(stranger.pid!), /not a process Terminal Shepherd started in this window/);
    assert.ok(procAlive(shell.pid) && procAlive(stranger.pid!), 'refused pids are untouched');

    // Killing the middle bash ends it and its child, nothing else.
    const result = await tracker.kill(middle.pid);
    assert.deepEqual(result.killed, [middle.pid, sleepB.pid].sort((a, b) => a - b));
    assert.deepEqual(result.failed, []);
    assert.ok(!procAlive(middle.pid) && !procAlive(sleepB.pid));
    for (const survivor of [outer, sleepA, sibling, server]) {
      assert.ok(procAlive(survivor.pid), `${survivor.commandLine} survives`);
    }
    const after = flatten(tracker.list().active).map((p) => p.pid);
    assert.ok(!after.includes(middle.pid) && !after.includes(sleepB.pid));
    assert.equal(after.length, 4);
    await rejectsNotOwned(tracker.kill(middle.pid), /already ended at .*may now belong to another process/);
    // kill() answers only once its events are in the log: whoever asked may read it next.
    const killedEvents = (await events()).filter((e) => e.event === 'killed');
    assert.equal(killedEvents.length, 2);
    assert.ok(killedEvents.every((e) => e.reason === 'kill_request'));

    // active-processes.json follows within the debounce bound.
    await waitFor('the active file to show the 4 survivors', async () => (await store.readActive()).entries.length === 4, 3000);
    const entry = (await store.readActive()).entries.find((e) => e.pid === server.pid)!;
    assert.equal(entry.sessionId, tracker.sessionId);
    assert.equal(entry.owner.pid, process.pid);
    assert.deepEqual(entry.ports, [port]);
  });

  it('marks a process that exits on its own completed, also after the run ended', async () => {
    const { tracker, events } = await started();
    runInShell(janitor, tracker, 't', 'sleep 0.8 &');
    const proc = await waitFor('the short sleep', () => flatten(tracker.list().active).find((p) => p.commandLine === 'sleep 0.8'));
    tracker.runEnded('t'); // only the idle cadence watches it now
    await waitFor('completed', () => flatten(tracker.list().active).length === 0, 5000);
    const completed = (await waitFor('the completed event', async () => (await events()).find((e) => e.event === 'completed' && e.pid === proc.pid)))!;
    assert.equal(completed.startTime.length > 0, true);
    assert.equal(tracker.summary().running.length, 0);
  });

  it('takes a final snapshot when a run ends: a background job is found at once', async () => {
    fixture = makeTracker(monitor, dirs.make(), { settings: { pollIntervalMs: 30_000, idlePollIntervalMs: 60_000 } });
    const { tracker } = fixture;
    await tracker.start();
    const shell = spawnShell(janitor);
    tracker.terminalOpened('t', shell.pid);
    shell.type('sleep 4021 &');
    await waitFor('the job to exist', async () => (await monitor.descendants(shell.pid)).length === 1);
    tracker.runStarted('t');
    tracker.runEnded('t');
    const found = await waitFor('the final snapshot', () => flatten(tracker.list().active)[0], 150, 5);
    assert.equal(found.commandLine, 'sleep 4021');
  });

  it('kills a process that appeared since the last poll, after looking again', async () => {
    fixture = makeTracker(monitor, dirs.make(), { settings: { pollIntervalMs: 30_000, idlePollIntervalMs: 60_000 } });
    const { tracker } = fixture;
    await tracker.start();
    const shell = spawnShell(janitor);
    tracker.terminalOpened('t', shell.pid);
    shell.type('sleep 4051 &'); // no run: nothing polls this terminal
    const [job] = await waitFor('the job', async () => {
      const d = await monitor.descendants(shell.pid);
      return d.length === 1 ? d : undefined;
    });
    janitor.track(job!.pid);
    assert.equal(tracker.list().active.length, 0);
    assert.deepEqual(await tracker.kill(job!.pid), { killed: [job!.pid], failed: [] });
    assert.ok(!procAlive(job!.pid));
  });

  it('kills what a terminal started when it closes, and logs it', async () => {
    const { tracker, events } = await started();
    const shell = runInShell(janitor, tracker, 'doomed', 'sleep 4031 &');
    shell.type(`bash -c "sleep 4032 & wait" &`);
    const procs = await waitFor('three processes', () => {
      const flat = flatten(tracker.list().active);
      return flat.length === 3 ? flat : undefined;
    });
    procs.forEach((p) => janitor.track(p.pid));
    tracker.runEnded('doomed');
    const result = await tracker.terminalClosed('doomed');
    assert.deepEqual(result.killed, procs.map((p) => p.pid).sort((a, b) => a - b));
    assert.ok(procs.every((p) => !procAlive(p.pid)));
    assert.equal(tracker.list().active.length, 0);
    await waitFor('killed events', async () => (await events()).filter((e) => e.event === 'killed' && e.reason === 'terminal_closed').length === 3);
    assert.deepEqual(await tracker.terminalClosed('doomed'), { killed: [], failed: [] }, 'a second close is a no-op');
  });

  it('keeps tracking a process that escaped its tree (daemonized), and writes a session summary', async () => {
    const { tracker, store } = await started();
    // The intermediate bash exits at once: its child sleep is reparented away from the shell.
    const shell = runInShell(janitor, tracker, 'd', `bash -c "sleep 4041 & sleep 0.4" &`);
    const sleeper = await waitFor('the sleep', () => flatten(tracker.list().active).find((p) => p.commandLine === 'sleep 4041'));
    janitor.track(sleeper.pid);
    await waitFor('the intermediate bash to end', () => flatten(tracker.list().active).length === 1, 5000);
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(!(await monitor.descendants(shell.pid)).some((p) => p.pid === sleeper.pid), 'out of the shell tree');
    assert.equal(flatten(tracker.list().active)[0]?.pid, sleeper.pid, 'still tracked as running');
    await tracker.dispose();
    const summary = JSON.parse(readFileSync(`${store.sessionsDir}/${tracker.sessionId}.json`, 'utf8'));
    assert.equal(summary.sessionId, tracker.sessionId);
    assert.ok(summary.endedAt);
    // bash, sleep 4041 and (unless bash exec'd it) sleep 0.4
    assert.ok(summary.counts.tracked >= 2);
    assert.equal(summary.counts.running, 1);
    assert.equal(summary.counts.completed, summary.counts.tracked - 1);
    const statuses = summary.processes.map((p: { pid: number; status: string }) => `${p.pid === sleeper.pid ? 'sleeper' : 'other'}:${p.status}`);
    assert.deepEqual(new Set(statuses), new Set(['sleeper:running', 'other:completed']));
  });
});
