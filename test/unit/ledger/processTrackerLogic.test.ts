/**
 * ProcessTracker's logic against a fake process table (FakeProcessMonitor): runs on every OS, no
 * real process involved, and covers what real processes cannot be made to do on demand — a pid
 * reused by a stranger, a kill the OS refuses, the OS not answering, a window that died.
 *
 * Most tests poll only when they ask (refresh, runEnded, kill, terminalClosed), so what the
 * tracker saw is exact; the ones about cadence use makeTracker's fast polling and wait for it.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LedgerSummary } from '../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import { setListenerErrorHandler } from '../../../extension/src/core/events';
import type { LedgerStartup } from '../../../extension/src/core/ledger/api';
import { LEDGER_FILES, type LedgerEvent, type SessionSummary } from '../../../extension/src/core/ledger/formats';
import type { ProcessTracker } from '../../../extension/src/core/ledger/processTracker';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { FakeProcessMonitor } from './fakeProcessMonitor';
import { TempDirs, waitFor } from './helpers';
import { flatten, makeTracker, rejectsNotOwned, type TrackerFixture } from './trackerSupport';

/** No timer-driven poll within a test's lifetime. */
const ON_DEMAND = { pollIntervalMs: 60_000, idlePollIntervalMs: 60_000 };
const NO_KILLS = { killed: [], failed: [] };

interface WindowFixture extends TrackerFixture {
  /** Its extension host in the fake table: the window is alive while this process is. */
  readonly host: ProcessInfo;
  readonly startup: LedgerStartup;
}

/** One line per event: what, which process (pid/start time), and why. */
function describeEvents(events: readonly LedgerEvent[]): string[] {
  return events.map((e) => [e.event, `${e.pid}/${e.startTime}`, e.reason, e.fromSessionId].filter(Boolean).join(' '));
}

function eventLine(event: LedgerEvent['event'], p: ProcessInfo, ...extra: string[]): string {
  return [event, `${p.pid}/${p.startTime}`, ...extra].join(' ');
}

function identity(p: ProcessInfo): { pid: number; startTime: string; commandLine: string } {
  return { pid: p.pid, startTime: p.startTime, commandLine: p.commandLine };
}

describe('ProcessTracker logic (fake process table, every OS)', function () {
  const dirs = new TempDirs();
  const fixtures: TrackerFixture[] = [];
  let fake: FakeProcessMonitor;

  beforeEach(() => {
    fake = new FakeProcessMonitor();
  });
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.tracker.dispose()));
    dirs.cleanup();
  });

  /** A window: its extension host in the table (the owner other windows check) and a started tracker. */
  async function openWindow(dir = dirs.make(), options: Parameters<typeof makeTracker>[2] = {}): Promise<WindowFixture> {
    const host = fake.spawn(1, 'code', 'code --type=extensionHost');
    const fixture = makeTracker(fake, dir, { ...options, owner: { pid: host.pid, startTime: host.startTime } });
    fixtures.push(fixture);
    return { ...fixture, host, startup: await fixture.tracker.start() };
  }

  /** A managed terminal: its shell in the table, announced to the tracker. */
  function openTerminal(tracker: ProcessTracker, name: string): ProcessInfo {
    const shell = fake.spawn(1, 'bash', 'bash --login');
    tracker.terminalOpened(name, shell.pid);
    return shell;
  }

  /** Processes of the summary as `pid:ports`. */
  function running(tracker: ProcessTracker): string[] {
    return tracker.summary().running.map((e) => `${e.pid}:${e.ports.join(',')}`);
  }

  it('tracks a run’s tree as it appears: started under the shell, spawned deeper, nested in list(), with ports in summary()', async () => {
    const w = await openWindow();
    const shell = openTerminal(w.tracker, 'dev');
    w.tracker.runStarted('dev');
    const npm = fake.spawn(shell.pid, 'npm', 'npm run dev');
    const vite = fake.spawn(npm.pid, 'node', 'node vite');
    const esbuild = fake.spawn(vite.pid, 'esbuild', 'esbuild --service');
    const job = fake.spawn(shell.pid, 'sleep', 'sleep 100');
    fake.setPorts(vite.pid, [5173]);

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
    const w = await openWindow();
    const shell = openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const wrapper = fake.spawn(shell.pid, 'bash', 'bash -c "sleep 4041 & sleep 1"');
    const daemon = fake.spawn(wrapper.pid, 'sleep', 'sleep 4041');
    const short = fake.spawn(wrapper.pid, 'sleep', 'sleep 1');
    await waitFor('the three tracked', () => running(w.tracker).length === 3);
    w.tracker.runEnded('t'); // from now on only the idle cadence looks

    fake.exit(short.pid);
    fake.exit(wrapper.pid); // the daemon is re-parented to init: out of the shell's tree, alive
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
    assert.deepEqual(fake.killRequests, []);
  });

  it('never takes a stranger that reused a tracked pid, or the shell’s pid, for the tracked process', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 't');
    const seenExit = fake.spawn(shell.pid, 'sleep', 'sleep 10');
    const unseenExit = fake.spawn(shell.pid, 'sleep', 'sleep 11');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${seenExit.pid}:`, `${unseenExit.pid}:`]);

    // Each exits and a stranger outside every terminal takes its pid: the first before a poll
    // (completed by identity), the second after the last one, so the ledger still believes it
    // running when kill() is asked: kill() re-checks the identity.
    fake.exit(seenExit.pid);
    const stranger1 = fake.spawn(1, 'postgres', 'postgres -D /var/lib/pg', seenExit.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${unseenExit.pid}:`]);
    await rejectsNotOwned(w.tracker.kill(seenExit.pid), /^pid \d+ \(`sleep 10` in terminal "t"\) already ended at .*may now belong to another process, so it is not killed\. list_processes/);
    fake.exit(unseenExit.pid);
    const stranger2 = fake.spawn(1, 'sshd', 'sshd -D', unseenExit.pid);
    assert.deepEqual(running(w.tracker), [`${unseenExit.pid}:`]);
    await rejectsNotOwned(w.tracker.kill(unseenExit.pid), /`sleep 11` in terminal "t"\) already ended/);
    assert.deepEqual(running(w.tracker), []);
    assert.deepEqual(fake.killRequests, [], 'killTree never asked');
    assert.ok((await fake.isAlive(stranger1)) && (await fake.isAlive(stranger2)));

    // A pid reused inside the terminal's tree is a new process of the ledger, and killable.
    fake.exit(stranger1.pid);
    const newcomer = fake.spawn(shell.pid, 'node', 'node app.js', seenExit.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${newcomer.pid}:`]);
    assert.deepEqual(await w.tracker.kill(newcomer.pid), { killed: [newcomer.pid], failed: [] });
    assert.deepEqual(fake.killRequests, [identity(newcomer)]);

    // The shell exits and a stranger with children takes its pid: the terminal's tree is gone.
    fake.exit(shell.pid);
    const impostor = fake.spawn(1, 'bash', 'bash', shell.pid);
    const impostorChild = fake.spawn(impostor.pid, 'sleep', 'sleep 12');
    w.tracker.runStarted('t');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), []);
    assert.ok(await fake.isAlive(impostorChild));

    assert.deepEqual(describeEvents(await w.events()), [
      eventLine('started', seenExit),
      eventLine('started', unseenExit),
      eventLine('completed', seenExit),
      eventLine('completed', unseenExit),
      eventLine('started', newcomer),
      eventLine('killed', newcomer, 'kill_request'),
    ]);
    assert.deepEqual(fake.signalled, [newcomer.pid], 'nothing outside the ledger was touched');
  });

  it('logs `ports` when a process’s ports change while a run is polled', async () => {
    const w = await openWindow();
    const shell = openTerminal(w.tracker, 'srv');
    w.tracker.runStarted('srv');
    const server = fake.spawn(shell.pid, 'node', 'node server.js');
    await waitFor('the server tracked', () => running(w.tracker).length === 1);
    for (const ports of [[3000], [3000, 3001], []]) {
      fake.setPorts(server.pid, ports);
      await waitFor(`ports [${ports.join(', ')}]`, () => running(w.tracker)[0] === `${server.pid}:${ports.join(',')}`);
    }
    const log = await waitFor('three ports events', async () => {
      const events = (await w.events()).filter((e) => e.event === 'ports');
      return events.length === 3 ? events : undefined;
    });
    assert.deepEqual(log.map((e) => `${e.pid} [${e.ports!.join(',')}]`), [`${server.pid} [3000]`, `${server.pid} [3000,3001]`, `${server.pid} []`]);
  });

  it('refresh() reads ports and checks every live process, also those in no terminal’s tree', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const a = openTerminal(w.tracker, 'a');
    const b = openTerminal(w.tracker, 'b');
    const wrapper = fake.spawn(a.pid, 'sh', 'sh -c "node worker.js &"');
    const worker = fake.spawn(wrapper.pid, 'node', 'node worker.js');
    const web = fake.spawn(b.pid, 'node', 'node web.js');
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${wrapper.pid}:`, `${worker.pid}:`, `${web.pid}:`]);

    fake.exit(wrapper.pid); // the worker escapes the tree
    fake.setPorts(worker.pid, [9229]);
    fake.setPorts(web.pid, [8080]);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${worker.pid}:9229`, `${web.pid}:8080`]);

    fake.exit(worker.pid);
    await w.tracker.refresh();
    assert.deepEqual(running(w.tracker), [`${web.pid}:8080`]);
    const log = await waitFor('the second completed event', async () => {
      const events = (await w.events()).filter((e) => e.event !== 'started' && e.event !== 'spawned');
      return events.length === 4 ? events : undefined;
    });
    assert.deepEqual(describeEvents(log), [eventLine('completed', wrapper), eventLine('ports', worker), eventLine('ports', web), eventLine('completed', worker)]);
  });

  it('kill(pid) ends an owned tree (identity-checked), logs it before answering, and refuses everything else', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 'dev');
    const npm = fake.spawn(shell.pid, 'npm', 'npm run dev');
    const vite = fake.spawn(npm.pid, 'node', 'node vite');
    const esbuild = fake.spawn(vite.pid, 'esbuild', 'esbuild --service');
    const job = fake.spawn(shell.pid, 'sleep', 'sleep 100');
    const stranger = fake.spawn(1, 'sshd', 'sshd -D');
    await w.tracker.refresh();

    assert.deepEqual(await w.tracker.kill(vite.pid), { killed: [vite.pid, esbuild.pid], failed: [] });
    assert.deepEqual(fake.killRequests, [identity(vite)]);
    assert.deepEqual(fake.signalled, [vite.pid, esbuild.pid]);
    assert.deepEqual(running(w.tracker), [`${npm.pid}:`, `${job.pid}:`]);
    // In the log before kill() answered: whoever asked may read it next.
    assert.deepEqual(
      describeEvents((await w.events()).filter((e) => e.event === 'killed')),
      [eventLine('killed', vite, 'kill_request'), eventLine('killed', esbuild, 'kill_request')],
    );

    // Each refusal says why, and what to do instead.
    const refuse = (pid: number, why: RegExp): Promise<void> =>
      rejectsNotOwned(w.tracker.kill(pid), new RegExp(`^pid ${pid} ${why.source}.*list_processes shows the processes Terminal Shepherd can kill\\.$`));
    const callsBefore = fake.calls.length;
    await refuse(1, /is not a process Terminal Shepherd started \(it is the system's init process\)/);
    await refuse(process.pid, /is the VS Code extension host that runs Terminal Shepherd; it is never killed\./);
    await refuse(shell.pid, /is the shell of terminal "dev".*terminal_input \{name: "dev", text: "\\u0003"\}/);
    assert.equal(fake.calls.length, callsBefore, 'refused without asking the OS');
    await refuse(stranger.pid, /is not a process Terminal Shepherd started in this window, so it is not killed\./);
    await refuse(vite.pid, /\(`node vite` in terminal "dev"\) already ended at \d{4}-/);
    assert.deepEqual(fake.killRequests, [identity(vite)], 'no refusal reached killTree');

    // Started since the last poll: the refresh kill() makes finds it.
    const late = fake.spawn(shell.pid, 'sleep', 'sleep 200');
    assert.deepEqual(await w.tracker.kill(late.pid), { killed: [late.pid], failed: [] });

    // The OS refuses (EPERM): the root stays running and is reported failed; its child is killed.
    const guarded = fake.spawn(shell.pid, 'sudo', 'sudo tail -f /var/log/syslog');
    const tail = fake.spawn(guarded.pid, 'tail', 'tail -f /var/log/syslog');
    await w.tracker.refresh();
    fake.failKill(guarded.pid);
    assert.deepEqual(await w.tracker.kill(guarded.pid), { killed: [tail.pid], failed: [guarded.pid] });
    assert.deepEqual(running(w.tracker), [`${npm.pid}:`, `${job.pid}:`, `${guarded.pid}:`]);
    assert.ok(w.logger.has('warn', new RegExp(`could not kill ${guarded.pid} \\(kill_request\\)`)));

    assert.deepEqual(
      describeEvents((await w.events()).filter((e) => e.event === 'killed')).slice(2),
      [eventLine('killed', late, 'kill_request'), eventLine('killed', tail, 'kill_request')],
    );
    assert.ok(await fake.isAlive(stranger));
    assert.deepEqual(fake.signalled, [vite.pid, esbuild.pid, late.pid, guarded.pid, tail.pid], 'nothing outside the ledger was touched');
  });

  it('kill(pid) logs every process it kills, also a child born since the last poll (spawned, then killed)', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 'dev');
    const server = fake.spawn(shell.pid, 'node', 'node server.js');
    await w.tracker.refresh();
    const worker = fake.spawn(server.pid, 'node', 'node worker.js'); // no poll has seen it

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

  it('kill(pid) never logs a tracked process as killed when a stranger in the tree had reused its pid: that one completed, the stranger is logged', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 'dev');
    const server = fake.spawn(shell.pid, 'node', 'node server.js');
    const oldChild = fake.spawn(server.pid, 'esbuild', 'esbuild --service');
    await w.tracker.refresh();
    fake.exit(oldChild.pid); // exits unseen...
    const reuser = fake.spawn(server.pid, 'node', 'node worker.js', oldChild.pid); // ...and its pid is reused in the same tree

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
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 'dev');
    const server = fake.spawn(shell.pid, 'node', 'node server.js');
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
    assert.deepEqual(fake.killRequests, []);
    assert.ok(await fake.isAlive(server));
  });

  it('terminalClosed(name) kills what that terminal’s processes still run, not other terminals’', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const doomed = openTerminal(w.tracker, 'doomed');
    const kept = openTerminal(w.tracker, 'kept');
    const server = fake.spawn(doomed.pid, 'node', 'node server.js');
    const worker = fake.spawn(server.pid, 'node', 'node worker.js');
    const wrapper = fake.spawn(doomed.pid, 'sh', 'sh -c "daemon &"');
    const daemon = fake.spawn(wrapper.pid, 'daemon', 'daemon');
    const other = fake.spawn(kept.pid, 'sleep', 'sleep 500');
    await w.tracker.refresh();
    fake.exit(wrapper.pid); // the daemon escapes the tree
    const late = fake.spawn(doomed.pid, 'sleep', 'sleep 7'); // since the last poll: the closing look finds it

    assert.deepEqual(await w.tracker.terminalClosed('doomed'), { killed: [server.pid, worker.pid, daemon.pid, late.pid], failed: [] });
    assert.deepEqual(fake.killRequests, [identity(server), identity(daemon), identity(late)], 'one request per tree, oldest first');
    assert.deepEqual(running(w.tracker), [`${other.pid}:`]);
    assert.deepEqual(await w.tracker.terminalClosed('doomed'), NO_KILLS, 'a second close does nothing');

    // A terminal whose shell already exited: what it started still runs, re-parented, and is killed.
    fake.exit(kept.pid);
    assert.deepEqual(await w.tracker.terminalClosed('kept'), { killed: [other.pid], failed: [] });
    assert.deepEqual(fake.signalled, [server.pid, worker.pid, daemon.pid, late.pid, other.pid]);
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

  it('takes a final snapshot when a run ends: a background job started just before is found', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const shell = openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const job = fake.spawn(shell.pid, 'sleep', 'sleep 100'); // the run's `sleep 100 &`
    w.tracker.runEnded('t');
    // The first poll of a run is due after 200 ms but skips a terminal whose run ended with
    // nothing tracked: only the final snapshot can find the job.
    await waitFor('the final snapshot', () => running(w.tracker).length === 1);
    assert.deepEqual(running(w.tracker), [`${job.pid}:`]);
    await waitFor('started in the log', async () => (await w.events()).length === 1);
    assert.deepEqual(describeEvents(await w.events()), [eventLine('started', job)]);
  });

  describe('startup: a second window on the same data dir (a reload)', () => {
    /**
     * Window "sessionA" tracks what `start` runs in its terminal "srv", writes its ledger and
     * dies: its extension host and shell leave the table, the processes they started stay.
     */
    async function windowThatDies<T extends [] | ProcessInfo[]>(dir: string, start: (shell: ProcessInfo) => T): Promise<T> {
      const a = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionA' });
      const shell = openTerminal(a.tracker, 'srv');
      const started = start(shell);
      await a.tracker.refresh();
      await a.tracker.dispose();
      fake.exit(a.host.pid);
      fake.exit(shell.pid);
      return started;
    }

    it('adopts live processes as orphans with their ports, closes exited and reused ones, leaves live windows alone', async () => {
      const dir = dirs.make();
      // Window C lives on (its host stays in the table), with a process of its own.
      const c = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionC' });
      const cJob = fake.spawn(openTerminal(c.tracker, 'c').pid, 'sleep', 'sleep 300');
      await c.tracker.refresh();
      await c.tracker.dispose();
      const [server, exited, reused] = await windowThatDies(dir, (shell) => {
        const s = fake.spawn(shell.pid, 'node', 'node server.js');
        fake.setPorts(s.pid, [8080]);
        return [s, fake.spawn(shell.pid, 'sleep', 'sleep 1'), fake.spawn(shell.pid, 'sleep', 'sleep 2')];
      });
      // While no window looked: one exits, one's pid is reused, the server opens another port.
      fake.exit(exited.pid);
      fake.exit(reused.pid);
      const stranger = fake.spawn(1, 'sleep', 'sleep 3', reused.pid);
      fake.setPorts(server.pid, [8080, 8081]);

      const b = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
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
      assert.deepEqual(fake.killRequests, []);
    });

    it('killOrphans() kills the orphans still alive and nothing else', async () => {
      const dir = dirs.make();
      const [server, worker, watcher] = await windowThatDies(dir, (shell) => {
        const s = fake.spawn(shell.pid, 'node', 'node server.js');
        return [s, fake.spawn(s.pid, 'node', 'node worker.js'), fake.spawn(shell.pid, 'node', 'node watch.js')];
      });
      const b = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
      assert.deepEqual(b.startup.orphans.map((p) => p.pid), [server.pid, watcher.pid, worker.pid], 'in the order A found them');
      const own = fake.spawn(openTerminal(b.tracker, 'mine').pid, 'sleep', 'sleep 100');
      fake.exit(watcher.pid); // an orphan that exits on its own is completed, not killed
      await b.tracker.refresh();
      assert.deepEqual(b.tracker.summary().orphaned.map((e) => e.pid), [server.pid, worker.pid]);

      assert.deepEqual(await b.tracker.killOrphans(), { killed: [server.pid, worker.pid], failed: [] });
      assert.deepEqual(fake.killRequests, [identity(server)], 'the worker went down with its parent');
      assert.deepEqual(fake.signalled, [server.pid, worker.pid]);
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
      const dir = dirs.make();
      writeFileSync(path.join(dir, LEDGER_FILES.active), '{ this is not json');
      const w = await openWindow(dir, { settings: ON_DEMAND });
      assert.deepEqual(w.startup, { orphans: [], closed: 0, foreign: 0, skippedEntries: 0, activeFileCorrupt: true });
      assert.ok(w.logger.has('warn', /not a valid active-processes file; treating it as empty/));
      const job = fake.spawn(openTerminal(w.tracker, 't').pid, 'sleep', 'sleep 100');
      await w.tracker.refresh();
      await w.tracker.dispose();
      const active = await w.store.readActive();
      assert.equal(active.corrupt, false);
      assert.deepEqual(active.entries.map((e) => e.pid), [job.pid]);
    });

    it('a window starting while the OS does not answer adopts nothing and leaves the entries to the next one', async () => {
      const dir = dirs.make();
      const [server] = await windowThatDies(dir, (shell) => [fake.spawn(shell.pid, 'node', 'node server.js')]);
      fake.failNext('listAll');
      const b = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
      assert.deepEqual(b.startup.orphans, []);
      assert.ok(b.logger.has('warn', /cannot list processes; orphans of earlier windows are not checked/));
      await b.tracker.dispose();
      const c = await openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionC' });
      assert.deepEqual(c.startup.orphans.map((p) => p.pid), [server.pid]);
    });
  });

  it('when the OS does not answer, warns, keeps its records, and recovers at the next poll', async () => {
    const w = await openWindow();
    const shell = openTerminal(w.tracker, 't');
    w.tracker.runStarted('t');
    const job = fake.spawn(shell.pid, 'sleep', 'sleep 100');
    await waitFor('the job tracked', () => running(w.tracker).length === 1);

    fake.failNext('listAll');
    await waitFor('the failed poll logged', () => w.logger.has('warn', /ledger: polling processes failed fake: listAll did not answer/));
    assert.deepEqual(running(w.tracker), [`${job.pid}:`], 'a failed look is not taken for "all gone"');
    const late = fake.spawn(shell.pid, 'sleep', 'sleep 200');
    await waitFor('the next poll', () => running(w.tracker).length === 2);

    // Ports are best effort: the last known ones stay until the OS answers again.
    fake.failNext('listeningPorts');
    fake.setPorts(job.pid, [3000]);
    await waitFor('the failed port read logged', () => w.logger.has('debug', /listening ports unavailable/));
    await waitFor('the port read again', () => running(w.tracker).includes(`${job.pid}:3000`));
    assert.deepEqual(running(w.tracker), [`${job.pid}:3000`, `${late.pid}:`]);
    assert.ok(!(await w.events()).some((e) => e.event === 'completed'));
  });

  it('fires onDidChange with the new summary after each change; a throwing listener breaks nothing', async () => {
    const w = await openWindow(undefined, { settings: ON_DEMAND });
    const reported: string[] = [];
    const restore = setListenerErrorHandler((error, where) => reported.push(`${where}: ${(error as Error).message}`));
    try {
      w.tracker.onDidChange(() => {
        throw new Error('listener bug');
      });
      const seen: LedgerSummary[] = [];
      w.tracker.onDidChange((summary) => seen.push(summary));
      const job = fake.spawn(openTerminal(w.tracker, 't').pid, 'sleep', 'sleep 100');
      await w.tracker.refresh(); // appeared
      await w.tracker.refresh(); // nothing changed: no event
      fake.setPorts(job.pid, [3000]);
      await w.tracker.refresh(); // ports changed
      fake.exit(job.pid);
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

  it('dispose() stops polling and writes active-processes.json and the session summary a last time', async () => {
    const quiet = { activeDelayMs: 60_000, activeMaxDelayMs: 60_000, sessionDelayMs: 60_000, sessionMaxDelayMs: 60_000 };
    const w = await openWindow(undefined, { persistence: quiet });
    const shell = openTerminal(w.tracker, 't');
    w.tracker.runStarted('t'); // polled every 100 ms until disposed
    const job = fake.spawn(shell.pid, 'sleep', 'sleep 100');
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
    const calls = fake.calls.length;
    rmSync(w.store.activePath);
    w.tracker.terminalOpened('u', fake.spawn(1, 'bash', 'bash').pid);
    w.tracker.runStarted('u');
    w.tracker.runEnded('t');
    assert.deepEqual(await w.tracker.terminalClosed('t'), NO_KILLS);
    fake.spawn(shell.pid, 'sleep', 'sleep 200');
    await new Promise((resolve) => setTimeout(resolve, 500)); // five poll intervals
    assert.equal(fake.calls.length, calls);
    assert.deepEqual(await w.store.readActive(), { entries: [], skipped: 0, corrupt: false });
  });
});
