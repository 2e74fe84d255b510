/**
 * A command's output rendered where it started on the real screen (ConPTY paints with absolute
 * rows), and prompts that mark themselves only with OSC 133. Shapes taken from VS Code's
 * recordings of pwsh on Windows 11 (see windowsRecordings.test.ts), reduced to what each proves.
 */
import assert from 'node:assert/strict';
import { OutputCapture, type OutputCaptureOptions } from '../../../extension/src/core/output/outputCapture';
import { chunked, random } from './helpers';

const osc = (body: string): string => `\x1b]${body}\x07`;

async function outputOf(raw: string, options: OutputCaptureOptions, seed?: number): Promise<string> {
  const capture = new OutputCapture(options);
  for (const chunk of seed === undefined ? [raw] : chunked(raw, random(seed), 7)) capture.write(chunk);
  await capture.close();
  return capture.snapshot().output;
}

describe('OutputCapture: output from where it started on the screen', () => {
  // pwsh's `ls` through ConPTY: a blank line printed as \r\n, then a jump over a blank row to row 5.
  const ls = `${osc('633;C')}\r\n    Directory: C:\\x\x1b[5;1HMode  Name\r\n----  ----\r\nd---- src\r\n${osc('633;D;0')}`;

  it("ConPTY's absolute rows land where they did: no blank line the command did not print", async () => {
    const origin = { row: 1, col: 0 };
    assert.equal(await outputOf(ls, { cols: 80, rows: 20, origin }), '\n    Directory: C:\\x\n\nMode  Name\n----  ----\nd---- src');
    // Without the origin the first row stands for row 1 of the screen: one blank row too many.
    assert.equal(await outputOf(ls, { cols: 80, rows: 20 }), '\n    Directory: C:\\x\n\n\nMode  Name\n----  ----\nd---- src');
    for (const seed of [1, 2, 3]) assert.equal(await outputOf(ls, { cols: 80, rows: 20, origin }, seed), '\n    Directory: C:\\x\n\nMode  Name\n----  ----\nd---- src', `seed ${seed}`);
  });

  it('a full screen with the prompt at the last row: output scrolls, absolute rows then count from the scrolled screen', async () => {
    // 5 rows; the command starts on the last one. Each \r\n scrolls; ConPTY then repaints the
    // last line with an absolute move to row 5 and a line that overwrites it.
    const raw = `${osc('633;C')}\r\none\r\ntwo\r\nthree\r\nxxxxx\x1b[5;1Hfour\x1b[K\r\nfive\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, { cols: 20, rows: 5, origin: { row: 4, col: 0 } }), '\none\ntwo\nthree\nfour\nfive');
  });

  it("the line break that ends the typed command after C (pwsh 7.4.2) is the echo's, not an empty line of output", async () => {
    const raw = `${osc('633;E;echo hi')}${osc('633;C')}\r\nhi\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, { cols: 80, rows: 24, origin: { row: 2, col: 20 } }), 'hi');
    // Output written on that row after the command line is output, from the cursor's column on.
    assert.equal(await outputOf(`${osc('633;C')}same row\r\nnext\r\n${osc('633;D;0')}`, { cols: 80, rows: 24, origin: { row: 2, col: 20 } }), 'same row\nnext');
  });

  it('a command that clears the screen (cls): what it draws after, from the top, is its output, as a person sees it', async () => {
    const raw = `${osc('633;C')}before\r\n\x1b[H\x1b[2J\x1b[3Jtop\r\nnext\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, { cols: 40, rows: 10, origin: { row: 6, col: 0 } }), 'top\nnext');
    assert.equal(await outputOf(raw, { cols: 40, rows: 10 }), 'top\nnext');
  });

  it("PSReadLine's last repaint in the chunk that carries C (absolute rows, a wrapped command line) is no output, origin known or not", async () => {
    // Recorded from pwsh 7.6.9 under a Linux pty (test/fixtures/pwshRecordings, wider-than-terminal session).
    const raw = `\x1b[?25l\x1b[5;27H1..3 | % { 'abc' * 25 }\x1b[6;10H\x1b[?25h\r\n${osc('633;E;x')}${osc('633;C')}abc\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, { cols: 40, rows: 12 }), 'abc');
    assert.equal(await outputOf(raw, { cols: 40, rows: 12, origin: { row: 6, col: 0 } }), 'abc');
  });

  it('a full-screen program on the alternate screen that clears it leaves the prompt rows hidden', async () => {
    const raw = `${osc('633;C')}before\r\n\x1b[?1049h\x1b[H\x1b[2Jeditor\x1b[?1049lafter\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, { cols: 40, rows: 10, origin: { row: 6, col: 0 } }), 'before\nafter');
  });

  it('lines wider than the screen wrap at its width and read as one line', async () => {
    const long = 'x'.repeat(50);
    assert.equal(await outputOf(`${osc('633;C')}${long}\r\n${osc('633;D;0')}`, { cols: 20, rows: 5, origin: { row: 4, col: 0 } }), long);
  });
});

describe('PromptEchoFilter: prompts marked only with OSC 133', () => {
  it("powerlevel10k's redraw of the prompt and the typed command before 133;C stays out of the output", async () => {
    const raw = `\x1b[?2004l\r\r\x1b[A\x1b[J${osc('133;A')}❯ ${osc('133;B')}ls\x1b[K\r\r\n${osc('133;C;')}test\r\n${osc('133;D;0')}${osc('133;A')}❯ `;
    assert.equal(await outputOf(raw, {}), 'test');
  });

  it("in a session with VS Code's 633 marks, a nested program's own 133 marks hide nothing", async () => {
    const raw = `${osc('633;C')}outer\r\n${osc('133;A')}inner prompt$ ${osc('133;B')}typed\r\n${osc('133;C')}inner output\r\n${osc('633;D;0')}`;
    assert.equal(await outputOf(raw, {}), 'outer\ninner prompt$ typed\ninner output');
  });
});
