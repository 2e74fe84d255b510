/**
 * An MCP client's own processes over real /proc: a fake client (test/fixtures/fakeClient) with a
 * stand-in MCP server starts a sleep, a loopback server and a double-forked sleep; the window's
 * ClientProcesses and a real ProcessTracker record them as the client's, never the client, its MCP
 * server or an unrelated process; they become orphans when the client exits or its connection
 * ends, and kill_orphans ends them (checked in /proc). A dev server its shell tool started is the
 * same server for the dev-server check (DevServers.clientServer) by command and folder (the
 * folder from /proc/PID/cwd) and by port.
 */
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { TrackedProcess } from '../../common/src/protocol';
import { DevServers } from '../../extension/src/core/servers/devServers';
import { ClientProcesses } from '../../extension/src/core/service/clientProcesses';
import { freePort } from '../support/shepherdE2e';
import { procAlive, procStatFields } from '../support/procStat';
import { collectingLogger } from '../support/collectingLogger';
import { waitFor } from '../unit/processes/helpers';
import { flatten, makeTracker, realProcessSuite, type TrackerFixture } from '../unit/ledger/trackerSupport';

const FAKE_CLIENT = path.resolve(__dirname, '../fixtures/fakeClient/fakeClient.mjs');

interface FakeClient {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly serverPid: number;
  send(command: object): Promise<Record<string, number>>;
}

describe("an MCP client's own processes in the ledger (real processes)", function () {
  if (process.platform !== 'linux') return;
  this.timeout(30_000);
  const { monitor, janitor, dirs, fixtures } = realProcessSuite();
  let marker = 7000 + Math.floor(Math.random() * 1000);
  const strays: number[] = [];
  afterEach(() => {
    // The double-forked sleeps left the client's group only if a test failed before kill_orphans.
    for (const pid of strays.splice(0)) if (procAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  async function startClient(): Promise<FakeClient> {
    // Detached: its own process group, as a CLI started from an interactive shell.
    const child = janitor.spawn(process.execPath, [FAKE_CLIENT], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: Interface = createInterface({ input: child.stdout! });
    const next = (): Promise<Record<string, number>> => new Promise((resolve) => lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, number>)));
    const ready = await next();
    return { child, pid: child.pid!, serverPid: ready.serverPid!, send: (command) => (child.stdin!.write(`${JSON.stringify(command)}\n`), next()) };
  }

  function setup(enabled = true): { ledger: TrackerFixture; clients: ClientProcesses } {
    const ledger = makeTracker(monitor, dirs.make('client-processes'));
    fixtures.push(ledger);
    return { ledger, clients: new ClientProcesses({ ledger: ledger.tracker, monitor, enabled: () => enabled, logger: collectingLogger(), ownPid: process.pid }) };
  }

  /** The double-forked sleep: reparented away from the client, still in its process group. */
  function doubleForked(client: FakeClient, seconds: number): number {
    const pid = Number(execFileSync('pgrep', ['-g', String(client.pid), '-fx', `sleep ${seconds}`], { encoding: 'utf8' }).trim());
    strays.push(pid);
    return pid;
  }

  async function started(client: FakeClient): Promise<{ sleep: number; server: number; port: number; forked: number }> {
    marker += 2;
    const answer = await client.send({ op: 'spawn', marker });
    const forked = doubleForked(client, marker + 1);
    assert.notEqual(Number(procStatFields(forked)?.[1]), client.pid, 'the double-forked sleep left the client');
    return { sleep: answer.sleep!, server: answer.server!, port: answer.port!, forked };
  }

  const listed = (ledger: TrackerFixture, status: 'active' | 'orphaned'): TrackedProcess[] => flatten(ledger.tracker.list()[status]);

  it('records the sleep, the loopback server and the double-forked child as the client’s; never the client, its MCP server or a stranger', async () => {
    const { ledger, clients } = setup();
    await ledger.tracker.start();
    const stranger = janitor.spawn('sleep', ['3000'], { detached: true });
    const client = await startClient();
    const attach = await clients.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client', session: { id: 'session-a', from: 'env.CLAUDE_CODE_SESSION_ID' } }, 'connection-1');
    assert.deepEqual(attach, { watching: true });
    const own = await started(client);
    // Polled until the three are listed as the client's (a poll under load may come late), then checked in detail.
    const active = await waitFor('the client’s three processes', async () => {
      await ledger.tracker.refresh();
      const now = listed(ledger, 'active');
      return [own.sleep, own.server, own.forked].every((pid) => now.some((a) => a.pid === pid && a.clientTools)) ? now : undefined;
    }, 10_000).catch(() => listed(ledger, 'active'));
    for (const pid of [own.sleep, own.server, own.forked]) {
      const p = active.find((a) => a.pid === pid);
      assert.ok(p, `pid ${pid} listed: ${JSON.stringify(active.map((a) => a.commandLine))}`);
      assert.deepEqual(p.clientTools, { client: 'fake-client', pid: client.pid, command: 'node' }, JSON.stringify(p));
      assert.deepEqual(p.agentSession, { client: 'fake-client', id: 'session-a', from: 'env.CLAUDE_CODE_SESSION_ID' });
      assert.equal(p.terminalName, 'fake-client (own tools)');
    }
    assert.deepEqual(active.find((a) => a.pid === own.server)?.ports, [own.port]);
    for (const pid of [client.pid, client.serverPid, stranger.pid!, process.pid]) assert.equal(active.some((a) => a.pid === pid), false, `pid ${pid} not listed`);
    // The log says whose they are. Events are appended in the background: waited for (bounded) on a loaded machine.
    const startedLine = await waitFor('the sleep’s discovery in the log', async () => (await ledger.events()).find((e) => e.pid === own.sleep && (e.event === 'started' || e.event === 'spawned')), 10_000);
    assert.equal(startedLine.event, 'started', JSON.stringify(startedLine));
    assert.deepEqual(startedLine.clientTools, { client: 'fake-client', pid: client.pid, command: 'node' });
  });

  it('the client exits: its processes are orphans, kill_orphans ends them (checked in /proc), a stranger lives on', async () => {
    const { ledger, clients } = setup();
    await ledger.tracker.start();
    const stranger = janitor.spawn('sleep', ['3001'], { detached: true });
    const client = await startClient();
    await clients.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client' }, 'connection-1');
    const own = await started(client);
    await ledger.tracker.refresh();
    void client.send({ op: 'exit' });
    await waitFor('the client to exit', () => !procAlive(client.pid));
    await ledger.tracker.refresh();
    const orphans = listed(ledger, 'orphaned').map((p) => p.pid);
    for (const pid of [own.sleep, own.server, own.forked]) assert.ok(orphans.includes(pid), `pid ${pid} is an orphan: ${orphans.join(', ')}`);
    assert.equal(listed(ledger, 'active').length, 0);
    const result = await ledger.tracker.killOrphans();
    assert.deepEqual(result.failed, []);
    for (const pid of [own.sleep, own.server, own.forked]) {
      await waitFor(`pid ${pid} gone`, () => !procAlive(pid));
      assert.ok(result.killed.includes(pid));
    }
    assert.ok(procAlive(stranger.pid!), 'the stranger lives');
    assert.equal(result.killed.includes(client.serverPid), false, 'its MCP server was never a target');
  });

  it('the connection ends while the client lives: what its tools left is an orphan, the client is never one', async () => {
    const { ledger, clients } = setup();
    await ledger.tracker.start();
    const client = await startClient();
    await clients.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client' }, 'connection-7');
    const own = await started(client);
    await ledger.tracker.refresh();
    clients.detach('connection-7');
    await waitFor('the orphans', () => listed(ledger, 'orphaned').length >= 3);
    const orphans = listed(ledger, 'orphaned').map((p) => p.pid).sort((a, b) => a - b);
    assert.deepEqual(orphans, [own.sleep, own.server, own.forked].sort((a, b) => a - b));
    // Nothing new is recorded once the watch is over.
    await client.send({ op: 'spawn', marker: marker + 100 });
    strays.push(doubleForked(client, marker + 101));
    await ledger.tracker.refresh();
    assert.equal(listed(ledger, 'active').length, 0);
  });

  it('a window reload: the orphans it adopts from a client that lives and attaches again are that client’s running processes again', async () => {
    const dir = dirs.make('client-reload');
    const windowA = janitor.spawn('sleep', ['4400']);
    const ownerInfo = await waitFor('window A', async () => (await monitor.listAll()).find((p) => p.pid === windowA.pid));
    const a = makeTracker(monitor, dir, { owner: { pid: ownerInfo.pid, startTime: ownerInfo.startTime }, sessionId: 'windowA' });
    fixtures.push(a);
    await a.tracker.start();
    const clientsA = new ClientProcesses({ ledger: a.tracker, monitor, enabled: () => true, logger: collectingLogger(), ownPid: process.pid });
    const client = await startClient();
    await clientsA.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client' }, 'connection-1');
    const own = await started(client);
    await a.tracker.refresh();
    // The active file is rewritten within a second of a change; a loaded machine (the whole suite) may take longer.
    const ownPids = [own.sleep, own.server, own.forked];
    await waitFor('A’s entries on disk', async () => {
      const onDisk = (await a.store.readActive()).entries.map((e) => e.pid);
      return ownPids.every((pid) => onDisk.includes(pid));
    }, 15_000);
    await a.tracker.dispose();
    windowA.kill('SIGKILL');
    await waitFor('window A gone', async () => !(await monitor.isAlive(ownerInfo)));

    const b = makeTracker(monitor, dir, { sessionId: 'windowB' });
    fixtures.push(b);
    const startup = await b.tracker.start();
    assert.deepEqual(startup.orphans.map((p) => p.pid).sort((x, y) => x - y), [own.sleep, own.server, own.forked].sort((x, y) => x - y));
    assert.ok(startup.orphans.every((p) => p.clientTools?.pid === client.pid), 'the adopted orphans say whose they are');
    const clientsB = new ClientProcesses({ ledger: b.tracker, monitor, enabled: () => true, logger: collectingLogger(), ownPid: process.pid });
    await clientsB.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client' }, 'connection-1');
    await b.tracker.refresh();
    assert.deepEqual(listed(b, 'orphaned'), []);
    assert.deepEqual(listed(b, 'active').map((p) => p.pid).sort((x, y) => x - y), [own.sleep, own.server, own.forked].sort((x, y) => x - y));
    assert.deepEqual((await b.tracker.killOrphans()).killed, [], 'kill_orphans leaves a live client’s processes alone');
    // The client exits now: orphans again.
    void client.send({ op: 'exit' });
    await waitFor('the client to exit', () => !procAlive(client.pid));
    await b.tracker.refresh();
    assert.equal(listed(b, 'orphaned').length, 3);
  });

  it('is refused with a reason: the setting off, an editor process, a server path that does not lead to the client', async () => {
    const off = setup(false);
    const client = await startClient();
    assert.deepEqual(await off.clients.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'x' }, 'c'), {
      watching: false,
      reason: 'terminalShepherd.processes.trackClientProcesses is off',
    });
    const { clients } = setup();
    const editor = janitor.spawn('sh', ['-c', 'sleep 30; :', 'sh', '--type=extensionHost'], { detached: true });
    await waitFor('the editor stand-in', async () => (await monitor.listAll()).some((p) => p.pid === editor.pid));
    const refused = await clients.attach({ pid: editor.pid!, serverPath: [client.serverPid], client: 'x' }, 'c');
    assert.equal(refused.watching, false);
    assert.match(refused.reason ?? '', /an editor's/);
    assert.equal((await clients.attach({ pid: process.pid, serverPath: [client.serverPid], client: 'x' }, 'c')).watching, false, 'this process is the "window"');
    const misled = await clients.attach({ pid: client.pid, serverPath: [process.pid], client: 'x' }, 'c');
    assert.match(misled.reason ?? '', /is not a child of the client process/);
  });

  it('a dev server its shell tool started is found by the dev-server check: by command in its folder (from /proc), and by port', async () => {
    const { ledger, clients } = setup();
    await ledger.tracker.start();
    const client = await startClient();
    await clients.attach({ pid: client.pid, serverPath: [client.serverPid], client: 'fake-client', session: { id: 'session-d', from: 'env.CLAUDE_CODE_SESSION_ID' } }, 'connection-d');
    const folder = dirs.make('client-dev-server');
    const port = await freePort();
    const command = `node -e "require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')"`;
    const { pid } = await client.send({ op: 'shell', command, cwd: folder });
    strays.push(pid!);
    const servers = new DevServers({ ledger: ledger.tracker, monitor, logger: collectingLogger() });
    const found = await waitFor('the server found as the client’s', async () => {
      const server = await servers.clientServer(command, folder, true);
      return server?.server.ports.includes(port) ? server : undefined;
    }, 10_000);
    // Ground truth: the process the check names runs in that folder and is the client's child.
    assert.equal(execFileSync('readlink', [`/proc/${found.server.pid}/cwd`], { encoding: 'utf8' }).trim(), folder);
    assert.equal(Number(procStatFields(found.server.pid!)?.[1]), client.pid);
    assert.equal(found.server.pid, pid, 'bash -c execs the node server itself');
    assert.equal(found.owner, `fake-client's own tools (client pid ${client.pid}, node), fake-client session session-d`);
    assert.equal(await servers.clientServer(command, dirs.make('client-dev-elsewhere'), true), undefined, 'the same command in another folder is another server');
    assert.equal((await servers.clientServer(`python3 -m http.server ${port}`, '/', true))?.server.pid, pid, 'a command asking for its port');
    process.kill(pid!, 'SIGKILL');
  });
});
