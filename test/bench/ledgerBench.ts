/**
 * Benchmark of the process ledger on Linux, with 50 real tracked processes under one bash
 * (30 in three-level trees, 20 direct children) and a temp data dir:
 *
 *   npx tsx test/bench/ledgerBench.ts
 *
 * Measures p50/p95 of: summary() as every tool response calls it (cached) and recomputed after a
 * change, list() (the trees), one poll cycle of the terminal at the fast cadence (descendants,
 * shell identity check, diff) and its parts, refresh() (adds identity checks and listening
 * ports), the write the debounce ends in (active-processes.json read-modify-write under the lock
 * with 50 entries), and one log append.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/src/logger';
import { defaultLedgerSettings } from '../../extension/src/core/ledger/api';
import { LedgerStore } from '../../extension/src/core/ledger/ledgerStore';
import { ProcessTracker } from '../../extension/src/core/ledger/processTracker';
import { identityKey } from '../../extension/src/core/ledger/formats';
import { recordFromInfo } from '../../extension/src/core/ledger/records';
import { diffSnapshot } from '../../extension/src/core/ledger/snapshotDiff';
import { createProcessMonitor } from '../../extension/src/core/processes';
import { measure as measureStats, type Stats } from './stats';

export interface LedgerBenchResult {
  readonly tracked: number;
  readonly summaryCached: Stats;
  readonly summaryRecomputed: Stats;
  readonly list: Stats;
  /** A poll at the fast cadence: descendants + shell identity check + diff. */
  readonly pollCycle: Stats;
  /** refresh(): the poll plus identity checks of missing processes and listening ports. */
  readonly refresh: Stats;
  readonly descendants: Stats;
  readonly diff: Stats;
  readonly listeningPorts: Stats;
  readonly activeFileWrite: Stats;
  readonly logAppend: Stats;
}

const TRACKED = 50;

const measure = (runs: number, fn: () => unknown): Promise<Stats> => measureStats(runs, fn, Math.min(20, runs));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function runLedgerBench(runs = 200): Promise<LedgerBenchResult> {
  if (process.platform !== 'linux') {
    throw new Error('the ledger bench uses the Linux monitor (/proc)');
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-bench-'));
  const monitor = createProcessMonitor('linux');
  const store = new LedgerStore({ dir });
  const tracker = new ProcessTracker({
    monitor,
    store,
    logger: silentLogger,
    settings: () => ({ ...defaultLedgerSettings, pollIntervalMs: 60_000, idlePollIntervalMs: 60_000 }),
  });
  const trees = 10;
  const script = `for i in $(seq ${trees}); do bash -c "sleep 600 & sleep 600 & wait" & done; for i in $(seq ${TRACKED - trees * 3}); do sleep 600 & done; wait`;
  const shell = spawn('bash', ['-c', script], { stdio: 'ignore', detached: true });
  try {
    await tracker.start();
    tracker.terminalOpened('bench', shell.pid);
    await until(async () => (await monitor.descendants(shell.pid!)).length === TRACKED, 10_000, `${TRACKED} processes`);
    await tracker.refresh();
    const tracked = tracker.summary().running.length;

    const summaryCached = await measure(runs * 10, () => tracker.summary());
    const cache = tracker as unknown as { summaryCache: unknown }; // bench only: force the recompute a change causes
    const summaryRecomputed = await measure(runs * 10, () => {
      cache.summaryCache = undefined;
      return tracker.summary();
    });
    const list = await measure(runs, () => tracker.list());
    // One fast-cadence poll of a terminal, as pollTree does it: walk, shell identity re-check, diff.
    const shellInfo = (await monitor.listAll()).find((p) => p.pid === shell.pid)!;
    const snapshot = await monitor.descendants(shell.pid!);
    const known = new Map(snapshot.map((p) => [identityKey(p), recordFromInfo(p, 'bench', 1)]));
    const pollCycle = await measure(runs, async () => {
      const found = await monitor.descendants(shell.pid!);
      await monitor.isAlive(shellInfo);
      return diffSnapshot(found, (key) => known.get(key));
    });
    const refresh = await measure(runs, () => tracker.refresh());
    const descendants = await measure(runs, () => monitor.descendants(shell.pid!));
    const diff = await measure(runs * 10, () => diffSnapshot(snapshot, (key) => known.get(key)));
    const pids = snapshot.map((p) => p.pid);
    const listeningPorts = await measure(runs, () => monitor.listeningPorts(pids));
    const entries = (await store.readActive()).entries;
    const activeFileWrite = await measure(runs, () =>
      store.updateActive((current) => ({ entries: [...current.filter((e) => e.sessionId !== 'bench'), ...entries.map((e) => ({ ...e, sessionId: 'bench', ports: [Math.floor(Math.random() * 60000) + 1] }))], result: undefined })),
    );
    const event = { event: 'ports' as const, ts: new Date().toISOString(), sessionId: 'bench', pid: 1234, startTime: '1@b', name: 'node', terminal: 'bench', ports: [3000] };
    const logAppend = await measure(runs, () => store.append([event]));
    return { tracked, summaryCached, summaryRecomputed, list, pollCycle, refresh, descendants, diff, listeningPorts, activeFileWrite, logAppend };
  } finally {
    try {
      process.kill(-shell.pid!, 'SIGKILL'); // the shell's group: every sleep it started
    } catch {
      // gone
    }
    await tracker.dispose();
    monitor.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (/ledgerBench\.[cm]?[tj]s$/.test(process.argv[1] ?? '')) {
  runLedgerBench().then(
    (r) => {
      const line = (label: string, s: Stats): string =>
        `${label.padEnd(46)} p50 ${s.p50.toFixed(4).padStart(9)} ms   p95 ${s.p95.toFixed(4).padStart(9)} ms   (${s.runs} runs)`;
      console.log(`tracked processes: ${r.tracked}`);
      console.log(line('summary() (cached, per tool response)', r.summaryCached));
      console.log(line('summary() recomputed after a change', r.summaryRecomputed));
      console.log(line('list() (trees)', r.list));
      console.log(line('poll cycle (descendants + identity + diff)', r.pollCycle));
      console.log(line('  descendants(shell)', r.descendants));
      console.log(line('  diffSnapshot (50 known)', r.diff));
      console.log(line('refresh() (poll + liveness + ports)', r.refresh));
      console.log(line('  listeningPorts (50 pids)', r.listeningPorts));
      console.log(line('active-processes.json write (lock+read+rename)', r.activeFileWrite));
      console.log(line('log append (one event)', r.logAppend));
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
