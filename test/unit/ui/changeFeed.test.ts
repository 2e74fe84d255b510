/** The change feed: coalesced, bounded, never throws into its sources, disposes everything. */
import assert from 'node:assert/strict';
import { ChangeFeed } from '../../../extension/src/vscode/ui/changeFeed';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

class Source {
  readonly listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  emit(): void {
    for (const l of this.listeners) l();
  }
}

describe('ui change feed', () => {
  let feed: ChangeFeed | undefined;
  afterEach(() => feed?.dispose());

  it('coalesces a burst from several sources into one notification after the delay', async () => {
    const a = new Source();
    const b = new Source();
    feed = new ChangeFeed({ sources: [a.subscribe, b.subscribe], delayMs: 30, onListenerError: () => undefined });
    let calls = 0;
    feed.onDidChange(() => calls++);
    for (let i = 0; i < 10; i++) (i % 2 ? a : b).emit();
    await sleep(10);
    assert.equal(calls, 0);
    await sleep(40);
    assert.equal(calls, 1);
  });

  it('a steady stream still renders at least once per delay (no starvation)', async () => {
    const a = new Source();
    feed = new ChangeFeed({ sources: [a.subscribe], delayMs: 20, onListenerError: () => undefined });
    let calls = 0;
    feed.onDidChange(() => calls++);
    const t0 = Date.now();
    while (Date.now() - t0 < 200) {
      a.emit();
      await sleep(5);
    }
    assert.ok(calls >= 4, `${calls} renders in 200 ms`);
  });

  it('a listener that throws is reported and does not stop the others', async () => {
    const errors: unknown[] = [];
    feed = new ChangeFeed({ sources: [], delayMs: 5, onListenerError: (e) => errors.push(e) });
    let reached = false;
    feed.onDidChange(() => {
      throw new Error('boom');
    });
    feed.onDidChange(() => (reached = true));
    feed.signal();
    await sleep(20);
    assert.equal(reached, true);
    assert.equal(errors.length, 1);
  });

  it('dispose unsubscribes from the sources and cancels a pending notification', async () => {
    const a = new Source();
    feed = new ChangeFeed({ sources: [a.subscribe], delayMs: 10, onListenerError: () => undefined });
    let calls = 0;
    feed.onDidChange(() => calls++);
    a.emit();
    feed.dispose();
    assert.equal(a.listeners.size, 0);
    await sleep(30);
    assert.equal(calls, 0);
    feed.signal();
    await sleep(20);
    assert.equal(calls, 0);
  });
});
