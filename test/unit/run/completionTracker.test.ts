import assert from 'node:assert/strict';
import { CompletionTracker, type CompletionConfig } from '../../../extension/src/core/run/completionTracker';

const config: CompletionConfig = { graceMs: 3000, settleMs: 5, probeIntervalMs: 50 };
const A = 'exec-a';
const B = 'exec-b';

describe('CompletionTracker', () => {
  it('is running before any execution starts or ends', () => {
    const t = new CompletionTracker(config);
    assert.deepEqual(t.evaluate(0), { kind: 'running' });
    assert.deepEqual(t.evaluate(10_000), { kind: 'running' }, 'no amount of silence completes a run');
  });

  it('stays running while an execution is active, however long it is silent (sleep 10)', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    for (const now of [100, 3000, 10_000, 600_000]) {
      assert.deepEqual(t.evaluate(now), { kind: 'running' });
    }
  });

  it('asks for a probe right after the end, then completes after the settle once idle is confirmed', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 100);
    assert.deepEqual(t.evaluate(100), { kind: 'settling', wakeAt: 100, probeAt: 100 });
    t.shellProbed('idle', 101);
    assert.deepEqual(t.evaluate(101), { kind: 'settling', wakeAt: 105 });
    assert.deepEqual(t.evaluate(105), { kind: 'completed', exitCode: 0, at: 105 });
    assert.equal(t.completed, true);
  });

  it('keeps the exit code of the last execution', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 10);
    t.executionStarted(B, 11);
    t.executionEnded(B, 3, 20);
    t.shellProbed('idle', 21);
    assert.deepEqual(t.evaluate(30), { kind: 'completed', exitCode: 3, at: 30 });
  });

  it('a new execution during the settle resets the wait (cascade)', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 100);
    t.shellProbed('idle', 101);
    t.executionStarted(B, 103);
    assert.deepEqual(t.evaluate(110), { kind: 'running' });
    assert.deepEqual(t.evaluate(5000), { kind: 'running' });
    t.executionEnded(B, 1, 6000);
    const d = t.evaluate(6000);
    assert.equal(d.kind, 'settling');
    t.shellProbed('idle', 6001);
    assert.deepEqual(t.evaluate(6005), { kind: 'completed', exitCode: 1, at: 6005 });
  });

  it('a confirmation taken before the last end does not count', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.shellProbed('idle', 50);
    t.executionEnded(A, 0, 100);
    assert.equal(t.evaluate(200).kind, 'settling');
  });

  it('a busy shell is probed again every interval; still busy at the grace ceiling, the end was premature', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 1000);
    t.shellProbed('busy', 1001);
    assert.deepEqual(t.evaluate(1010), { kind: 'settling', wakeAt: 1051, probeAt: 1051 });
    t.shellProbed('busy', 1051);
    assert.deepEqual(t.evaluate(3999), { kind: 'settling', wakeAt: 3999, probeAt: 3999 }, 'an overdue probe is due now');
    assert.deepEqual(t.evaluate(4000), { kind: 'settling', wakeAt: 4000, probeAt: 4000 });
    t.shellProbed('idle', 4000);
    assert.deepEqual(t.evaluate(4001), { kind: 'completed', exitCode: undefined, at: 4001, premature: true });
  });

  it('without an OS answer it waits the full grace period and no longer probes', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 2, 100);
    t.shellProbed('unknown', 101);
    assert.deepEqual(t.evaluate(200), { kind: 'settling', wakeAt: 3100 });
    assert.deepEqual(t.evaluate(3099), { kind: 'settling', wakeAt: 3100 });
    assert.deepEqual(t.evaluate(3100), { kind: 'completed', exitCode: 2, at: 3100 });
  });

  it('the grace period restarts from the latest end', () => {
    const t = new CompletionTracker({ ...config, probeIntervalMs: 10_000 });
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 100);
    t.shellProbed('unknown', 100);
    t.executionStarted(B, 2000);
    t.executionEnded(B, 0, 2500);
    assert.equal(t.evaluate(3200).kind, 'settling');
    assert.equal(t.evaluate(5500).kind, 'completed');
  });

  it('an end whose start was never seen counts as both, and a late start is ignored', () => {
    const t = new CompletionTracker(config);
    t.executionEnded(A, 0, 50);
    t.executionStarted(A, 51);
    t.shellProbed('idle', 52);
    assert.deepEqual(t.evaluate(60), { kind: 'completed', exitCode: 0, at: 60 });
  });

  it('an end without an exit code is weak evidence: no probe, only the grace completes it, with the code undefined', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, undefined, 10);
    assert.deepEqual(t.evaluate(10), { kind: 'settling', wakeAt: 3010 });
    t.shellProbed('idle', 11);
    assert.deepEqual(t.evaluate(20), { kind: 'settling', wakeAt: 3010 }, 'an idle shell does not shortcut it');
    assert.deepEqual(t.evaluate(3010), { kind: 'completed', exitCode: undefined, at: 3010 });
  });

  it('after a codeless end, the real execution that follows within the grace decides (a theme redrew the prompt)', () => {
    const t = new CompletionTracker(config);
    t.expectOwn(A);
    t.executionStarted(A, 0);
    t.executionEnded(A, undefined, 5);
    t.expectOwn(B);
    t.executionStarted(B, 120);
    assert.deepEqual(t.evaluate(200), { kind: 'running' });
    t.executionEnded(B, 0, 140);
    t.shellProbed('idle', 141);
    assert.deepEqual(t.evaluate(146), { kind: 'completed', exitCode: 0, at: 146 });
  });

  it('completion is sticky: later events change nothing', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 10);
    t.shellProbed('idle', 11);
    t.evaluate(20);
    t.executionStarted(B, 30);
    assert.deepEqual(t.evaluate(40), { kind: 'completed', exitCode: 0, at: 20 });
  });

  it('a zero grace period completes at the end even without confirmation', () => {
    const t = new CompletionTracker({ ...config, graceMs: 0 });
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 10);
    assert.deepEqual(t.evaluate(10), { kind: 'completed', exitCode: 0, at: 10 });
  });

  it('a stray end before the run\'s own execution was seen cannot complete the run (microsoft/vscode#208650)', () => {
    const t = new CompletionTracker(config);
    t.expectOwn(A);
    t.executionStarted('spurious', 0);
    t.executionEnded('spurious', undefined, 1);
    t.shellProbed('idle', 2);
    assert.deepEqual(t.evaluate(10_000), { kind: 'running' }, 'not even past the grace');
    t.executionStarted(A, 20);
    t.executionEnded(A, 7, 30);
    t.shellProbed('idle', 31);
    assert.deepEqual(t.evaluate(40), { kind: 'completed', exitCode: 7, at: 40 });
  });

  it('the own execution may be reported under another id (expectOwn both); a later end without a code keeps the code', () => {
    const t = new CompletionTracker(config);
    t.expectOwn(A);
    t.executionStarted(B, 0);
    assert.equal(t.ownExecutionSeen, false);
    t.expectOwn(B);
    assert.equal(t.ownExecutionSeen, true);
    t.executionEnded(B, 4, 10);
    t.executionStarted('late', 11);
    t.executionEnded('late', undefined, 12);
    t.shellProbed('idle', 13);
    assert.deepEqual(t.evaluate(3012), { kind: 'completed', exitCode: 4, at: 3012 });
  });

  it('an end the OS contradicts through the whole grace is premature: wait for the prompt, report no exit code', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 0, 10); // a program printed ESC ] 633 ; D;0
    t.shellProbed('busy', 11);
    assert.equal(t.evaluate(3009).kind, 'settling');
    t.shellProbed('busy', 3005);
    const past = t.evaluate(3010);
    assert.deepEqual(past, { kind: 'settling', wakeAt: 3055, probeAt: 3055 }, 'not completed at the grace: the job still runs');
    t.shellProbed('busy', 3055);
    assert.equal(t.evaluate(9000).kind, 'settling', 'however long the job runs');
    t.shellProbed('idle', 9001);
    assert.deepEqual(t.evaluate(9001), { kind: 'completed', exitCode: undefined, at: 9001, premature: true });
  });

  it('a job seen briefly after the end (a prompt hook) does not make it premature', () => {
    const t = new CompletionTracker(config);
    t.executionStarted(A, 0);
    t.executionEnded(A, 2, 10);
    t.shellProbed('busy', 11);
    t.shellProbed('idle', 200);
    assert.deepEqual(t.evaluate(210), { kind: 'completed', exitCode: 2, at: 210 });
  });
});
