/**
 * A run that turns into a watcher: once its output goes quiet after a known banner, a cycle
 * completes (once), waits on the run end with `watching`, and the next burst of output starts the
 * next cycle. Driven with output recorded from vitest 4 (test/fixtures/watchers/).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../../common/src/logger';
import { Emitter } from '../../../extension/src/core/events';
import type { RunOutput } from '../../../extension/src/core/output/runOutput';
import { CommandRun, type RunConfig } from '../../../extension/src/core/run/commandRun';
import { WatchCycles } from '../../../extension/src/core/run/watchCycles';

const recorded = (name: string): string => readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', 'watchers', name), 'utf8');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Rendered text straight through: what the watcher reads is the tail. */
class LinesOutput implements RunOutput {
  text = '';
  flushes = 0;
  private readonly writes = new Emitter<void>();
  readonly onDidWrite = this.writes.event;
  write(chunk: string): boolean {
    this.text += chunk;
    this.writes.fire();
    return true;
  }
  flush(): Promise<void> {
    this.flushes++;
    return Promise.resolve();
  }
  snapshot() {
    return { output: this.text.trimEnd(), truncated: false };
  }
  lastLines(count: number): string[] {
    return this.text.split('\n').slice(-count);
  }
  get totalChars(): number {
    return this.text.length;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const config: RunConfig = {
  completion: { graceMs: 3000, settleMs: 5, probeIntervalMs: 20 },
  input: { strongSilenceMs: 5000, readingSilenceMs: 5000, emptyReadingSilenceMs: 5000, shellReadingSilenceMs: 5000, weakSilenceMs: 5000, replSilenceMs: 5000 },
  drainTimeoutMs: 200,
};

describe('watch cycles', () => {
  it('a cycle completes once per burst of output that ends with a banner; quiet output without one is no cycle', async () => {
    const output = new LinesOutput();
    const cycles = new WatchCycles('npx vitest', output, () => performance.now(), (e) => assert.fail(String(e)), 20);
    const seen: number[] = [];
    cycles.onDidComplete((c) => seen.push(c.cycle));
    try {
      output.write('compiling...\n');
      cycles.activity();
      await sleep(60);
      assert.equal(cycles.cycles, 0, 'quiet, but no banner yet');
      output.write(recorded('vitest-4-fail.txt'));
      cycles.activity();
      await sleep(60);
      assert.deepEqual(seen, [1]);
      assert.equal(cycles.idle, true);
      assert.deepEqual([cycles.latest?.passed, cycles.latest?.failed], [3, 1]);
      await sleep(60);
      assert.deepEqual(seen, [1], 'no second cycle without new output');
      output.write(recorded('vitest-4-rerun.txt'));
      cycles.activity();
      assert.equal(cycles.idle, false, 'output after a cycle starts the next one');
      await sleep(60);
      assert.deepEqual(seen, [1, 2]);
      assert.deepEqual([cycles.latest?.passed, cycles.latest?.failed], [1, 1]);
    } finally {
      cycles.dispose();
    }
  });

  it('stop() ends it: output after that completes no cycle and arms no timer', async () => {
    const output = new LinesOutput();
    const cycles = new WatchCycles('npx vitest', output, () => performance.now(), () => undefined, 20);
    cycles.stop();
    output.write(recorded('vitest-4-pass.txt'));
    cycles.activity();
    await sleep(60);
    assert.equal(cycles.cycles, 0);
    assert.equal(output.flushes, 0);
    cycles.dispose();
  });

  it('through a run: a wait from cycle 0 ends `watching` at the first cycle, and from cycle 1 at the next; the run stays active', async () => {
    const output = new LinesOutput();
    const run = new CommandRun('npx vitest', 'default', 4242, 'vscode', output, config, {
      now: () => performance.now(),
      probeShell: async () => ({ foreground: 'job', readingTerminal: false }),
      logger: silentLogger,
    });
    try {
      const first = run.wait({ timeoutMs: 5000, afterCycle: 0 });
      output.write(recorded('vitest-4-fail.txt'));
      assert.equal(await first, 'watching');
      assert.equal(run.active, true);
      assert.equal(run.watching, true);
      assert.equal(run.cycles, 1);
      assert.equal(await run.wait({ timeoutMs: 300, afterCycle: 0 }), 'watching', 'a cycle the caller has not seen returns at once');
      assert.equal(await run.wait({ timeoutMs: 300, afterCycle: 1 }), 'timeout', 'no new cycle without output');
      const next = run.wait({ timeoutMs: 5000, afterCycle: 1 });
      output.write(recorded('vitest-4-rerun.txt'));
      assert.equal(await next, 'watching');
      assert.equal(run.watchCycle?.cycle, 2);
      assert.equal(await run.wait({ timeoutMs: 300 }), 'timeout', 'a wait that asks no cycle ignores them');
    } finally {
      run.dispose();
    }
  });
});
