/**
 * Caps on a terminal's shell: the prlimit arguments, which cap ended a command, and on the REAL
 * machine a shell capped after it started: a runaway allocation fails under the memory cap, a busy
 * loop is stopped by the CPU cap (SIGXCPU, exit code 152), both told by capThatEnded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { applyLimits, capMessage, capThatEnded, limitsFromSettings, prlimitArgs } from '../../../extension/src/core/processes/processLimits';
import { describeWhere } from '../../support/skips';
import { hasCommand } from './helpers';

describe('process limits (pure)', () => {
  it('turns settings into caps (0 is none) and caps into prlimit arguments', () => {
    assert.deepEqual(limitsFromSettings({ memoryLimitMb: 0, cpuTimeLimitSeconds: 0 }), {});
    const limits = limitsFromSettings({ memoryLimitMb: 200, cpuTimeLimitSeconds: 30 });
    assert.deepEqual(limits, { memoryBytes: 200 * 1048576, cpuSeconds: 30 });
    assert.deepEqual(prlimitArgs(42, limits), ['--pid', '42', `--data=${200 * 1048576}:${200 * 1048576}`, '--cpu=30:31']);
  });

  it('tells which cap ended a command, and none for a success or an unrelated failure', () => {
    const both = { memoryBytes: 1, cpuSeconds: 1 };
    assert.equal(capThatEnded(both, 152, ''), 'cpuTime');
    assert.equal(capThatEnded(both, 1, 'Traceback...\nMemoryError\n'), 'memory');
    assert.equal(capThatEnded(both, 134, 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'), 'memory');
    assert.equal(capThatEnded(both, 0, 'MemoryError'), undefined);
    assert.equal(capThatEnded(both, 2, 'No such file'), undefined);
    assert.equal(capThatEnded({}, 152, ''), undefined, 'no cap set: not ours');
    assert.match(capMessage('memory', { memoryBytes: 200 * 1048576 }), /200 MB .*memoryLimitMb/);
  });

  it('says honestly where there is no cheap cap', async () => {
    const outcome = await applyLimits(1234, { memoryBytes: 1 }, 'darwin', () => Promise.reject(new Error('not called')));
    assert.deepEqual(outcome, { applied: false, reason: 'no cheap way to cap another process on darwin' });
  });
});

describeWhere(process.platform === 'linux' && hasCommand('prlimit') && hasCommand('python3'), 'needs Linux, prlimit and python3')('process limits on a real shell', function () {
  this.timeout(30_000);

  /** A shell that waits for its caps, then runs `script`; its output and exit code. */
  async function cappedShell(script: string, limits: { memoryBytes?: number; cpuSeconds?: number }): Promise<{ output: string; limitsFile: string }> {
    const shell = spawn('bash', ['-c', `read -r go; ${script}`], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    shell.stdout.on('data', (d: Buffer) => (output += d.toString()));
    shell.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const outcome = await applyLimits(shell.pid!, limits);
    assert.deepEqual(outcome, { applied: true });
    const limitsFile = readFileSync(`/proc/${shell.pid}/limits`, 'utf8');
    shell.stdin.write('go\n');
    await new Promise((resolve) => shell.on('close', resolve));
    return { output, limitsFile };
  }

  it('a runaway allocation fails under the memory cap, and the result would say so', async () => {
    const limits = { memoryBytes: 200 * 1048576 };
    const { output, limitsFile } = await cappedShell('python3 -c "a = bytearray(600 * 1024 * 1024)"; echo "exit $?"', limits);
    assert.match(limitsFile, new RegExp(`Max data size\\s+${200 * 1048576}\\s+${200 * 1048576}`), 'the kernel holds the cap');
    const exit = Number(/exit (\d+)/.exec(output)?.[1]);
    assert.equal(capThatEnded(limits, exit, output), 'memory', output);
  });

  it('a busy loop is stopped by the CPU cap (SIGXCPU: exit code 152)', async () => {
    const limits = { cpuSeconds: 1 };
    const { output } = await cappedShell('bash -c "while :; do :; done"; echo "exit $?"', limits);
    const exit = Number(/exit (\d+)/.exec(output)?.[1]);
    assert.equal(exit, 152, output);
    assert.equal(capThatEnded(limits, exit, output), 'cpuTime');
  });
});
