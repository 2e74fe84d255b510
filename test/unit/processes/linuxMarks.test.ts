/**
 * Finding the processes whose environment carries a terminal's mark: against a fixture /proc
 * (a terminal's shell, what it started, a stranger) and against the REAL /proc (processes spawned
 * here with and without the mark, a `setsid` one among them).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auxvPageSize, environValues } from '../../../extension/src/core/processes/linuxProcParsers';
import { LinuxProcessMonitor } from '../../../extension/src/core/processes/linuxProcessMonitor';
import { describeWhere } from '../../support/skips';
import { ProcessJanitor, waitFor } from './helpers';

const MARKS = ['TS_TEST_SESSION', 'TS_TEST_TERMINAL'];

describe('environ marks (parsers)', () => {
  it('finds a variable first, in the middle and last, and never a longer name that ends like it', () => {
    const env = 'TS_TEST_SESSION=s1\0PATH=/bin\0X_TS_TEST_TERMINAL=no\0TS_TEST_TERMINAL=my term=1\0';
    assert.deepEqual(environValues(env, MARKS), { TS_TEST_SESSION: 's1', TS_TEST_TERMINAL: 'my term=1' });
    assert.deepEqual(environValues('PATH=/bin\0TS_TEST_TERMINAL=last', MARKS), { TS_TEST_TERMINAL: 'last' });
    assert.equal(environValues('PATH=/bin\0XTS_TEST_SESSION=s\0', MARKS), undefined);
    assert.equal(environValues('', MARKS), undefined);
  });

  it('reads the page size from an aux vector and stops at its end', () => {
    const auxv = Buffer.alloc(64);
    auxv.writeBigUInt64LE(3n, 0); // AT_PHDR
    auxv.writeBigUInt64LE(0x400040n, 8);
    auxv.writeBigUInt64LE(6n, 16); // AT_PAGESZ
    auxv.writeBigUInt64LE(16384n, 24);
    assert.equal(auxvPageSize(auxv), 16384);
    assert.equal(auxvPageSize(Buffer.alloc(32)), undefined, 'AT_NULL first: no page size');
  });
});

describe('LinuxProcessMonitor.markedProcesses against a fixture /proc', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'ts-proc-'));
    writeFileSync(path.join(root, 'stat'), 'cpu 1 2 3\nbtime 1700000000\n');
    mkdirSync(path.join(root, 'sys/kernel/random'), { recursive: true });
    writeFileSync(path.join(root, 'sys/kernel/random/boot_id'), '11111111-2222-3333-4444-555555555555\n');
    // pid, ppid, pgrp, session, tty, environ, cmdline
    const procs: Array<[number, number, number, number, number, string, string]> = [
      [500, 400, 500, 500, 34816, 'TS_TEST_SESSION=s1\0TS_TEST_TERMINAL=build\0', 'bash\0-i\0'], // the terminal's shell
      [501, 1, 501, 500, 0, 'HOME=/h\0TS_TEST_SESSION=s1\0TS_TEST_TERMINAL=build\0', 'sleep\x007100\x00'], // nohup'd, reparented
      [502, 1, 502, 502, 0, 'TS_TEST_SESSION=s1\0', 'sleep\x007101\x00'], // setsid: own session, no terminal
      [600, 1, 600, 600, 0, 'HOME=/h\0', 'sleep\x009999\x00'], // a stranger
    ];
    for (const [pid, ppid, pgrp, session, tty, environ, cmdline] of procs) {
      const dir = path.join(root, String(pid));
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'environ'), environ);
      writeFileSync(path.join(dir, 'cmdline'), cmdline);
      const comm = cmdline.split('\0')[0];
      writeFileSync(path.join(dir, 'stat'), `${pid} (${comm}) S ${ppid} ${pgrp} ${session} ${tty} -1 0 0 0 0 0 7 3 0 0 20 0 1 0 ${1000 + pid} 0 250 0 1 2 3 4 5 0\n`);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('lists the marked processes with their values, says which is a terminal shell, and skips the unmarked', async () => {
    const monitor = new LinuxProcessMonitor({ procRoot: root });
    const found = await monitor.markedProcesses(MARKS);
    const byPid = new Map(found.map((m) => [m.info.pid, m]));
    assert.deepEqual([...byPid.keys()].sort(), [500, 501, 502]);
    assert.equal(byPid.get(500)!.terminalShell, true, 'session leader with a terminal');
    assert.equal(byPid.get(501)!.terminalShell, false);
    assert.equal(byPid.get(502)!.terminalShell, false, 'setsid: a session leader, but without a terminal');
    assert.deepEqual(byPid.get(501)!.marks, { TS_TEST_SESSION: 's1', TS_TEST_TERMINAL: 'build' });
    assert.equal(byPid.get(501)!.info.commandLine, 'sleep 7100');
    assert.equal(byPid.get(501)!.info.startTime, '1501@11111111-2222-3333-4444-555555555555');
  });

  it('reads CPU time and memory of identity-checked processes only', async () => {
    const monitor = new LinuxProcessMonitor({ procRoot: root });
    const boot = '11111111-2222-3333-4444-555555555555';
    const usage = await monitor.usage([
      { pid: 501, startTime: `1501@${boot}` },
      { pid: 502, startTime: `9999@${boot}` }, // reused pid: not that process any more
    ]);
    assert.equal(usage.length, 1);
    assert.equal(usage[0]!.cpuSeconds, 0.1, '(7 + 3) ticks at USER_HZ 100');
    assert.ok(usage[0]!.rssBytes >= 250 * 4096, 'resident pages times the page size');
    assert.equal(usage[0]!.waitingForTerminal, false);
  });
});

describeWhere(process.platform === 'linux', 'needs Linux /proc')('LinuxProcessMonitor marks and costs (real /proc)', function () {
  this.timeout(20_000);
  const monitor = new LinuxProcessMonitor();
  const janitor = new ProcessJanitor();
  afterEach(() => janitor.cleanup());
  after(() => monitor.dispose());

  it('finds this test\'s marked processes, a setsid one too, and no unmarked one', async () => {
    const session = `test-${process.pid}-${Date.now()}`;
    const env = { ...process.env, TS_TEST_SESSION: session, TS_TEST_TERMINAL: 'real' };
    const plain = janitor.spawn('sleep', ['7301']);
    const marked = janitor.spawn('sleep', ['7302'], { env });
    const detached = janitor.spawn('setsid', ['sleep', '7303'], { env, detached: true });
    const found = await waitFor('both marked sleeps', async () => {
      const all = (await monitor.markedProcesses(MARKS)).filter((m) => m.marks.TS_TEST_SESSION === session);
      return all.length >= 2 && all.some((m) => m.info.commandLine === 'sleep 7303') ? all : undefined;
    });
    found.forEach((m) => janitor.track(m.info.pid));
    assert.ok(found.some((m) => m.info.pid === marked.pid && m.marks.TS_TEST_TERMINAL === 'real'));
    assert.ok(!found.some((m) => m.info.pid === plain.pid), 'unmarked');
    assert.ok(found.every((m) => !m.terminalShell), 'none of them owns a terminal');
    assert.ok(detached.pid);
  });

  it('measures a busy process: CPU seconds grow by about the wall time, and it has resident memory', async () => {
    const yes = janitor.spawn('yes', []);
    const info = await waitFor('yes in /proc', async () => (await monitor.listAll()).find((p) => p.pid === yes.pid && p.name === 'yes'));
    // Over one second, retried: two cores are shared with other work, so one window may be starved.
    let share = 0;
    let second = (await monitor.usage([info]))[0]!;
    for (let attempt = 0; attempt < 5 && share <= 0.3; attempt++) {
      const first = second;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, 1000));
      second = (await monitor.usage([info]))[0]!;
      share = (second.cpuSeconds - first.cpuSeconds) / ((Date.now() - t0) / 1000);
    }
    assert.ok(share > 0.3, `yes used ${Math.round(share * 100)}% of a CPU`);
    assert.ok(second.rssBytes > 100 * 1024, `rss ${second.rssBytes}`);
  });

  it('says a stopped process waits for its terminal (a background job that read it gets SIGTTIN)', async () => {
    const sleeper = janitor.spawn('sleep', ['7304']);
    const info = await waitFor('sleep in /proc', async () => (await monitor.listAll()).find((p) => p.pid === sleeper.pid && p.name === 'sleep'));
    process.kill(sleeper.pid!, 'SIGSTOP');
    const stopped = await waitFor('stopped', async () => (await monitor.usage([info]))[0]?.waitingForTerminal === true);
    assert.equal(stopped, true);
  });
});
