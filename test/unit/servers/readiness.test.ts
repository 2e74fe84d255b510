/**
 * Readiness: the pure rules (what to probe, when a look is "ready") and the wait itself against a
 * scripted run and OS (ports appearing, probes answering), so every outcome is covered without a
 * real server: ready over HTTP, a line printed before the bind, a watcher, the caller's pattern,
 * exit, a question, a shortcut hint, cancellation and timeout.
 */
import assert from 'node:assert/strict';
import { Emitter } from '../../../extension/src/core/events';
import type { RunState } from '../../../extension/src/core/run/runState';
import type { WaitOptions, WaitOutcome } from '../../../extension/src/core/run/runWait';
import type { ProbeResult } from '../../../extension/src/core/servers/probe';
import {
  judge,
  planProbes,
  probeIntervalMs,
  URL_CATCH_UP_MS,
  waitUntilReady,
  WATCHER_SETTLE_MS,
  WEAK_ANSWER_GRACE_MS,
  type ReadyEnvironment,
  type ReadyRun,
} from '../../../extension/src/core/servers/readiness';

const ok = (url: string, status = 200): ProbeResult => ({ kind: 'http', url, status, accepted: status < 400 || status <= 403 });

/** A run whose output and state the test sets; wait() behaves like CommandRun's. */
class ScriptedRun implements ReadyRun {
  readonly command = 'npm run dev';
  state: RunState = { kind: 'running' };
  output = '';
  disposed = false;
  get active(): boolean {
    return this.state.kind === 'running' || this.state.kind === 'waiting_for_input';
  }
  private readonly changed = new Emitter<void>();

  write(text: string): void {
    this.output += text;
  }
  set(state: RunState): void {
    this.state = state;
    this.changed.fire();
  }
  progress() {
    return { elapsedMs: 0, outputChars: this.output.length, lastLine: '' };
  }
  async outputSnapshot() {
    return { output: this.output, truncated: false };
  }
  /** The window closes: like CommandRun, every wait ends at once with 'disposed'. */
  dispose(): void {
    this.disposed = true;
    this.changed.fire();
  }
  wait(options: WaitOptions): Promise<WaitOutcome> {
    const settled = (): WaitOutcome | undefined =>
      this.disposed ? 'disposed' : this.state.kind === 'completed' || this.state.kind === 'terminal_closed' ? this.state.kind : this.state.kind === 'waiting_for_input' && options.stopAtInput !== false ? 'waiting_for_input' : undefined;
    const now = settled();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (o: WaitOutcome): void => {
        clearTimeout(timer);
        sub.dispose();
        options.signal?.removeEventListener('abort', abort);
        resolve(o);
      };
      const abort = (): void => done('cancelled');
      const timer = setTimeout(() => done('timeout'), options.timeoutMs);
      const sub = this.changed.event(() => {
        const o = settled();
        if (o) done(o);
      });
      options.signal?.addEventListener('abort', abort, { once: true });
    });
  }
}

/** The OS and the network as the test scripts them: ports of the tree, answers per URL or port. */
class ScriptedEnv implements ReadyEnvironment {
  ports: number[] = [];
  readonly answers = new Map<string, ProbeResult>();
  readonly probed: string[] = [];
  async treePorts(): Promise<number[]> {
    return [...this.ports];
  }
  async probeUrl(url: string): Promise<ProbeResult> {
    this.probed.push(url);
    return this.answers.get(url) ?? { kind: 'refused' };
  }
  async probePort(port: number): Promise<ProbeResult> {
    this.probed.push(`port ${port}`);
    return this.answers.get(`port ${port}`) ?? { kind: 'refused' };
  }
  now(): number {
    return performance.now();
  }
}

const after = (ms: number, fn: () => void): NodeJS.Timeout => setTimeout(fn, ms);

describe('readiness', () => {
  describe('rules', () => {
    it('probes printed URLs of ports the tree holds first, then its other ports; never a URL on a port it does not hold', () => {
      const urls = [
        { url: 'http://localhost:5173/', port: 5173 },
        { url: 'http://127.0.0.1:9999/', port: 9999 },
      ];
      assert.deepEqual(planProbes([5173, 24678], urls), [{ url: 'http://localhost:5173/', port: 5173 }, { port: 24678 }]);
      assert.deepEqual(planProbes([], urls), []);
    });

    it('judges one look', () => {
      const base = { elapsedMs: 1000, ports: [8000], urls: [{ url: 'http://127.0.0.1:8000/', port: 8000 }], line: undefined, results: [], weakSinceMs: undefined };
      assert.equal(judge(base), undefined, 'a port that did not answer is not ready');
      assert.deepEqual(judge({ ...base, results: [ok('http://127.0.0.1:8000/')] }), {
        ports: [8000],
        urls: ['http://127.0.0.1:8000/'],
        via: 'http',
        http: { url: 'http://127.0.0.1:8000/', status: 200 },
      });
      const django = { line: 'Starting development server at http://127.0.0.1:8000/', kind: 'server' as const, atMs: 0 };
      assert.equal(judge({ ...base, ports: [], line: django }), undefined, 'a server line without its port is never enough');
      const notFound = ok('http://127.0.0.1:8000/', 404);
      assert.equal(judge({ ...base, results: [notFound], weakSinceMs: 900 }), undefined, 'a 404 waits for a better answer first');
      assert.equal(judge({ ...base, elapsedMs: 900 + WEAK_ANSWER_GRACE_MS, results: [notFound], weakSinceMs: 900 })?.http?.status, 404);
      assert.deepEqual(judge({ ...base, urls: [], results: [{ kind: 'tcp', url: 'http://localhost:8000/', why: 'not_http' }] }), { ports: [8000], urls: [], via: 'tcp' });
      const tsc = { line: 'Watching for file changes.', kind: 'watcher' as const, atMs: 100 };
      assert.equal(judge({ ...base, ports: [], urls: [], line: tsc, elapsedMs: 100 + WATCHER_SETTLE_MS - 1 }), undefined);
      assert.deepEqual(judge({ ...base, ports: [], urls: [], line: tsc, elapsedMs: 100 + WATCHER_SETTLE_MS }), { ports: [], urls: [], via: 'line', line: 'Watching for file changes.' });
      assert.equal(judge({ ...base, line: { line: 'READY', kind: 'pattern', atMs: 5 } })?.via, 'pattern');
      assert.deepEqual([0, 4999, 5000, 29_999, 30_000].map(probeIntervalMs), [50, 50, 100, 100, 250]);
    });
  });

  describe('waitUntilReady on a scripted run', () => {
    let run: ScriptedRun;
    let env: ScriptedEnv;
    const timers: NodeJS.Timeout[] = [];
    beforeEach(() => {
      run = new ScriptedRun();
      env = new ScriptedEnv();
    });
    afterEach(() => timers.splice(0).forEach(clearTimeout));

    it("Django: the ready line first, the port later; ready only once the printed URL answers", async () => {
      run.write('Starting development server at http://127.0.0.1:8000/\n');
      timers.push(after(300, () => (env.ports = [8000])));
      timers.push(after(500, () => env.answers.set('http://127.0.0.1:8000/', ok('http://127.0.0.1:8000/'))));
      const t0 = performance.now();
      const outcome = await waitUntilReady(run, env, { timeoutMs: 5000 });
      const took = performance.now() - t0;
      assert.equal(outcome.kind, 'ready');
      assert.ok(took >= 480, `not before the URL answered (${took} ms)`);
      assert.ok(took < 4000, `long before the timeout (${took} ms)`);
      if (outcome.kind === 'ready') {
        assert.deepEqual({ ...outcome.info, waitedMs: 0 }, { ports: [8000], urls: ['http://127.0.0.1:8000/'], via: 'http', http: { url: 'http://127.0.0.1:8000/', status: 200 }, waitedMs: 0 });
      }
    });

    it('a port that answers before its URL arrives (Vite binds, then prints): the printed URL if it comes within the catch-up, else http://localhost:PORT/', async () => {
      env.ports = [5173];
      env.answers.set('port 5173', ok('http://localhost:5173/'));
      timers.push(after(60, () => run.write('  ➜  Local:   http://localhost:5173/app/\n')));
      const printed = await waitUntilReady(run, env, { timeoutMs: 2000 });
      assert.equal(printed.kind === 'ready' && printed.info.urls.join(), 'http://localhost:5173/app/');
      const silent = new ScriptedRun();
      const t0 = performance.now();
      const bare = await waitUntilReady(silent, env, { timeoutMs: 2000 });
      assert.equal(bare.kind === 'ready' && bare.info.urls.join(), 'http://localhost:5173/');
      assert.ok(performance.now() - t0 >= URL_CATCH_UP_MS - 5, 'it gave the output its catch-up time');
    });

    it('a URL printed while the tree is looked at (Django under load: the line lands as the port binds) is the one reported, not http://localhost:PORT/', async () => {
      const looking = new (class extends ScriptedEnv {
        override async treePorts(): Promise<number[]> {
          run.write('Starting development server at http://127.0.0.1:8000/\n');
          return [8000];
        }
      })();
      looking.answers.set('port 8000', ok('http://localhost:8000/'));
      const outcome = await waitUntilReady(run, looking, { timeoutMs: 2000 });
      assert.equal(outcome.kind === 'ready' && outcome.info.urls.join(), 'http://127.0.0.1:8000/');
    });

    it("Vite reading the terminal for its shortcuts is not a question: it keeps waiting and gets ready", async () => {
      run.write('  ➜  Local:   http://localhost:5173/\n  ➜  press h + enter to show help\n');
      run.set({ kind: 'waiting_for_input', prompt: '➜  press h + enter to show help' });
      timers.push(after(200, () => {
        env.ports = [5173];
        env.answers.set('http://localhost:5173/', ok('http://localhost:5173/'));
      }));
      const outcome = await waitUntilReady(run, env, { timeoutMs: 2000 });
      assert.equal(outcome.kind, 'ready');
    });

    it("a real question (CRA's other port?) returns waiting_for_input at once", async () => {
      timers.push(after(100, () => run.set({ kind: 'waiting_for_input', prompt: 'Would you like to run the app on another port instead? › (Y/n)' })));
      assert.deepEqual(await waitUntilReady(run, env, { timeoutMs: 5000 }), { kind: 'waiting_for_input' });
    });

    it('the run ending (EADDRINUSE) ends the wait at once, also while a probe is in flight', async () => {
      env.ports = [3000];
      env.probePort = (port) => {
        env.probed.push(`port ${port}`);
        return new Promise(() => undefined); // a probe that never answers
      };
      timers.push(after(150, () => run.set({ kind: 'completed', exitCode: 1 })));
      const t0 = performance.now();
      assert.deepEqual(await waitUntilReady(run, env, { timeoutMs: 10_000 }), { kind: 'ended' });
      assert.ok(performance.now() - t0 < 5000, 'long before the timeout');
    });

    it('the run disposed (the window closing) ends the wait at once, without spinning until the timeout', async () => {
      env.ports = [3000];
      let probes = 0;
      env.probePort = (port) => {
        probes++;
        env.probed.push(`port ${port}`);
        return Promise.resolve<ProbeResult>({ kind: 'refused' });
      };
      timers.push(after(150, () => run.dispose()));
      const t0 = performance.now();
      assert.deepEqual(await waitUntilReady(run, env, { timeoutMs: 10_000 }), { kind: 'disposed' });
      assert.ok(performance.now() - t0 < 2000, 'at once, not at the timeout');
      const before = probes;
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(probes, before, 'nothing keeps probing');
    });

    it('a watcher: its ready line and no port', async () => {
      timers.push(after(100, () => run.write('[12:00:00] Found 0 errors. Watching for file changes.\n')));
      const outcome = await waitUntilReady(run, env, { timeoutMs: 3000 });
      assert.equal(outcome.kind === 'ready' && outcome.info.via, 'line');
    });

    it("the caller's readyPattern: ready on the line, ports or not", async () => {
      timers.push(after(100, () => run.write('compiling\nbundle ready\n')));
      const outcome = await waitUntilReady(run, env, { timeoutMs: 3000, readyPattern: /bundle ready/ });
      assert.equal(outcome.kind === 'ready' && `${outcome.info.via}: ${outcome.info.line}`, 'pattern: bundle ready');
    });

    it('timeout: says what it saw; cancellation: cancelled', async () => {
      run.write('Starting development server at http://127.0.0.1:8000/\n');
      const timedOut = await waitUntilReady(run, env, { timeoutMs: 300 });
      assert.deepEqual(timedOut, { kind: 'timeout', seen: { ports: [], urls: ['http://127.0.0.1:8000/'], line: 'Starting development server at http://127.0.0.1:8000/' } });
      const abort = new AbortController();
      timers.push(after(100, () => abort.abort()));
      assert.deepEqual(await waitUntilReady(run, env, { timeoutMs: 5000, signal: abort.signal }), { kind: 'cancelled' });
    });
  });
});
