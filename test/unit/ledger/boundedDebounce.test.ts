/** The bounded debounce: bursts coalesce, but a write is never later than maxDelayMs after a change. */
import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { BoundedDebounce } from '../../../extension/src/core/ledger/boundedDebounce';

// Timers and Date.now are mocked: time moves only by advance(), so no assertion depends on how
// busy the machine is. setImmediate stays real, to let the tasks' promises settle between steps.
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Moves the mocked clock on by `ms`, a millisecond at a time, letting promises settle at each step. */
async function advance(ms: number): Promise<void> {
  for (let i = 0; i < ms; i++) {
    mock.timers.tick(1);
    await settle();
  }
}

describe('BoundedDebounce', () => {
  let debounce: BoundedDebounce | undefined;
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 }));
  afterEach(() => {
    debounce?.dispose();
    mock.timers.reset();
  });

  function make(task: () => Promise<void>, delayMs = 30, maxDelayMs = 120, onError: (e: unknown) => void = () => undefined): BoundedDebounce {
    debounce = new BoundedDebounce(task, { delayMs, maxDelayMs, maxRetryMs: 200, onError });
    return debounce;
  }

  it('coalesces a burst into one run after the quiet time', async () => {
    let runs = 0;
    const d = make(async () => void runs++);
    for (let i = 0; i < 10; i++) d.trigger();
    await advance(29);
    assert.equal(runs, 0);
    await advance(1);
    assert.equal(runs, 1);
    await advance(200);
    assert.equal(runs, 1);
  });

  it('runs within maxDelayMs of the first change even while changes keep coming', async () => {
    const runsAt: number[] = [];
    const d = make(async () => void runsAt.push(Date.now()));
    while (Date.now() < 300) {
      d.trigger();
      await advance(10);
    }
    // A change every 10 ms never leaves the 30 ms of quiet: only the bound makes it write.
    assert.deepEqual(runsAt, [120, 240]);
  });

  it('never overlaps runs, and a change during a run causes one more', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const d = make(async () => {
      maxRunning = Math.max(maxRunning, ++running);
      await sleep(50);
      running--;
      runs++;
    }, 5, 10);
    d.trigger();
    await advance(20);
    assert.equal(running, 1, 'the first run is under way');
    d.trigger();
    await advance(150);
    assert.equal(maxRunning, 1);
    assert.equal(runs, 2);
  });

  it('flush runs a pending change now and waits; without one it only waits', async () => {
    let runs = 0;
    const d = make(async () => void runs++, 10_000, 10_000);
    d.trigger();
    await d.flush();
    assert.equal(runs, 1);
    await d.flush();
    assert.equal(runs, 1);
  });

  it('retries a failed run and reports the error', async () => {
    const errors: unknown[] = [];
    let attempts = 0;
    const d = make(
      async () => {
        if (++attempts < 3) throw new Error(`fail ${attempts}`);
      },
      5,
      20,
      (e) => errors.push(e),
    );
    d.trigger();
    // Attempts at 5 ms, then after pauses of 20 and 40 ms (the pause doubles up to maxRetryMs).
    await advance(64);
    assert.equal(attempts, 2);
    await advance(1);
    assert.equal(attempts, 3);
    await advance(500);
    assert.equal(attempts, 3);
    assert.equal(errors.length, 2);
  });
});
