import assert from 'node:assert/strict';
import { COPILOT_COMMANDS, outputShape, readResult } from '../../bench/toolResults';

const seq = COPILOT_COMMANDS.find((c) => c.command === 'seq 1 200000')!;
const ls = COPILOT_COMMANDS.find((c) => c.command.startsWith('ls '))!;
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)).join('\n');

describe('what a terminal tool returned (the side-by-side bench reads results with it)', () => {
  it('output shapes: complete, head and tail, tail only, head only, partial, missing', () => {
    assert.equal(outputShape(lines(1, 200000), seq.lines), 'complete');
    assert.equal(outputShape(`${lines(1, 100)}\n[... 199800 lines omitted ...]\n${lines(199901, 200000)}`, seq.lines), 'head and tail');
    assert.equal(outputShape(`${lines(198972, 200000)}\n\nOutput exceeded terminal scrollback; beginning of output was lost`, seq.lines), 'tail only');
    assert.equal(outputShape(lines(1, 500), seq.lines), 'head only');
    assert.equal(outputShape(lines(500, 600), seq.lines), 'partial');
    assert.equal(outputShape('', ['finished']), 'missing');
    assert.equal(outputShape('anything', []), 'complete');
  });

  it("terminal_run: the exit code and the output from its structured result", () => {
    const text = JSON.stringify({ status: 'completed', output: ls.lines[0], exitCode: 2, name: 'bench', durationMs: 40 });
    assert.deepEqual(readResult('terminal_run', text, ls), { exitCode: 2, shape: 'complete', fullOutputFile: false, durationMs: 40 });
    const big = JSON.stringify({ status: 'completed', output: `1\n...\n200000`, exitCode: 0, name: 'b', durationMs: 900, truncated: true, outputFile: '/w/.devtools/logs/x.log' });
    assert.deepEqual(readResult('terminal_run', big, seq), { exitCode: 0, shape: 'head and tail', fullOutputFile: true, durationMs: 900 });
    assert.equal(readResult('terminal_run', 'error -32602: oops', ls).error, 'error -32602: oops');
  });

  it('run_in_terminal: prose, with an exit code only when it says one', () => {
    assert.deepEqual(readResult('run_in_terminal', ls.lines[0], ls), { shape: 'complete', fullOutputFile: false });
    assert.equal(readResult('run_in_terminal', `${ls.lines[0]}\n\nCommand exited with code 2`, ls).exitCode, 2);
    assert.equal(readResult('run_in_terminal', 'Output saved to /tmp/out-1.txt', seq).fullOutputFile, true);
  });
});
