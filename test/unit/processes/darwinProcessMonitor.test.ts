/**
 * The macOS monitor's plumbing (ps/lsof invocation, lookups, the shared kill) run for real HERE,
 * with Linux procps ps standing in for BSD ps: it accepts the same -o columns, locale and TZ.
 * This proves the wiring, not macOS's exact output, which darwinParsers.test.ts covers with
 * recorded text.
 */
import assert from 'node:assert/strict';
import { DarwinProcessMonitor } from '../../../extension/src/core/processes/darwinProcessMonitor';
import { createProcessMonitor } from '../../../extension/src/core/processes/index';
import { LinuxProcessMonitor } from '../../../extension/src/core/processes/linuxProcessMonitor';
import { toIdentity } from '../../../extension/src/core/processes/types';
import { WindowsProcessMonitor } from '../../../extension/src/core/processes/windowsProcessMonitor';
import { hasCommand, killOutcome, ProcessJanitor, waitFor } from './helpers';
import { describeWhere } from '../../support/skips';

const canRun = process.platform === 'linux' && hasCommand('ps');

describeWhere(canRun, 'needs Linux with procps ps to stand in for BSD ps')('DarwinProcessMonitor plumbing (procps ps standing in for BSD ps)', function () {
  this.timeout(20_000);
  const monitor = new DarwinProcessMonitor();
  const janitor = new ProcessJanitor();
  afterEach(() => janitor.cleanup());

  it('snapshots with one ps call and agrees with /proc on parents, groups and start times', async () => {
    const all = await monitor.listAll();
    const self = all.find((p) => p.pid === process.pid);
    assert.ok(self);
    assert.equal(self.ppid, process.ppid);
    assert.match(self.startTime, /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/);
    const fromProc = (await new LinuxProcessMonitor().listAll()).find((p) => p.pid === process.pid)!;
    assert.equal(self.pgid, fromProc.pgid);
    assert.ok(Math.abs(Date.parse(self.startedAt) - Date.parse(fromProc.startedAt)) <= 1000, 'lstart (UTC) matches btime + ticks');
    assert.equal(self.commandLine, fromProc.commandLine);
  });

  it('finds a tree, kills it through ps lookups and leaves the sibling alone', async () => {
    const root = janitor.spawn('bash', ['-c', 'sleep 7771 & bash -c "sleep 7772 & wait" & wait'], { detached: true });
    const sibling = janitor.spawn('sleep', ['7773'], { detached: true });
    const tree = await waitFor('tree', async () => {
      const d = await monitor.descendants(root.pid!);
      return d.some((p) => p.commandLine === 'sleep 7772') && d.length === 3 ? d : undefined;
    });
    tree.forEach((p) => janitor.track(p.pid));
    const all = await monitor.listAll();
    const rootInfo = all.find((p) => p.pid === root.pid)!;
    const siblingInfo = await waitFor('sibling', async () => (await monitor.listAll()).find((p) => p.pid === sibling.pid && p.commandLine === 'sleep 7773'));
    assert.equal(await monitor.isAlive(toIdentity(rootInfo)), true);
    assert.equal(await monitor.isAlive({ pid: rootInfo.pid, startTime: 'Mon Jan 1 00:00:00 2001' }), false);
    const result = await monitor.killTree(toIdentity(rootInfo));
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.killed, [rootInfo.pid, ...tree.map((p) => p.pid)].sort((a, b) => a - b));
    assert.equal(await monitor.isAlive(toIdentity(siblingInfo)), true);
  });

  it('reads listening ports with lsof', async function () {
    if (!hasCommand('lsof')) {
      console.warn('    !!! SKIPPING: lsof is not installed !!!');
      this.skip();
    }
    const server = janitor.spawn(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port)); setTimeout(()=>{},600000)"], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const port = await waitFor('port', () => {
      const text = server.stdout?.read()?.toString();
      return text ? Number(text.trim()) : undefined;
    });
    assert.deepEqual((await monitor.listeningPorts([server.pid!])).get(server.pid!), [port]);
  });

  it('probeShell without a controlling terminal is unknown; once the process exited, gone', async () => {
    const daemon = janitor.spawn('sleep', ['30'], { detached: true });
    await waitFor('sleep', async () => (await monitor.listAll()).some((p) => p.pid === daemon.pid && p.name === 'sleep'));
    assert.equal((await monitor.probeShell(daemon.pid!)).foreground, 'unknown');
    daemon.kill('SIGKILL');
    await waitFor('the exit reaped', () => (daemon.exitCode !== null || daemon.signalCode !== null ? true : undefined));
    assert.deepEqual(await monitor.probeShell(daemon.pid!), { foreground: 'gone', readingTerminal: false });
  });
});

describe('createProcessMonitor', () => {
  it('picks the implementation for the platform', () => {
    const linux = createProcessMonitor('linux');
    const darwin = createProcessMonitor('darwin');
    const win = createProcessMonitor('win32'); // PowerShell starts lazily: nothing is spawned here
    assert.ok(linux instanceof LinuxProcessMonitor);
    assert.ok(darwin instanceof DarwinProcessMonitor);
    assert.ok(win instanceof WindowsProcessMonitor);
    for (const m of [linux, darwin, win]) {
      m.dispose();
    }
  });

  it('an unsupported platform answers "unknown"/empty and never touches anything', async () => {
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (m: string | Error) => void warnings.push(String(m)), error() {} };
    const m = createProcessMonitor('aix', logger);
    assert.match(warnings[0] ?? '', /no process monitor for platform aix/);
    assert.deepEqual(await m.listAll(), []);
    assert.deepEqual(await m.probeShell(process.pid), { foreground: 'unknown', readingTerminal: 'unknown' });
    assert.deepEqual(killOutcome(await m.killTree({ pid: process.pid, startTime: 'x' })), { killed: [], failed: [] });
  });
});
