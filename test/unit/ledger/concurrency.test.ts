/**
 * Two windows on one workspace: real separate processes (and, cheaper, independent store
 * instances in this process) append to the log and update the active file at the same time.
 * Every line must parse and no writer may lose an entry.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ActiveEntry } from '../../../extension/src/core/ledger/formats';
import { LedgerStore } from '../../../extension/src/core/ledger/ledgerStore';
import { TempDirs } from '../../support/tempDirs';
import { sampleEvent } from './storeSupport';

const WORKER = path.join(__dirname, 'fixtures', 'storeWorker.ts');

function runWorker(dir: string, writer: string, rounds: number, startAt: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dir, writer, String(rounds), String(startAt)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      code === 0 ? resolve() : reject(new Error(`worker ${writer} exited with ${code}: ${stderr}`));
    });
  });
}

function assertComplete(pidsBySession: Map<string, number[]>, writer: string, rounds: number, what: string): void {
  const pids = (pidsBySession.get(writer) ?? []).sort((a, b) => a - b);
  assert.deepEqual(pids, Array.from({ length: rounds }, (_, i) => i + 1), `${what} of ${writer}: every pid exactly once`);
}

function group(items: ReadonlyArray<{ sessionId: string; pid: number }>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const item of items) {
    out.set(item.sessionId, [...(out.get(item.sessionId) ?? []), item.pid]);
  }
  return out;
}

describe('ledger store under concurrent writers', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  it('two processes: every log line parses and neither loses an active entry', async () => {
    const dir = dirs.make();
    const rounds = 150;
    const startAt = Date.now() + 2500; // both have loaded tsx by then, so they really overlap
    await Promise.all([runWorker(dir, 'winA', rounds, startAt), runWorker(dir, 'winB', rounds, startAt)]);

    const store = new LedgerStore({ dir });
    const log = await store.readEvents();
    assert.equal(log.skipped, 0, 'no torn or interleaved line');
    const events = group(log.items);
    assertComplete(events, 'winA', rounds, 'log');
    assertComplete(events, 'winB', rounds, 'log');

    const active = await store.readActive();
    assert.equal(active.corrupt, false);
    const entries = group(active.entries);
    assertComplete(entries, 'winA', rounds, 'active file');
    assertComplete(entries, 'winB', rounds, 'active file');
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')), [], 'no temp or lock file left');
  });

  it('three store instances in one process, many interleaved appends and updates', async () => {
    const dir = dirs.make();
    const rounds = 60;
    const writers = ['x', 'y', 'z'];
    await Promise.all(
      writers.map(async (writer) => {
        const store = new LedgerStore({ dir, lock: { timeoutMs: 20_000 } });
        await store.init();
        const mine: ActiveEntry[] = [];
        for (let i = 1; i <= rounds; i++) {
          const appended = store.append([sampleEvent(i, writer)]);
          mine.push({
            pid: i,
            startTime: `${i}00@boot`,
            startedAt: '',
            name: 'n',
            commandLine: 'c',
            parentPid: 1,
            terminalName: writer,
            ports: [],
            status: 'running',
            sessionId: writer,
            owner: { pid: process.pid, startTime: writer },
          });
          const snapshot = [...mine];
          await Promise.all([appended, store.updateActive((current) => ({ entries: [...current.filter((e) => e.sessionId !== writer), ...snapshot], result: undefined }))]);
        }
      }),
    );
    const store = new LedgerStore({ dir });
    const log = await store.readEvents();
    assert.equal(log.skipped, 0);
    const active = group((await store.readActive()).entries);
    const events = group(log.items);
    for (const writer of writers) {
      assertComplete(events, writer, rounds, 'log');
      assertComplete(active, writer, rounds, 'active file');
    }
  });
});
