/** The bounded debounce: bursts coalesce, but a write is never later than maxDelayMs after a change. */
import assert from 'node:assert/strict';
import { BoundedDebounce } from '../../../extension/src/core/ledger/boundedDebounce';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('BoundedDebounce', () => {
  let debounce: BoundedDebounce | undefined;
  afterEach(() => debounce?.dispose());

  function make(task: () => Promise<void>, delayMs = 30, maxDelayMs = 120, onError: (e: unknown) => void = () => undefined): BoundedDebounce {
    debounce = new BoundedDebounce(task, { delayMs, maxDelayMs, maxRetryMs: 200, onError });
    return debounce;
  }

  it('coalesces a burst into one run after the quiet time', async () => {
    let runs = 0;
    const d = make(async () => void runs++);
    for (let i = 0; i < 10; i++) d.trigger();
    await sleep(10);
    assert.equal(runs, 0);
    await sleep(60);
    assert.equal(runs, 1);
  });

  it('runs within maxDelayMs of the first change even while changes keep coming', async () => {
    const runsAt: number[] = [];
    const t0 = Date.now();
    const d = make(async () => void runsAt.push(Date.now() - t0));
    while (Date.now() - t0 < 300) {
      d.trigger();
      await sleep(10);
    }
    assert.ok(runsAt.length >= 2, `ran ${runsAt.length} times during 300 ms of changes`);
    assert.ok(runsAt[0]! <= 120 + 40, `first run at ${runsAt[0]} ms`);
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
    await sleep(20);
    d.trigger();
    await sleep(150);
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
    await sleep(250);
    assert.equal(attempts, 3);
    assert.equal(errors.length, 2);
  });
});
