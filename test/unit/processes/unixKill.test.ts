/**
 * The Unix kill algorithm against a simulated process table: the cases a real machine cannot
 * produce on demand (a pid reused between the snapshot and the signal, an unkillable process,
 * a fork during the grace period).
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../../common/src/logger';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { killTreeUnix, type UnixKillDeps } from '../../../extension/src/core/processes/unixKill';
import { killOutcome } from './helpers';

interface FakeProcess {
  info: ProcessInfo;
  alive: boolean;
  ignoresTerm?: boolean;
  unkillable?: boolean;
  onTerm?: () => void;
}

const OWN_PID = 1000;
const OWN_PGID = 1000;

class FakeWorld {
  readonly procs = new Map<number, FakeProcess>();
  readonly signals: string[] = [];
  clock = 0;
  afterFirstSnapshot: (() => void) | undefined;

  add(pid: number, ppid: number, pgid: number, extra: Partial<FakeProcess> = {}, start = `t${pid}`): FakeProcess {
    const p: FakeProcess = {
      info: { pid, ppid, pgid, name: `p${pid}`, commandLine: `p${pid}`, startTime: start, startedAt: new Date(1_700_000_000_000 + pid).toISOString() },
      alive: true,
      ...extra,
    };
    this.procs.set(pid, p);
    return p;
  }

  deps(): UnixKillDeps {
    return {
      snapshot: async () => {
        const table = [...this.procs.values()].filter((p) => p.alive).map((p) => p.info);
        const hook = this.afterFirstSnapshot;
        this.afterFirstSnapshot = undefined;
        hook?.();
        return table;
      },
      lookup: async (pids) => new Map(pids.map((pid) => [pid, this.procs.get(pid)]).filter(([, p]) => (p as FakeProcess | undefined)?.alive).map(([pid, p]) => [pid as number, (p as FakeProcess).info])),
      signal: (target, sig) => {
        this.signals.push(`${sig}:${target}`);
        const hit = target < 0 ? [...this.procs.values()].filter((p) => p.alive && p.info.pgid === -target) : [this.procs.get(target)].filter((p) => p?.alive);
        if (hit.length === 0) {
          return 'gone';
        }
        for (const p of hit as FakeProcess[]) {
          if (sig === 'SIGTERM' && !p.ignoresTerm) {
            p.alive = false;
          } else if (sig === 'SIGTERM') {
            p.onTerm?.();
          } else if (sig === 'SIGKILL' && !p.unkillable) {
            p.alive = false;
          }
        }
        return 'sent';
      },
      sleep: async (ms) => {
        this.clock += ms; // simulated time: the grace passes without waiting
      },
      now: () => this.clock,
      ownPid: OWN_PID,
      ownPgid: OWN_PGID,
      logger: silentLogger,
    };
  }

  id(pid: number) {
    const p = this.procs.get(pid)!;
    return { pid, startTime: p.info.startTime };
  }
}

describe('killTreeUnix (simulated processes)', () => {
  it('does nothing at all when the root’s start time differs', async () => {
    const w = new FakeWorld();
    w.add(10, 1, 10);
    const result = await killTreeUnix({ pid: 10, startTime: 'other' }, {}, w.deps());
    assert.deepEqual(killOutcome(result), { killed: [], failed: [] });
    assert.deepEqual(w.signals, []);
  });

  it('signals the groups the tree leads and every process, never the caller’s group', async () => {
    const w = new FakeWorld();
    w.add(OWN_PID, 1, OWN_PGID);
    w.add(10, OWN_PID, OWN_PGID); // root in the caller's group
    w.add(11, 10, 11); // leads its own group (a job)
    w.add(12, 11, 11);
    w.add(13, 1, 11); // escaped the tree (reparented) but kept the job's group
    w.add(20, 1, 20); // unrelated
    const result = await killTreeUnix(w.id(10), {}, w.deps());
    assert.deepEqual(killOutcome(result), { killed: [10, 11, 12, 13], failed: [] });
    assert.ok(w.signals.includes('SIGTERM:-11'), 'job group signalled');
    assert.ok(!w.signals.some((s) => s.endsWith(`:-${OWN_PGID}`)), 'own group never signalled');
    assert.ok(!w.signals.some((s) => s.endsWith(':20') || s.endsWith(':-20')));
    assert.equal(w.procs.get(OWN_PID)!.alive, true);
    assert.equal(w.procs.get(20)!.alive, true);
  });

  it('never signals a pid that was reused between the snapshot and the signal', async () => {
    const w = new FakeWorld();
    w.add(10, 1, 10);
    w.add(12, 10, 10);
    w.afterFirstSnapshot = () => {
      w.procs.get(12)!.alive = false; // the tree's 12 exits...
      w.add(12, 1, 50, {}, 'new-start'); // ...and an unrelated process gets pid 12 (other group)
    };
    // Make the group signal miss the newcomer: it is in group 50, not 10.
    const result = await killTreeUnix(w.id(10), {}, w.deps());
    assert.ok(!w.signals.includes('SIGTERM:12') && !w.signals.includes('SIGKILL:12'), `signals: ${w.signals.join(' ')}`);
    assert.equal(w.procs.get(12)!.alive, true, 'the newcomer survives');
    assert.deepEqual(killOutcome(result), { killed: [10, 12], failed: [] }, 'the original 12 is gone');
  });

  it('escalates to SIGKILL for survivors, including children they forked during the grace', async () => {
    const w = new FakeWorld();
    w.add(10, 1, 10);
    const stubborn = w.add(11, 10, 10, { ignoresTerm: true });
    stubborn.onTerm = () => {
      w.add(30, 11, 30, { ignoresTerm: true }); // forks a child in a new group while terminating
    };
    const result = await killTreeUnix(w.id(10), { graceMs: 200 }, w.deps());
    assert.ok(w.signals.includes('SIGKILL:11'));
    assert.ok(w.signals.includes('SIGKILL:30'), 'the late child is found and killed');
    assert.deepEqual(killOutcome(result), { killed: [10, 11, 30], failed: [] });
  });

  it('reports processes that survive SIGKILL as failed', async () => {
    const w = new FakeWorld();
    w.add(10, 1, 10);
    w.add(11, 10, 10, { ignoresTerm: true, unkillable: true }); // e.g. stuck in uninterruptible I/O
    const result = await killTreeUnix(w.id(10), { graceMs: 0 }, w.deps());
    assert.deepEqual(killOutcome(result), { killed: [10], failed: [11] });
  });

  it('spares the caller when it is inside the tree, and refuses pid 1 and itself as roots', async () => {
    const w = new FakeWorld();
    w.add(10, 1, 10);
    w.add(OWN_PID, 10, 10);
    w.add(1, 0, 1);
    const result = await killTreeUnix(w.id(10), {}, w.deps());
    assert.deepEqual(result.killed, [10]);
    assert.ok(!w.signals.includes(`SIGTERM:${OWN_PID}`));
    assert.deepEqual(killOutcome(await killTreeUnix(w.id(1), {}, w.deps())), { killed: [], failed: [] });
    assert.deepEqual(killOutcome(await killTreeUnix(w.id(OWN_PID), {}, w.deps())), { killed: [], failed: [] });
  });
});
