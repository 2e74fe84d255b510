import assert from 'node:assert/strict';
import { silentLogger } from '../../../common/src/logger';
import { Emitter } from '../../../extension/src/core/events';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { CommandRun, type RunConfig } from '../../../extension/src/core/run/commandRun';
import type { ExecutionSource } from '../../../extension/src/core/run/executionDrains';
import type { RunOutput } from '../../../extension/src/core/output/runOutput';
import { runResult } from '../../../extension/src/core/service/runResult';

/** A plain-text output: enough to drive the run's logic (rendering is tested on its own). */
class TextOutput implements RunOutput {
  text = '';
  private readonly writes = new Emitter<void>();
  readonly onDidWrite = this.writes.event;
  write(chunk: string): boolean {
    this.text += chunk.replace(/\x1b\]633;[^\x07]*\x07/g, '');
    this.writes.fire();
    return true;
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
  snapshot() {
    return { output: this.text.replace(/\r\n/g, '\n').trimEnd(), truncated: false };
  }
  lastLines(count: number): string[] {
    return this.text.split(/\r?\n/).slice(-count);
  }
  get totalChars(): number {
    return this.text.length;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** An execution whose output the test pushes, then ends. */
class ScriptedExecution implements ExecutionSource {
  private chunks: string[] = [];
  private wake: (() => void) | undefined;
  private done = false;
  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }
  end(): void {
    this.done = true;
    this.wake?.();
  }
  async *read(): AsyncIterable<string> {
    for (;;) {
      while (this.chunks.length > 0) yield this.chunks.shift()!;
      if (this.done) return;
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

const config: RunConfig = {
  completion: { graceMs: 3000, settleMs: 5, probeIntervalMs: 20 },
  input: { strongSilenceMs: 60, readingSilenceMs: 60, emptyReadingSilenceMs: 60, shellReadingSilenceMs: 60, weakSilenceMs: 400, replSilenceMs: 200 },
  drainTimeoutMs: 200,
};

function makeRun(probe: () => ShellActivity, cfg: RunConfig = config) {
  const output = new TextOutput();
  const probes: number[] = [];
  const run = new CommandRun('cmd', 'default', 4242, 'vscode', output, cfg, {
    now: () => performance.now(),
    probeShell: async () => {
      probes.push(performance.now());
      return probe();
    },
    logger: silentLogger,
  });
  return { run, output, probes };
}

/** A run whose own execution has started, with its scripted output. */
function startedRun(probe: () => ShellActivity, cfg: RunConfig = config) {
  const made = makeRun(probe, cfg);
  const exec = new ScriptedExecution();
  made.run.attachExecution(exec);
  made.run.executionStarted(exec);
  return { ...made, exec };
}

const idle = (): ShellActivity => ({ foreground: 'shell', readingTerminal: false });
const busy = (): ShellActivity => ({ foreground: 'job', readingTerminal: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CommandRun', () => {
  it('completes promptly once the end arrived and the shell is confirmed idle', async () => {
    const { run, exec } = startedRun(idle);
    exec.push('\x1b]633;C\x07hello\r\n');
    exec.end();
    const t0 = performance.now();
    run.executionEnded(exec, 0);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.ok(performance.now() - t0 < 500, 'no grace-period sleep when idle is confirmed');
    const result = await runResult(run, 'completed');
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, 'hello');
    assert.equal(result.pid, 4242);
    run.dispose();
  });

  it('never completes a silent command before its end (sleep between two echoes)', async () => {
    const { run, exec } = startedRun(idle);
    exec.push('Start\r\n');
    assert.equal(await run.wait({ timeoutMs: 300 }), 'timeout');
    assert.equal(run.state.kind, 'running');
    exec.push('End\r\n');
    exec.end();
    run.executionEnded(exec, 0);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.equal((await runResult(run, 'completed')).output, 'Start\nEnd');
    run.dispose();
  });

  it('an end while the OS says a job still holds the terminal for the whole grace is premature: no exit code, said so', async () => {
    let activity = busy;
    const { run, probes } = makeRun(() => activity(), { ...config, completion: { ...config.completion, graceMs: 300 } });
    run.executionStarted('a');
    run.executionEnded('a', 0);
    assert.equal(await run.wait({ timeoutMs: 600, stopAtInput: false }), 'timeout', 'not completed at the grace: the job still runs');
    assert.ok(probes.length >= 3, `probed repeatedly (${probes.length})`);
    activity = idle;
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.deepEqual(run.state, { kind: 'completed', exitCode: undefined, endedEarly: true });
    run.dispose();
  });

  it('keeps a cascade in the same run and reports the last exit code', async () => {
    const { run } = makeRun(idle, { ...config, completion: { ...config.completion, settleMs: 80 } });
    run.executionStarted('a');
    run.executionEnded('a', 0);
    await sleep(20);
    run.executionStarted('b');
    await sleep(150);
    assert.equal(run.state.kind, 'running', 'the second execution is still running');
    run.executionEnded('b', 7);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.equal((await runResult(run, 'completed')).exitCode, 7);
    run.dispose();
  });

  it('reports waiting_for_input with the prompt, and runs on after the answer', async () => {
    const { run, exec } = startedRun(idle);
    exec.push('Do you want to continue? [Y/n] ');
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    const waiting = await runResult(run, 'waiting_for_input');
    assert.equal(waiting.prompt, 'Do you want to continue? [Y/n]');
    assert.equal(waiting.exitCode, undefined);
    run.inputSent('y', true);
    assert.equal(run.state.kind, 'running');
    exec.push('y\r\ndone\r\n');
    exec.end();
    run.executionEnded(exec, 0);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    run.dispose();
  });

  it('an answered prompt is no question while the program has yet to read the answer (a busy machine); asked again, it is', async () => {
    let reading = false;
    const { run, exec } = startedRun(() => ({ foreground: 'job', readingTerminal: reading }));
    exec.push('Continue? [y/N] ');
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    run.inputSent('yes-from-agent', true);
    // Neither before the echo arrives nor after it does is the answered line taken for a question.
    assert.equal(await run.wait({ timeoutMs: 300 }), 'timeout');
    exec.push('yes-from-agent');
    assert.equal(await run.wait({ timeoutMs: 300 }), 'timeout');
    assert.equal(run.state.kind, 'running');
    // The program asks again on a fresh line: a question again.
    exec.push('\r\nContinue? [y/N] ');
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    assert.equal((await runResult(run, 'waiting_for_input')).prompt, 'Continue? [y/N]');
    run.inputSent('y', true);
    exec.push('y');
    // The OS still says the program reads the terminal: it waits on the answered line.
    reading = true;
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    assert.equal((await runResult(run, 'waiting_for_input')).prompt, 'Continue? [y/N] y');
    run.dispose();
  });

  it('uses the OS signal for prompts no pattern knows', async () => {
    const { run, exec } = startedRun(() => ({ foreground: 'job', readingTerminal: true }));
    exec.push('Your name> ');
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    assert.equal((await runResult(run, 'waiting_for_input')).prompt, 'Your name>');
    run.dispose();
  });

  it('waits for the prompt still in flight when the OS already sees the read (no empty prompt)', async () => {
    const { run, exec } = startedRun(() => ({ foreground: 'shell', readingTerminal: true }));
    setTimeout(() => exec.push('Name? '), 120);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'waiting_for_input');
    assert.equal((await runResult(run, 'waiting_for_input')).prompt, 'Name?');
    run.dispose();
  });

  it('reports terminal_closed with the shell exit code when the terminal goes away', async () => {
    const { run } = makeRun(idle);
    run.executionStarted('a');
    setTimeout(() => run.terminalClosed(1), 30);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'terminal_closed');
    assert.equal((await runResult(run, 'terminal_closed')).exitCode, 1);
    run.dispose();
  });

  it('returns cancelled when the caller aborts', async () => {
    const { run } = makeRun(idle);
    run.executionStarted('a');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 30);
    assert.equal(await run.wait({ timeoutMs: 2000, signal: abort.signal }), 'cancelled');
    run.dispose();
  });

  it('with no settle (an end that comes at the prompt) completes on the probe\'s answer, with no timer in between', async () => {
    const microtasks = async () => {
      for (let i = 0; i < 50; i++) await Promise.resolve();
    };
    for (const settleMs of [0, 5]) {
      const { run, probes } = makeRun(idle, { ...config, completion: { ...config.completion, settleMs } });
      const exec = new ScriptedExecution();
      run.attachExecution(exec);
      run.executionStarted(exec);
      exec.push('done\r\n');
      exec.end();
      run.executionEnded(exec, 0);
      await microtasks();
      assert.equal(probes.length, 1);
      assert.equal(run.state.kind, settleMs === 0 ? 'completed' : 'running', `settle ${settleMs} ms`);
      assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
      assert.equal((await runResult(run, 'completed')).output, 'done');
      run.dispose();
    }
  });

  it('a probe slow to answer is waited for, not polled on a timer of 0 ms meanwhile', async () => {
    let clockReads = 0;
    const probes: number[] = [];
    const run = new CommandRun('cmd', 'default', 4242, 'shepherd', new TextOutput(), config, {
      now: () => {
        clockReads++;
        return performance.now();
      },
      probeShell: async () => {
        probes.push(performance.now());
        await sleep(60);
        return idle();
      },
      logger: silentLogger,
    });
    run.executionStarted('a');
    run.executionEnded('a', 0);
    const readsAtEnd = clockReads;
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.equal(probes.length, 1);
    // A timer re-armed at "now" while the probe is out would read the clock every millisecond or so.
    assert.ok(clockReads - readsAtEnd < 20, `${clockReads - readsAtEnd} clock reads while one probe was out`);
    run.dispose();
  });

  it('tells once when its own execution is first seen (the shell took the line), whether by a start, an end or an id learnt late', () => {
    const seen: string[] = [];
    const { run } = makeRun(idle);
    run.onDidSeeOwnExecution(() => seen.push('taken'));
    run.expectOwnExecution('own');
    run.executionStarted('stray');
    assert.equal(seen.length, 0, 'another execution is not the line taken');
    run.executionStarted('own');
    run.executionEnded('own', 0);
    assert.deepEqual(seen, ['taken'], 'once, at the start');
    run.dispose();
    const late = makeRun(idle).run;
    late.onDidSeeOwnExecution(() => seen.push('late'));
    late.expectOwnExecution('a');
    late.executionEnded('b', 0);
    late.expectOwnExecution('b'); // the same execution under the id VS Code reported
    assert.deepEqual(seen, ['taken', 'late']);
    late.dispose();
  });

  it('leaves no timer behind after completion or dispose', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await sleep(1); // mocha arms its own test timer after the test function started
    const before = timers();
    const { run } = makeRun(idle);
    run.executionStarted('a');
    await sleep(100);
    run.executionEnded('a', 0);
    await run.wait({ timeoutMs: 2000 });
    await sleep(10);
    assert.equal(timers(), before);
    const second = makeRun(idle).run;
    second.executionStarted('x');
    await sleep(100);
    second.dispose();
    await sleep(10);
    assert.equal(timers(), before);
  });

  it('ends as terminal_closed (shell_gone, no exit code) once the OS says the shell is gone and VS Code stays silent', async () => {
    let gone = false;
    const { run } = makeRun(() => (gone ? { foreground: 'gone', readingTerminal: false } : busy()));
    run.executionStarted('exit 3');
    setTimeout(() => (gone = true), 50);
    const t0 = performance.now();
    assert.equal(await run.wait({ timeoutMs: 6000 }), 'terminal_closed');
    assert.ok(performance.now() - t0 >= 1900, 'VS Code gets its grace to report the close first');
    assert.deepEqual(run.state, { kind: 'terminal_closed', exitCode: undefined, end: 'shell_gone' });
    assert.equal((await runResult(run, 'terminal_closed')).exitCode, undefined);
    run.dispose();
  });

  it('asks the OS whether the shell lives about once a second where it cannot tell reading (macOS, Windows)', async () => {
    let gone = false;
    const { run, probes } = makeRun(() => (gone ? { foreground: 'gone', readingTerminal: false } : { foreground: 'job', readingTerminal: 'unknown' }));
    run.executionStarted('a');
    await sleep(1200);
    const quiet = probes.length;
    assert.ok(quiet >= 1 && quiet <= 3, `about one probe a second, not every 250 ms (${quiet})`);
    gone = true;
    assert.equal(await run.wait({ timeoutMs: 6000 }), 'terminal_closed');
    run.dispose();
  });

  it('takes the exit code VS Code reports within the grace after the OS said the shell is gone', async () => {
    const { run } = makeRun(() => ({ foreground: 'gone', readingTerminal: false }));
    run.executionStarted('exit 3');
    await sleep(400); // the OS has answered "gone"; VS Code's close is on its way
    run.terminalClosed(3);
    assert.equal(await run.wait({ timeoutMs: 1000 }), 'terminal_closed');
    assert.deepEqual(run.state, { kind: 'terminal_closed', exitCode: 3, end: 'closed' });
    await sleep(2100);
    assert.deepEqual(run.state, { kind: 'terminal_closed', exitCode: 3, end: 'closed' }, 'the grace timer is gone with the run');
    run.dispose();
  });

  it('ends every pending wait at once when disposed (the window closes), and later waits too', async () => {
    const { run } = makeRun(busy);
    run.executionStarted('a');
    const waits = [run.wait({ timeoutMs: 60_000 }), run.wait({ timeoutMs: 60_000, stopAtInput: false })];
    const t0 = performance.now();
    run.dispose();
    assert.deepEqual(await Promise.all(waits), ['disposed', 'disposed']);
    assert.ok(performance.now() - t0 < 100);
    assert.equal(await run.wait({ timeoutMs: 60_000 }), 'disposed');
  });
});
