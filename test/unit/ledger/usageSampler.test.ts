/**
 * CPU% from two looks: the CPU seconds between polls over the wall time between them; at the
 * first look, the average since the process started. And a terminal's tree summed.
 */
import assert from 'node:assert/strict';
import type { TrackedRecord } from '../../../extension/src/core/ledger/records';
import { treeUsage, UsageSampler } from '../../../extension/src/core/ledger/usageSampler';
import { identityKey } from '../../../extension/src/core/ledger/formats';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function record(pid: number, startedAt = T0): TrackedRecord {
  return { pid, startTime: `${pid}@b`, startedAt: new Date(startedAt).toISOString(), name: 'yes', commandLine: 'yes', parentPid: 1, terminalName: 't', status: 'running', ports: [] };
}

describe('UsageSampler', () => {
  it('first look: average since start; then the share between two polls; a reused pid is not measured', () => {
    const sampler = new UsageSampler();
    const busy = record(10);
    const idle = record(11);
    const live = new Set([busy, idle].map(identityKey));
    // 10 s after start: busy used 5 s of CPU (50% on average), idle none.
    sampler.sample([busy, idle], [{ pid: 10, startTime: '10@b', cpuSeconds: 5, rssBytes: 1_000_000, waitingForTerminal: false }, { pid: 11, startTime: '11@b', cpuSeconds: 0, rssBytes: 2048, waitingForTerminal: true }], T0 + 10_000, live);
    assert.equal(busy.usage!.cpuPercent, 50);
    assert.equal(idle.usage!.cpuPercent, 0);
    assert.equal(idle.usage!.waitingForTerminal, true);
    // One second later busy used 0.96 s more: 96%.
    sampler.sample([busy], [{ pid: 10, startTime: '10@b', cpuSeconds: 5.96, rssBytes: 1_200_000_000, waitingForTerminal: false }], T0 + 11_000, live);
    assert.ok(Math.abs(busy.usage!.cpuPercent - 96) < 1e-9);
    const stranger = record(12);
    sampler.sample([stranger], [{ pid: 12, startTime: '999@b', cpuSeconds: 1, rssBytes: 1, waitingForTerminal: false }], T0 + 12_000, live);
    assert.equal(stranger.usage, undefined, 'another process behind the same pid');
  });

  it('sums a tree: processes counted, CPU and memory added, any wait for the terminal said', () => {
    const a = { ...record(1), usage: { cpuPercent: 90, rssBytes: 1_000, waitingForTerminal: false } };
    const b = { ...record(2), usage: { cpuPercent: 6, rssBytes: 2_000, waitingForTerminal: true } };
    assert.deepEqual(treeUsage([a, b, record(3)]), { processes: 3, cpuPercent: 96, rssBytes: 3_000, waitingForTerminal: true });
    assert.equal(treeUsage([record(4)]), undefined);
  });
});
