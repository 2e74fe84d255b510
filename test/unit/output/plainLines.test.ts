import assert from 'node:assert/strict';
import { EscapeStateTracker } from '../../../extension/src/core/output/escapeState';
import { findPlainRun, renderPlainLine } from '../../../extension/src/core/output/plainLines';
import { render } from './helpers';

const state = { cols: 80, defaultTabs: true };

describe('renderPlainLine', () => {
  it('renders text lines: colors and BEL removed, trailing spaces trimmed', () => {
    assert.equal(renderPlainLine('hello world', state), 'hello world');
    assert.equal(renderPlainLine('\x1b[1;32mPASS\x1b[0m a.test.ts \x1b[38;2;1;2;3m(3 ms)\x1b[m', state), 'PASS a.test.ts (3 ms)');
    assert.equal(renderPlainLine('ding\x07 done   ', state), 'ding done');
    assert.equal(renderPlainLine('', state), '');
    assert.equal(renderPlainLine('x'.repeat(500), state), 'x'.repeat(500)); // wraps and is joined again
  });

  it('accepts width-known Unicode: Latin, CJK, box drawing, braille, emoji', () => {
    for (const text of ['résumé Ωμέγα Привет', '中文 한국어 ｆｕｌｌ', '─│█▏ ⠋⠙⠹ ✓ ✗ → •', '😀 🚀 👍 𠀀']) {
      assert.equal(renderPlainLine(text, state), text, text);
    }
  });

  it('refuses what only the emulator can render exactly', () => {
    const refused = [
      'e\u0301', // combining mark
      'a\u200bb', // zero-width space
      '\u26a0\ufe0f', // variation selector
      '\x1b[1Aup', // cursor movement
      '\x1b[?25l', // private mode
      '\x1b]0;t\x07', // OSC
      'a\x1b', // incomplete sequence
      'a\x0eb', // shift out
      'lone \ud800 surrogate',
      'del\x7f',
      'c1\x9b31m',
      'non-ascii with cr é\rx', // the row replay is ASCII only
    ];
    for (const line of refused) {
      assert.equal(renderPlainLine(line, state), undefined, JSON.stringify(line));
    }
  });

  it('replays CR, BS, TAB and erase in line on a row (progress bars)', () => {
    assert.equal(renderPlainLine('1%\r50%\r100%', state), '100%');
    assert.equal(renderPlainLine('downloading\rok', state), 'okwnloading');
    assert.equal(renderPlainLine('abcdef\r\x1b[Kxy', state), 'xy');
    assert.equal(renderPlainLine('abcdef\rab\x1b[0Kz', state), 'abz');
    assert.equal(renderPlainLine('abcdef\x1b[2Kgh', state), '      gh');
    assert.equal(renderPlainLine('abcdef\rabc\x1b[1Kz', state), '   zef');
    assert.equal(renderPlainLine('abc\b\bX', state), 'aXc');
    assert.equal(renderPlainLine('\b\bx', state), 'x');
    assert.equal(renderPlainLine('a\tb', state), 'a       b');
    assert.equal(renderPlainLine('a\tb', { cols: 80, defaultTabs: false }), undefined);
    assert.equal(renderPlainLine('x'.repeat(80) + '\ry', state), 'y' + 'x'.repeat(79));
    assert.equal(renderPlainLine('x'.repeat(81) + '\ry', state), undefined); // would wrap
    assert.equal(renderPlainLine('\x1b[5Kx', state), undefined);
  });

  it('agrees with the emulator on every accepted example', async () => {
    const lines = [
      'hello world', '\x1b[1;32mPASS\x1b[0m a.test.ts', 'ding\x07 done   ', 'x'.repeat(500), 'résumé Ωμέγα Привет',
      '中文 한국어 ｆｕｌｌ', '─│█▏ ⠋⠙⠹ ✓ ✗ → •', '😀 🚀 👍 𠀀', '1%\r50%\r100%', 'downloading\rok', 'abcdef\r\x1b[Kxy',
      'abcdef\rab\x1b[0Kz', 'abcdef\x1b[2Kgh', 'abcdef\rabc\x1b[1Kz', 'abc\b\bX', '\b\bx', 'a\tb', 'x'.repeat(80) + '\ry',
      `x${'中'.repeat(100)}`,
    ];
    const rendered = await render(lines.map((l) => `${l}\r\n`).join(''), { cols: 80, rows: 5, fastPath: false });
    assert.deepEqual(rendered.lines, lines.map((l) => renderPlainLine(l, state)));
  });
});

describe('renderPlainLine over the whole accepted character set', () => {
  it('agrees with the emulator for lines sampling every accepted range, at many wrap positions', async () => {
    const ranges: Array<[number, number]> = [
      [0x20, 0x7e], [0xa0, 0x2ff], [0x370, 0x482], [0x2010, 0x2027], [0x2030, 0x205e], [0x2070, 0x20cf],
      [0x2100, 0x2328], [0x232b, 0x27bf], [0x2800, 0x2e7f], [0x2e80, 0x3029], [0x3030, 0x3098], [0x309b, 0xa4cf],
      [0xac00, 0xd7a3], [0xff01, 0xff60], [0xffe0, 0xffe6], [0x1f000, 0x1faff], [0x20000, 0x2fffd],
    ];
    const chars: string[] = [];
    for (const [from, to] of ranges) {
      const step = Math.max(1, Math.floor((to - from) / 60));
      for (let cp = from; cp <= to; cp += step) {
        chars.push(String.fromCodePoint(cp));
      }
      chars.push(String.fromCodePoint(to));
    }
    // Every character at several offsets: lines of 1..40 of them, wrapping at 17 columns.
    const lines: string[] = [];
    for (let i = 0; i < chars.length; i += 3) {
      const len = 1 + (i % 40);
      lines.push(Array.from({ length: len }, (_, k) => chars[(i + k * 7) % chars.length]).join(''));
    }
    const narrow = { cols: 17, defaultTabs: true };
    const expected = lines.map((l) => renderPlainLine(l, narrow));
    assert.ok(expected.every((t) => t !== undefined));
    const rendered = await render(lines.map((l) => `${l}\r\n`).join(''), { cols: 17, rows: 4, fastPath: false });
    assert.deepEqual(rendered.lines, expected);
  });
});

describe('findPlainRun', () => {
  it('finds the first long run of plain CRLF lines with their positions', () => {
    const plain = (i: number): string => `line ${i}\r\n`;
    const data = `${plain(0)}\x1b[1Aup\r\n${Array.from({ length: 10 }, (_, i) => plain(i + 1)).join('')}bare\n${plain(99)}`;
    const run = findPlainRun(data, 5, state)!;
    assert.equal(data.slice(run.start, run.starts[0]), '');
    assert.equal(run.lines.length, 10);
    assert.deepEqual(run.lines, Array.from({ length: 10 }, (_, i) => `line ${i + 1}`));
    assert.equal(data.slice(run.end).startsWith('bare\n'), true);
    assert.equal(data.slice(run.starts[3], run.starts[4]), plain(4));
    assert.equal(findPlainRun(data, 11, state), undefined);
  });

  it('takes extra CRs before LF as one line end and stops at an unfinished line', () => {
    const run = findPlainRun('a\r\r\nb\r\nc', 1, state)!;
    assert.deepEqual(run.lines, ['a', 'b']);
    assert.equal(run.end, 7);
  });
});

describe('EscapeStateTracker', () => {
  const after = (...chunks: string[]): boolean => {
    const t = new EscapeStateTracker();
    for (const c of chunks) {
      t.feed(c);
    }
    return t.atGround;
  };

  it('is at ground after text and complete sequences', () => {
    assert.equal(after('text \x1b[31mred\x1b[0m\r\n'), true);
    assert.equal(after('\x1b]0;title\x07', '\x1b]8;;u\x1b\\x', '\x1b(B', '\x1bPq#0\x1b\\', '\x9b1m'), true);
    assert.equal(after('\x1b[1;'), false);
    assert.equal(after('\x1b[1;', '2H'), true);
  });

  it('is not at ground inside a sequence or string, wherever the data was cut', () => {
    assert.equal(after('abc\x1b'), false);
    assert.equal(after('\x1b('), false);
    assert.equal(after('\x1b]0;title\r\nstill title'), false);
    assert.equal(after('\x1bPq data\n'), false);
    assert.equal(after('\x1b_apc'), false);
    assert.equal(after('\x9d0;t'), false);
    assert.equal(after('\x1b]0;t', '\x18after'), true); // CAN aborts
    assert.equal(after('\x1b[1\x1b[2m'), true); // ESC restarts
    assert.equal(after('\x1b\n'), false); // C0 inside ESC keeps the escape state
  });
});
