/**
 * Caps on a terminal's shell: the prlimit arguments, which cap ended a command, and on the REAL
 * machine a shell capped after it started: a runaway allocation fails under the memory cap, a busy
 * loop is stopped by the CPU cap (SIGXCPU, exit code 152), both told by capThatEnded.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { applyLimits, capMessage, capThatEnded, limitsFromSettings, prlimitArgs, type AppliedCaps } from '../../../extension/src/core/processes/processLimits';
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
    const both: AppliedCaps = { perProcess: { memoryBytes: 1, cpuSeconds: 1 } };
    assert.equal(capThatEnded(both, 152, ''), 'cpuTime');
    assert.equal(capThatEnded(both, 1, 'Traceback...\nMemoryError\n'), 'memory');
    assert.equal(capThatEnded(both, 134, 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'), 'memory');
    assert.equal(capThatEnded(both, 0, 'MemoryError'), undefined);
    assert.equal(capThatEnded(both, 2, 'No such file'), undefined);
    assert.equal(capThatEnded({ perProcess: {} }, 152, ''), undefined, 'no cap set: not ours');
    assert.equal(capThatEnded({ perProcess: {} }, 137, '', true), 'memory', 'the tree cap ended a process (its cgroup counted an OOM kill)');
    assert.equal(capThatEnded({ perProcess: {} }, 137, '', false), undefined);
  });

  it('says which cap, how big, and whether per tree or per process (and why not per tree)', () => {
    const noTree = 'cgroup v1: no memory controller mounted; cgroup v2: /sys/fs/cgroup hands its children no memory controller (only hugetlb)';
    assert.equal(
      capMessage('memory', { perProcess: { memoryBytes: 200 * 1048576 }, noTree }),
      `It ran out of memory under the memory cap: each process of this terminal may allocate 200 MB (terminalShepherd.processes.memoryLimitMb, per process only: ${noTree}).`,
    );
    const tree = { bytes: 200 * 1048576, cap: { mechanism: 'a cgroup v1 memory controller', dir: '/x', mark: () => undefined, endedSinceMark: async () => true, dispose: async () => undefined } };
    assert.equal(
      capMessage('memory', { perProcess: { memoryBytes: 200 * 1048576 }, tree }, true),
      "The memory cap ended it: this terminal's processes together may use 200 MB (terminalShepherd.processes.memoryLimitMb, per tree: a cgroup v1 memory controller), and the kernel killed a process at the cap.",
    );
    assert.match(capMessage('memory', { perProcess: { memoryBytes: 200 * 1048576 }, tree }, false), /each process of this terminal may allocate 200 MB \(.*per process as well as per tree\)/);
    assert.match(capMessage('cpuTime', { perProcess: { cpuSeconds: 30 } }), /each process of this terminal may use 30 CPU seconds \(terminalShepherd\.processes\.cpuTimeLimitSeconds, a per-process resource limit\)/);
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
    assert.equal(capThatEnded({ perProcess: limits }, exit, output), 'memory', output);
  });

  it('a busy loop is stopped by the CPU cap (SIGXCPU: exit code 152)', async () => {
    const limits = { cpuSeconds: 1 };
    const { output } = await cappedShell('bash -c "while :; do :; done"; echo "exit $?"', limits);
    const exit = Number(/exit (\d+)/.exec(output)?.[1]);
    assert.equal(exit, 152, output);
    assert.equal(capThatEnded({ perProcess: limits }, exit, output), 'cpuTime');
  });
});
