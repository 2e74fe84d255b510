/** The ledger's pure parts: snapshot diffing, the startup plan, tree nesting, refusals, event shapes. */
import assert from 'node:assert/strict';
import { BridgeErrorCode, type ShepherdError } from '../../../extension/src/core/errors';
import { identityKey, parseLedgerEvent, type ActiveEntry } from '../../../extension/src/core/ledger/formats';
import { notOwnedError } from '../../../extension/src/core/ledger/killRefusal';
import { buildForest } from '../../../extension/src/core/ledger/processForest';
import { eventFor, recordFromInfo, type TrackedRecord } from '../../../extension/src/core/ledger/records';
import { diffSnapshot } from '../../../extension/src/core/ledger/snapshotDiff';
import { planStartup } from '../../../extension/src/core/ledger/startupPlan';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';

function info(pid: number, ppid: number, extra: Partial<ProcessInfo> = {}): ProcessInfo {
  return { pid, ppid, name: `p${pid}`, commandLine: `cmd ${pid}`, startTime: `${pid}@b`, startedAt: new Date(1000 * pid).toISOString(), ...extra };
}

function record(pid: number, ppid: number, status: TrackedRecord['status'] = 'running'): TrackedRecord {
  return { ...recordFromInfo(info(pid, ppid), 't', 1), status };
}

function entry(pid: number, startTime: string, owner: { pid: number; startTime: string }, sessionId = 'old'): ActiveEntry {
  return { pid, startTime, startedAt: '', name: 'n', commandLine: 'c', parentPid: 1, terminalName: 't', ports: [], status: 'running', sessionId, owner };
}

describe('ledger pure parts', () => {
  describe('diffSnapshot', () => {
    it('finds new processes by identity, changed ones, and never revives an ended one', () => {
      const known = new Map<string, TrackedRecord>([
        [identityKey(info(10, 1)), record(10, 1)],
        [identityKey(info(11, 10)), record(11, 10)],
        [identityKey(info(12, 10)), record(12, 10, 'completed')],
      ]);
      const snapshot = [
        info(10, 1),
        info(11, 10, { commandLine: 'exec-ed node server.js', name: 'node' }),
        info(12, 10),
        info(13, 11),
        info(10, 1, { startTime: 'other@b' }), // (impossible in one snapshot, but) a reused pid is a new process
      ];
      const diff = diffSnapshot(snapshot, (k) => known.get(k));
      assert.deepEqual(diff.added.map((p) => `${p.pid}/${p.startTime}`), ['13/13@b', '10/other@b']);
      assert.deepEqual(diff.changed.map((c) => c.info.commandLine), ['exec-ed node server.js']);
      assert.equal(diff.seen.size, 5);
    });
  });

  describe('planStartup', () => {
    const me = { pid: 500, startTime: '500@b' };
    const liveWindow = { pid: 600, startTime: '600@b' };
    const deadWindow = { pid: 700, startTime: '700@b' };
    const table = [info(500, 1), info(600, 1), info(20, 1), info(21, 1), info(22, 1, { startTime: 'new@b' })];

    it('adopts live processes of gone windows, closes gone or reused ones, leaves live windows alone', () => {
      const plan = planStartup(
        [
          entry(20, '20@b', deadWindow), // alive, same identity: orphan
          entry(21, '21@b', liveWindow, 'other'), // another live window's: not ours
          entry(22, '22@b', deadWindow), // pid now names another process: closed, never an orphan
          entry(23, '23@b', deadWindow), // gone: closed
          entry(20, '20@b', deadWindow), // duplicate line: decided once
          entry(21, '21@b', { pid: 600, startTime: 'older@b' }), // same pid as a live window, but not that window
        ],
        { table, sessionId: 'now', owner: me },
      );
      assert.deepEqual(plan.orphans.map((e) => e.pid), [20]);
      assert.deepEqual(plan.closed.map((c) => `${c.entry.pid}:${c.reason}`), ['22:pid_reused', '23:exited']);
      assert.deepEqual(plan.superseded.map((e) => e.pid), [20, 21], 'the duplicate, and the live window’s process');
      assert.equal(plan.foreign, 1);
    });

    it('treats an earlier session of this very extension host as gone', () => {
      const plan = planStartup([entry(20, '20@b', me, 'earlier')], { table, sessionId: 'now', owner: me });
      assert.deepEqual(plan.orphans.map((e) => e.pid), [20]);
    });
  });

  describe('buildForest', () => {
    it('nests descendants under their tracked parent; others are top-level', () => {
      const forest = buildForest([record(12, 11), record(10, 1), record(11, 10), record(20, 1), record(30, 999)]);
      assert.deepEqual(
        forest.map((n) => n.pid),
        [10, 20, 30],
      );
      assert.equal(forest[0]!.children?.[0]?.pid, 11);
      assert.equal(forest[0]!.children?.[0]?.children?.[0]?.pid, 12);
      assert.equal(forest[1]!.children, undefined, 'no empty children arrays');
    });

    it('survives a parent cycle from stale parent pids', () => {
      const forest = buildForest([record(1000, 1001), record(1001, 1000)]);
      const count = (nodes: typeof forest): number => nodes.reduce((n, p) => n + 1 + count(p.children ?? []), 0);
      assert.equal(count(forest), 2, 'every process listed once');
    });
  });

  describe('kill refusals', () => {
    const refuse = (pid: number, ctx: Parameters<typeof notOwnedError>[1]): ShepherdError => notOwnedError(pid, ctx);
    it('says what the pid is and what to do, with code ProcessNotOwned', () => {
      const init = refuse(1, { ownPid: 42 });
      assert.equal(init.code, BridgeErrorCode.ProcessNotOwned);
      assert.match(init.message, /^pid 1 is not a process Terminal Shepherd started.*list_processes shows/);
      assert.match(refuse(42, { ownPid: 42 }).message, /extension host.*never killed/);
      assert.match(refuse(77, { ownPid: 42, shellTerminal: 'dev' }).message, /shell of terminal "dev".*terminal_input \{name: "dev"/);
      assert.match(refuse(88, { ownPid: 42, ended: { commandLine: 'sleep 5', terminalName: 'dev', endedAt: 'T' } }).message, /already ended at T.*may now belong to another process/);
      assert.match(refuse(99, { ownPid: 42 }).message, /pid 99 is not a process Terminal Shepherd started in this window/);
    });
  });

  describe('events', () => {
    it('carry the identity always and the description when a process is found', () => {
      const r = record(10, 1);
      r.ports = [3000];
      const started = eventFor('started', r, 'sess', 'T');
      assert.deepEqual(started, {
        event: 'started',
        ts: 'T',
        sessionId: 'sess',
        pid: 10,
        startTime: '10@b',
        name: 'p10',
        terminal: 't',
        cmd: 'cmd 10',
        parentPid: 1,
        startedAt: r.startedAt,
        ports: [3000],
      });
      const killed = eventFor('killed', r, 'sess', 'T', { reason: 'kill_request' });
      assert.equal(killed.reason, 'kill_request');
      assert.equal(killed.cmd, undefined);
      assert.ok(parseLedgerEvent(JSON.parse(JSON.stringify(killed))));
    });
  });
});
