/**
 * Live runs: the shell reports its screen when a command starts (`633;P;TshepScreen=row,col,cols,rows`,
 * shell/pwshCommon.ps1), so a capture made knowing nothing of the screen (as every live run's is)
 * renders the output where it started, at the screen's size. The streams are shaped like VS Code's
 * execution stream of a pwsh command through ConPTY: it begins with the chunk that carries C
 * (PSReadLine's last repaint before it), blank lines are jumps to absolute rows (`CSI row;1H`).
 */
import assert from 'node:assert/strict';
import { OutputCapture, type OutputCaptureOptions } from '../../../extension/src/core/output/outputCapture';
import { parseScreenReport, type ScreenReport } from '../../../extension/src/core/output/outputStart';
import { createRunOutputFactory } from '../../../extension/src/core/output/runOutputFactory';
import { silentLogger } from '../../../common/src/logger';
import type { RunOutput } from '../../../extension/src/core/output/runOutput';
import { chunked, random } from './helpers';

const osc = (body: string): string => `\x1b]${body}\x07`;
const screen = (row: number, col: number, cols: number, rows: number): string => osc(`633;P;TshepScreen=${row},${col},${cols},${rows}`);

/** The output, fed whole, one character at a time and in random splits: the same every way, or the test says which differed. */
async function outputOf(raw: string, options: OutputCaptureOptions = {}): Promise<{ output: string; reports: ScreenReport[] }> {
  const results: Array<{ output: string; reports: ScreenReport[] }> = [];
  for (const split of [[raw], [...raw], ...[1, 2, 3].map((seed) => chunked(raw, random(seed), 9))]) {
    const reports: ScreenReport[] = [];
    const capture = new OutputCapture({ ...options, onScreen: (report) => reports.push(report) });
    for (const chunk of split) capture.write(chunk);
    await capture.close();
    results.push({ output: capture.snapshot().output, reports });
  }
  for (const [i, result] of results.entries()) assert.deepEqual(result, results[0], `split ${i} differs`);
  return results[0]!;
}

describe('OutputCapture: a screen the shell reports as the command starts (live runs)', () => {
  // `ls` in pwsh through ConPTY, 80x20, the prompt on row 0: PSReadLine repaints the typed line with
  // absolute rows in the chunk that carries C; the output's blank lines are \r\n and a jump over
  // a row to row 6 (1-based). The real screen shows: row 1 empty, row 2 "Directory", row 3 empty, row 4 "Mode".
  const repaint = '\x1b[?25l\x1b[1;12Hls\x1b[?25h\r\n';
  const ls = `\r\n    Directory: C:\\x\x1b[5;1HMode  Name\r\n----  ----\r\nd---- src\r\n${osc('633;D;0')}`;
  const expected = '\n    Directory: C:\\x\n\nMode  Name\n----  ----\nd---- src';

  it("ConPTY's absolute rows land where they did: no blank line the command did not print, and no property in the output", async () => {
    const live = await outputOf(`${repaint}${osc('633;E;ls')}${osc('633;C')}${screen(1, 0, 80, 20)}${ls}`);
    assert.equal(live.output, expected);
    assert.deepEqual(live.reports, [{ row: 1, col: 0, cols: 80, rows: 20 }]);
    assert.equal(live.output.includes('Tshep'), false);
    // The same stream without the report: the fresh screen's first row stands for row 1, one blank line too many.
    assert.equal((await outputOf(`${repaint}${osc('633;C')}${ls}`)).output, '\n    Directory: C:\\x\n\n\nMode  Name\n----  ----\nd---- src');
  });

  it('a capture already of the reported size (the terminal reported it before) renders the same', async () => {
    const live = await outputOf(`${repaint}${osc('633;C')}${screen(1, 0, 80, 20)}${ls}`, { cols: 80, rows: 20 });
    assert.equal(live.output, expected);
  });

  it('a full screen with the prompt on its last row: the output scrolls it as the real screen did', async () => {
    const raw = `${osc('633;C')}${screen(4, 0, 20, 5)}\r\none\r\ntwo\r\nthree\r\nxxxxx\x1b[5;1Hfour\x1b[K\r\nfive\r\n${osc('633;D;0')}`;
    assert.equal((await outputOf(raw)).output, '\none\ntwo\nthree\nfour\nfive');
  });

  it("VS Code's own pwsh integration: the report comes from the command file, after C and the echo's line break (pwsh 7.4.2)", async () => {
    const raw = `${osc('633;E;ls')}${osc('633;C')}\r\n${screen(2, 0, 80, 20)}hi\x1b[5;1Hthere\r\n${osc('633;D;0')}`;
    assert.equal((await outputOf(raw)).output, 'hi\n\nthere');
  });

  it('a report starting mid-row: the cells left of the cursor are the echo, not output', async () => {
    assert.equal((await outputOf(`${osc('633;C')}${screen(3, 7, 40, 10)}same row\r\nnext\r\n${osc('633;D;0')}`)).output, 'same row\nnext');
  });

  it("only the first command's report counts: a later one (a cascade in the same run) moves nothing", async () => {
    const raw = `${osc('633;C')}${screen(0, 0, 40, 10)}first\r\n${osc('633;D;0')}${osc('633;A')}PS> ${osc('633;B')}${osc('633;C')}${screen(9, 0, 40, 10)}second\r\n${osc('633;D;0')}`;
    const live = await outputOf(raw);
    assert.equal(live.output, 'first\nsecond');
    assert.equal(live.reports.length, 1);
  });

  it('a report that is no screen is ignored (and still never shown)', async () => {
    for (const value of ['1,0,80', '30,0,80,20', '0,90,80,20', '0,0,1,20', '0,0,5000,20', '-1,0,80,20', 'a,b,c,d']) {
      const live = await outputOf(`${osc('633;C')}${osc(`633;P;TshepScreen=${value}`)}out\r\n${osc('633;D;0')}`);
      assert.deepEqual(live, { output: 'out', reports: [] }, value);
    }
  });

  it('where nothing is cut as prompt (the extension-owned terminal), a report changes nothing', async () => {
    const live = await outputOf(`${screen(5, 0, 40, 10)}out\r\n`, { stripPromptAndEcho: false });
    assert.deepEqual(live, { output: 'out', reports: [] });
  });
});

describe('createRunOutputFactory: a terminal that reported its screen', () => {
  async function outputOfRun(output: RunOutput, raw: string): Promise<string> {
    output.write(raw);
    await output.close();
    return output.snapshot().output;
  }

  it("starts its next run's renderer at that size (seen in where a line wider than it wraps)", async () => {
    const create = createRunOutputFactory({ logsDir: '/nonexistent-never-written', limitChars: () => 10_000, logger: silentLogger });
    assert.equal(await outputOfRun(create('pwsh'), `${osc('633;C')}${screen(0, 0, 40, 10)}ok\r\n${osc('633;D;0')}`), 'ok');
    // 50 characters, back to the start of the row the cursor is on, one more: on a 40-column
    // screen that row is the wrapped rest, on the wide default it is the line's start.
    const overwrite = `${osc('633;C')}${'x'.repeat(50)}\ry\r\n${osc('633;D;0')}`;
    assert.equal(await outputOfRun(create('pwsh'), overwrite), `${'x'.repeat(40)}y${'x'.repeat(9)}`);
    assert.equal(await outputOfRun(create('another'), overwrite), `y${'x'.repeat(49)}`);
  });
});

describe('parseScreenReport', () => {
  it('reads row,col,cols,rows with the cursor on the screen', () => {
    assert.deepEqual(parseScreenReport('29,0,120,30'), { row: 29, col: 0, cols: 120, rows: 30 });
    assert.equal(parseScreenReport('30,0,120,30'), undefined);
    assert.equal(parseScreenReport('0,120,120,30'), undefined);
    assert.equal(parseScreenReport(' 1,0,120,30'), undefined);
  });
});
