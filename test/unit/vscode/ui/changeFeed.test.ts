/** The change feed: coalesced, bounded, never throws into its sources, disposes everything. */
import assert from 'node:assert/strict';
import { Emitter, setListenerErrorHandler, type Event } from '../../../../extension/src/core/events';
import { ChangeFeed } from '../../../../extension/src/vscode/ui/changeFeed';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** An event source that counts its subscribers. */
class Source {
  private readonly emitter = new Emitter<void>();
  subscribers = 0;
  subscribe: Event<void> = (listener) => {
    this.subscribers++;
    const subscription = this.emitter.event(listener);
    return { dispose: () => (this.subscribers--, subscription.dispose()) };
  };
  emit(): void {
    this.emitter.fire();
  }
}

describe('ui change feed', () => {
  let feed: ChangeFeed | undefined;
  afterEach(() => feed?.dispose());

  it('coalesces a burst from several sources into one notification after the delay', async () => {
    const a = new Source();
    const b = new Source();
    feed = new ChangeFeed({ sources: [a.subscribe, b.subscribe], delayMs: 30 });
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
    feed = new ChangeFeed({ sources: [a.subscribe], delayMs: 20 });
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
    const handler = setListenerErrorHandler((e) => errors.push(e));
    feed = new ChangeFeed({ sources: [], delayMs: 5 });
    let reached = false;
    feed.onDidChange(() => {
      throw new Error('boom');
    });
    feed.onDidChange(() => (reached = true));
    feed.signal();
    await sleep(20);
    handler.dispose();
    assert.equal(reached, true);
    assert.equal(errors.length, 1);
  });

  it('dispose unsubscribes from the sources and cancels a pending notification', async () => {
    const a = new Source();
    feed = new ChangeFeed({ sources: [a.subscribe], delayMs: 10 });
    let calls = 0;
    feed.onDidChange(() => calls++);
    a.emit();
    feed.dispose();
    assert.equal(a.subscribers, 0);
    await sleep(30);
    assert.equal(calls, 0);
    feed.signal();
    await sleep(20);
    assert.equal(calls, 0);
  });
});
