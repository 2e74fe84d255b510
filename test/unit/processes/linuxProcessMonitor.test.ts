/**
 * The Linux monitor against the REAL /proc of this machine: real process trees, a real listening
 * socket, real signals. Every test registers what it spawns with the janitor (after hook).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { LinuxProcessMonitor } from '../../../extension/src/core/processes/linuxProcessMonitor';
import { buildTree } from '../../../extension/src/core/processes/processTree';
import { toIdentity, type ProcessIdentity, type ProcessInfo } from '../../../extension/src/core/processes/types';
import { killOutcome, ProcessJanitor, waitFor } from './helpers';
import { describeWhere } from '../../support/skips';

const onLinux = process.platform === 'linux';

describeWhere(onLinux, 'needs Linux /proc')('LinuxProcessMonitor (real /proc)', function () {
  this.timeout(20_000);
  const monitor = new LinuxProcessMonitor();
  const janitor = new ProcessJanitor();

  afterEach(() => janitor.cleanup());
  after(() => monitor.dispose());

  /** A tree of three generations: bash -> (sleep A, bash -> sleep B). */
  async function spawnTree(tag: number, options: { detached?: boolean; extra?: string } = {}): Promise<{ root: ChildProcess; tree: ProcessInfo[] }> {
    const script = `${options.extra ?? ''}sleep ${tag}1 & bash -c "sleep ${tag}2 & wait" & wait`;
    const root = janitor.spawn('bash', ['-c', script], { detached: options.detached ?? false });
    const tree = await waitFor('the tree to be complete', async () => {
      const d = await monitor.descendants(root.pid!);
      return d.length >= 3 && d.some((p) => p.commandLine === `sleep ${tag}2`) ? d : undefined;
    });
    tree.forEach((p) => janitor.track(p.pid));
    return { root, tree };
  }

  it('lists this process with its real parent, name, command line and a stable start time', async () => {
    const all = await monitor.listAll();
    assert.ok(all.length > 10);
    const self = all.find((p) => p.pid === process.pid);
    assert.ok(self, 'own pid in the snapshot');
    assert.equal(self.ppid, process.ppid);
    assert.equal(self.name, 'node');
    assert.match(self.commandLine, /mocha|node/);
    assert.match(self.startTime, /^\d+@[0-9a-f-]{36}$/, 'ticks@boot-id');
    const started = Date.parse(self.startedAt);
    assert.ok(started <= Date.now() && started > Date.now() - 3_600_000 * 24, `startedAt ${self.startedAt} is plausible`);
    const again = (await monitor.listAll()).find((p) => p.pid === process.pid);
    assert.deepEqual(again, self, 'a second snapshot (cached command lines) says the same');
  });

  it('finds a three-generation tree in full, by fast walk and from a snapshot table', async () => {
    const { root, tree } = await spawnTree(911);
    const byCmd = new Map(tree.map((p) => [p.commandLine, p]));
    const sleepA = byCmd.get('sleep 9111');
    const middle = byCmd.get('bash -c sleep 9112 & wait');
    const sleepB = byCmd.get('sleep 9112');
    assert.ok(sleepA && middle && sleepB, `tree: ${JSON.stringify(tree.map((p) => p.commandLine))}`);
    assert.equal(tree.length, 3);
    assert.equal(sleepA.ppid, root.pid);
    assert.equal(middle.ppid, root.pid);
    assert.equal(sleepB.ppid, middle.pid, 'grandchild under the middle bash');
    assert.equal(sleepA.name, 'sleep');
    assert.equal(middle.name, 'bash');
    assert.equal(sleepB.name, 'sleep');

    const table = await monitor.listAll();
    const fromTable = await monitor.descendants(root.pid!, table);
    assert.deepEqual(fromTable.map((p) => p.pid).sort(), tree.map((p) => p.pid).sort());

    const node = buildTree(table, root.pid!);
    assert.equal(node?.children.length, 2);
    const mid = node?.children.find((c) => c.info.pid === middle.pid);
    assert.deepEqual(mid?.children.map((c) => c.info.pid), [sleepB.pid]);
  });

  it('reports the TCP port a real child process listens on, and nothing for others', async () => {
    const server = janitor.spawn(
      process.execPath,
      ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port)); setTimeout(()=>{},600000)"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const port = await waitFor('the server port', () => {
      const text = server.stdout?.read()?.toString();
      return text ? Number(text.trim()) : undefined;
    });
    const sleeper = janitor.spawn('sleep', ['600']);
    await waitFor('sleep to exec', async () => (await monitor.listAll()).find((p) => p.pid === sleeper.pid && p.name === 'sleep'));
    const ports = await monitor.listeningPorts([server.pid!, sleeper.pid!]);
    assert.deepEqual(ports.get(server.pid!), [port]);
    assert.equal(ports.has(sleeper.pid!), false);
  });

  it('isAlive: true for the same pid and start time, false for another start time or a dead process', async () => {
    const child = janitor.spawn('sleep', ['600']);
    const info = await waitFor('sleep in /proc', async () => (await monitor.listAll()).find((p) => p.pid === child.pid));
    assert.equal(await monitor.isAlive(toIdentity(info)), true);
    const [ticks, boot] = info.startTime.split('@');
    assert.equal(await monitor.isAlive({ pid: info.pid, startTime: `${Number(ticks) + 1}@${boot}` }), false, 'other start time');
    assert.equal(await monitor.isAlive({ pid: info.pid, startTime: `${ticks}@another-boot` }), false, 'other boot');
    child.kill('SIGKILL');
    await waitFor('the exit', () => child.exitCode !== null || child.signalCode !== null);
    assert.equal(await monitor.isAlive(toIdentity(info)), false);
  });

  it('killTree kills all three generations and a member that escaped by reparenting, and nothing else', async () => {
    // `(sleep N &)` double-forks: the sleep is reparented away from the tree but keeps its group.
    const { root, tree } = await spawnTree(922, { detached: true, extra: '(exec -a escaped-9229 sleep 600 &); ' });
    const escaped = await waitFor('the escaped sleep', async () => (await monitor.listAll()).find((p) => p.commandLine === 'escaped-9229 600'));
    janitor.track(escaped.pid);
    assert.notEqual(escaped.ppid, root.pid);
    assert.equal(escaped.pgid, root.pid, 'still in the tree’s group');
    const sibling = janitor.spawn('sleep', ['601'], { detached: true });
    const siblingInfo = await waitFor('sibling', async () => (await monitor.listAll()).find((p) => p.pid === sibling.pid && p.name === 'sleep'));
    const rootInfo = (await monitor.listAll()).find((p) => p.pid === root.pid)!;

    const result = await monitor.killTree(toIdentity(rootInfo));

    const everyone: ProcessIdentity[] = [rootInfo, ...tree, escaped].map(toIdentity);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.killed, everyone.map((p) => p.pid).sort((a, b) => a - b));
    for (const id of everyone) {
      assert.equal(await monitor.isAlive(id), false, `pid ${id.pid} is dead`);
    }
    assert.equal(await monitor.isAlive(toIdentity(siblingInfo)), true, 'the sibling outside the tree survives');
  });

  it('killTree works on a tree inside the caller’s own process group without signalling that group', async () => {
    const { root, tree } = await spawnTree(933, { detached: false });
    const rootInfo = (await monitor.listAll()).find((p) => p.pid === root.pid)!;
    assert.equal(rootInfo.pgid, (await monitor.listAll()).find((p) => p.pid === process.pid)!.pgid, 'same group as the test');
    const result = await monitor.killTree(toIdentity(rootInfo));
    assert.deepEqual(result.failed, []);
    for (const id of [rootInfo, ...tree]) {
      assert.equal(await monitor.isAlive(toIdentity(id)), false, `pid ${id.pid} is dead`);
    }
    // Still here: our own group was not signalled.
  });

  it('killTree escalates to SIGKILL after the grace when SIGTERM is ignored', async () => {
    // An ignored signal stays ignored across fork and exec: both bash and its sleep ignore SIGTERM.
    const root = janitor.spawn('bash', ['-c', 'trap "" TERM; sleep 9441 & wait; wait'], { detached: true });
    const tree = await waitFor('tree', async () => {
      const d = await monitor.descendants(root.pid!);
      return d.some((p) => p.commandLine === 'sleep 9441') ? d : undefined;
    });
    tree.forEach((p) => janitor.track(p.pid));
    const rootInfo = (await monitor.listAll()).find((p) => p.pid === root.pid)!;
    const started = Date.now();
    const result = await monitor.killTree(toIdentity(rootInfo), { graceMs: 300 });
    assert.ok(Date.now() - started >= 300, 'waited the grace before SIGKILL');
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.killed, [root.pid!, ...tree.map((p) => p.pid)].sort((a, b) => a - b));
    assert.equal(await monitor.isAlive(toIdentity(tree[0]!)), false);
  });

  it('killTree does nothing for an identity whose start time does not match', async () => {
    const { root, tree } = await spawnTree(955, { detached: true });
    const rootInfo = (await monitor.listAll()).find((p) => p.pid === root.pid)!;
    const result = await monitor.killTree({ pid: root.pid!, startTime: `1@${rootInfo.startTime.split('@')[1]}` });
    assert.deepEqual(killOutcome(result), { killed: [], failed: [] });
    await new Promise((r) => setTimeout(r, 100));
    for (const p of [rootInfo, ...tree]) {
      assert.equal(await monitor.isAlive(toIdentity(p)), true, `pid ${p.pid} untouched`);
    }
  });

  it('descendants of a pid that does not exist is empty, and vanished processes are skipped', async () => {
    assert.deepEqual(await monitor.descendants(2 ** 22 + 12345), []);
    assert.equal(await monitor.isAlive({ pid: 2 ** 22 + 12345, startTime: '1@x' }), false);
    // Many short-lived processes exiting during snapshots must not throw.
    const churn = janitor.spawn('bash', ['-c', 'for i in $(seq 200); do /bin/true & done; wait']);
    for (let i = 0; i < 5; i++) {
      assert.ok((await monitor.listAll()).length > 0);
    }
    await waitFor('churn to end', () => churn.exitCode !== null);
  });
});
