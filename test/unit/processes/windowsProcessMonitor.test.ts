/**
 * The Windows monitor over a fake PowerShell session that answers from recorded JSON and keeps a
 * mutable process table, so snapshots, caching, identity checks and kills can be followed.
 */
import assert from 'node:assert/strict';
import { parseCimDate, parseJsonRows } from '../../../extension/src/core/processes/windowsParsers';
import {
  LISTEN_PORTS_SCRIPT,
  LIST_PROCESSES_SCRIPT,
  WindowsProcessMonitor,
  queryProcessesScript,
} from '../../../extension/src/core/processes/windowsProcessMonitor';
import { fixture, killOutcome } from './helpers';

class FakeSession {
  rows = parseJsonRows(fixture('win32-processes-ps51.json'));
  readonly scripts: string[] = [];
  killed: number[] = [];
  /** Pids Stop-Process cannot end (access denied). */
  protectedPids = new Set<number>();

  async run(script: string): Promise<string> {
    this.scripts.push(script);
    if (script === LIST_PROCESSES_SCRIPT) {
      return JSON.stringify(this.rows);
    }
    if (script === LISTEN_PORTS_SCRIPT) {
      return fixture('win32-listen-ports.json');
    }
    const filter = /-Filter '([^']*)'/.exec(script);
    if (filter && script === queryProcessesScript(filter[1]!)) {
      const pids = [...filter[1]!.matchAll(/ProcessId = (\d+)/g)].map((m) => Number(m[1]));
      const parents = [...filter[1]!.matchAll(/ParentProcessId = (\d+)/g)].map((m) => Number(m[1]));
      const hits = this.rows.filter((r) => pids.includes(Number(r.ProcessId)) || parents.includes(Number(r.ParentProcessId)));
      return hits.length === 1 ? JSON.stringify(hits[0]) : JSON.stringify(hits); // one object when one matched
    }
    const data = /FromBase64String\('([^']+)'\)\) \| ConvertFrom-Json/.exec(script);
    if (data) {
      const targets = JSON.parse(Buffer.from(data[1]!, 'base64').toString('utf8')) as Array<{ pid: number; start: string }>;
      const out = targets.map((t) => {
        const row = this.rows.find((r) => r.ProcessId === t.pid);
        const start = row ? parseCimDate(row.CreationDate)?.key : undefined; // what ToString('o') gives
        if (!row || start !== t.start) {
          return { Pid: t.pid, Result: 'changed' };
        }
        if (this.protectedPids.has(t.pid)) {
          return { Pid: t.pid, Result: 'failed', Error: 'Access is denied' };
        }
        this.killed.push(t.pid);
        this.rows = this.rows.filter((r) => r !== row);
        return { Pid: t.pid, Result: 'killed' };
      });
      return JSON.stringify(out);
    }
    throw new Error(`unexpected script: ${script.slice(0, 80)}`);
  }

  dispose(): void {}
}

describe('WindowsProcessMonitor (fake PowerShell session)', () => {
  it('takes one CIM snapshot, caches it briefly and builds trees in TypeScript', async () => {
    const session = new FakeSession();
    const monitor = new WindowsProcessMonitor({ session });
    const all = await monitor.listAll();
    assert.equal(all.length, 8);
    await monitor.listAll();
    assert.deepEqual(
      (await monitor.descendants(7000)).map((p) => p.pid),
      [7010, 7100, 7200],
    );
    assert.equal(session.scripts.filter((s) => s === LIST_PROCESSES_SCRIPT).length, 1, 'served from the cache');
    const uncached = new WindowsProcessMonitor({ session, cacheMs: 0 });
    await uncached.listAll();
    await uncached.listAll();
    assert.equal(session.scripts.filter((s) => s === LIST_PROCESSES_SCRIPT).length, 3);
  });

  it('isAlive queries fresh and compares the creation time', async () => {
    const session = new FakeSession();
    const monitor = new WindowsProcessMonitor({ session });
    const node = (await monitor.listAll()).find((p) => p.pid === 7100)!;
    assert.equal(await monitor.isAlive(node), true);
    assert.equal(await monitor.isAlive({ pid: 7100, startTime: '2025-11-16T08:17:40.4570000Z' }), false);
    assert.equal(await monitor.isAlive({ pid: 0, startTime: '' }), false);
  });

  it('killTree verifies the identity, kills the whole tree top-down and reports what is gone', async () => {
    const session = new FakeSession();
    const monitor = new WindowsProcessMonitor({ session });
    const shell = (await monitor.listAll()).find((p) => p.pid === 7000)!;
    const result = await monitor.killTree(shell);
    assert.deepEqual(session.killed, [7000, 7010, 7100, 7200], 'root first');
    assert.deepEqual(killOutcome(result), { killed: [7000, 7010, 7100, 7200], failed: [] });
    assert.deepEqual(
      (await monitor.listAll()).map((p) => p.pid).sort((a, b) => a - b),
      [0, 4, 6120, 8000],
      'the cache was invalidated and nothing else was touched',
    );
  });

  it('killTree does nothing when the creation time does not match, and reports processes it could not end', async () => {
    const session = new FakeSession();
    const monitor = new WindowsProcessMonitor({ session });
    assert.deepEqual(killOutcome(await monitor.killTree({ pid: 7000, startTime: '2020-01-01T00:00:00.0000000Z' })), { killed: [], failed: [] });
    assert.deepEqual(session.killed, []);
    session.protectedPids.add(7200);
    const node = (await monitor.listAll()).find((p) => p.pid === 7100)!;
    assert.deepEqual(killOutcome(await monitor.killTree(node)), { killed: [7100], failed: [7200] });
  });

  it('listeningPorts keeps only the requested pids', async () => {
    const monitor = new WindowsProcessMonitor({ session: new FakeSession() });
    assert.deepEqual([...(await monitor.listeningPorts([7100, 7200, 4]))], [
      [7100, [3000, 9229]],
      [7200, [5173]],
    ]);
  });

  it('probeShell: a child other than conhost is a job, a single-object answer included', async () => {
    const session = new FakeSession();
    const monitor = new WindowsProcessMonitor({ session });
    const busy = await monitor.probeShell(7000);
    assert.equal(busy.foreground, 'job');
    assert.deepEqual(busy.foregroundPids, [7100]);
    session.rows = session.rows.filter((r) => r.ProcessId !== 7100 && r.ProcessId !== 7010); // the shell alone: one object
    assert.deepEqual(await monitor.probeShell(7000), { foreground: 'shell', readingTerminal: 'unknown', foregroundPids: [7000] });
    assert.deepEqual(await monitor.probeShell(424242), { foreground: 'gone', readingTerminal: false });
  });

  it('probeShell: PowerShell failing is no answer (unknown), never "gone"', async () => {
    const session = new FakeSession();
    session.run = async () => {
      throw new Error('PowerShell exited');
    };
    const monitor = new WindowsProcessMonitor({ session });
    assert.deepEqual(await monitor.probeShell(7000), { foreground: 'unknown', readingTerminal: 'unknown' });
  });
});
