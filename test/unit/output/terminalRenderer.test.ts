import assert from 'node:assert/strict';
import { TerminalRenderer } from '../../../extension/src/core/output/terminalRenderer';
import { chunked, joinLines, random, render } from './helpers';

describe('TerminalRenderer', () => {
  describe('what the terminal shows', () => {
    it('renders CRLF lines, with the screen holding what has not scrolled off', async () => {
      const r = await render('hello\r\nworld\r\n');
      assert.equal(r.emitted, '');
      assert.deepEqual(r.screen, ['hello', 'world']);
    });

    it('collapses a carriage-return progress bar to its final state', async () => {
      assert.deepEqual((await render('1%\r50%\r100%\r\ndone\r\n')).lines, ['100%', 'done']);
      // A shorter redraw leaves the rest of the longer one, as on a real screen.
      assert.deepEqual((await render('downloading 100\rok\r\n')).lines, ['okwnloading 100']);
    });

    it('applies erase in line (CSI K, 1K, 2K)', async () => {
      assert.deepEqual((await render('abcdef\r\x1b[Kxy\r\n')).lines, ['xy']);
      assert.deepEqual((await render('abcdef\rab\x1b[Kz\r\n')).lines, ['abz']);
      assert.deepEqual((await render('abcdef\x1b[3D\x1b[1Kz\r\n')).lines, ['   zef']);
      assert.deepEqual((await render('abcdef\x1b[2Kgh\r\n')).lines, ['      gh']);
    });

    it('resolves cursor-up redraws of a multi-line progress display (docker/npm style)', async () => {
      const frames = [
        'layer1: waiting\r\nlayer2: waiting\r\nlayer3: waiting\r\n',
        '\x1b[3A\x1b[2Klayer1: 10%\r\n\x1b[2Klayer2: 40%\r\n\x1b[2Klayer3: waiting\r\n',
        '\x1b[3A\x1b[2Klayer1: done\r\n\x1b[2Klayer2: done\r\n\x1b[2Klayer3: done\r\n',
        'all done\r\n',
      ];
      assert.deepEqual((await render(frames)).lines, ['layer1: done', 'layer2: done', 'layer3: done', 'all done']);
    });

    it('strips colors and other attributes', async () => {
      const r = await render('\x1b[1;31mred bold\x1b[0m \x1b[38;2;10;20;30mtrue\x1b[m \x1b[4:3munder\x1b[24m\r\n');
      assert.deepEqual(r.lines, ['red bold true under']);
    });

    it('joins a soft-wrapped long line back into one line, also when it scrolled off', async () => {
      const long = 'abcdefghij'.repeat(100); // 1000 chars, 4 rows at 300 columns
      assert.deepEqual((await render(`${long}\r\nnext\r\n`)).lines, [long, 'next']);
      const r = await render(`first\r\n${long}\r\n${'x\r\n'.repeat(20)}`, { cols: 40, rows: 5 });
      assert.equal(r.lines[1], long);
      assert.ok(r.emitted.includes(`${long}\n`), 'the wrapped line was emitted as one line');
    });

    it('expands tabs and applies backspace', async () => {
      assert.deepEqual((await render('a\tb\tc\r\n')).lines, ['a       b       c']);
      assert.deepEqual((await render('abc\b\bX\r\n')).lines, ['aXc']);
    });

    it('trims trailing spaces but keeps inner ones', async () => {
      assert.deepEqual((await render('a   b     \r\n   \r\n')).lines, ['a   b']);
    });

    it('keeps Unicode intact: CJK, emoji, combining marks, ZWJ sequences, wide chars at the wrap edge', async () => {
      const text = '中文字符 日本語 한국어 😀 👍🏽 e\u0301 n\u0303 👨\u200d👩\u200d👧 🇩🇪 ✓ → résumé';
      assert.deepEqual((await render(`${text}\r\n`)).lines, [text]);
      // 11 columns: the 6th wide char does not fit in the last column and wraps; no space appears.
      const cjk = '一二三四五六七八九十';
      assert.deepEqual((await render(`${cjk}\r\n`, { cols: 20, rows: 3 })).lines, [cjk]);
      const r = await render(`x${cjk}\r\n${'-\r\n'.repeat(5)}`, { cols: 20, rows: 3 });
      assert.equal(r.lines[0], `x${cjk}`);
    });

    it('handles a chunk split inside escape sequences and inside a surrogate pair', async () => {
      const data = 'a\x1b[31mred\x1b[0m 😀 中\x1b[2K\rline one 😀\r\n\x1b[1A\x1b[2Kline two\r\n';
      const whole = await render(data);
      assert.deepEqual(whole.lines, ['line two']);
      assert.deepEqual((await render([...data].flatMap((ch) => (ch.length === 2 ? [ch[0]!, ch[1]!] : [ch])))).lines, whole.lines);
      for (let split = 1; split < data.length; split++) {
        assert.deepEqual((await render([data.slice(0, split), data.slice(split)])).lines, whole.lines, `split at ${split}`);
      }
    });

    it('ignores title and hyperlink OSC sequences', async () => {
      assert.deepEqual((await render('\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ text\r\n')).lines, ['link text']);
    });

    it('shows the normal screen while a full-screen program uses the alternate screen', async () => {
      let emitted = '';
      const renderer = new TerminalRenderer({ onOutput: (t) => (emitted += t), rows: 5 });
      renderer.write('before 1\r\nbefore 2\r\n\x1b[?1049h\x1b[H\x1b[2J');
      for (let i = 0; i < 20; i++) {
        renderer.write(`vim line ${i}\r\n`);
      }
      await renderer.flush();
      assert.equal(renderer.alternateScreenActive, true);
      assert.deepEqual(renderer.currentScreen(), ['before 1', 'before 2']);
      renderer.write('\x1b[?1049lafter\r\n');
      await renderer.flush();
      assert.equal(renderer.alternateScreenActive, false);
      assert.equal(emitted, '', 'alternate screen rows never reach the output');
      assert.deepEqual(renderer.currentScreen(), ['before 1', 'before 2', 'after']);
      renderer.dispose();
    });

    it('keeps lines that scrolled off across clear (ED 3) and a full reset (RIS)', async () => {
      const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
      const r = await render(`${lines.join('\r\n')}\r\n\x1b[H\x1b[2J\x1b[3Jafter clear\r\n`, { rows: 5 });
      assert.deepEqual(r.lines, [...lines.slice(0, 26), 'after clear']);
      const s = await render(`${lines.join('\r\n')}\r\n\x1bcafter reset\r\n`, { rows: 5 });
      assert.deepEqual(s.lines, [...lines.slice(0, 26), 'after reset']);
    });

    it('ignores an absurd repeat count instead of allocating for it', async () => {
      assert.deepEqual((await render('a\x1b[999999999bz\r\n')).lines, ['az']);
      assert.deepEqual((await render('a\x1b[3bz\r\n')).lines, ['aaaaz']);
    });
  });

  describe('emitting final lines', () => {
    it('emits 100k lines exactly once and in order, whatever the chunking', async () => {
      const expected = Array.from({ length: 100_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 37)}`.trimEnd());
      const data = expected.map((l) => `${l}\r\n`).join('');
      for (const [name, chunks, fastPath] of [
        ['one chunk', [data], true],
        ['random chunks', chunked(data, random(1), 5000), true],
        ['random chunks, emulator only', chunked(data, random(2), 5000), false],
      ] as const) {
        const r = await render(chunks, { rows: 7, fastPath });
        assert.equal(r.lines.length, expected.length, name);
        assert.deepEqual(r.lines, expected, name);
        assert.equal(r.screen.length, 6, `${name}: only the last screenful is not final`);
      }
    }).timeout(60_000);

    it('emits a line as soon as it scrolled off, not later', async () => {
      let emitted = '';
      const renderer = new TerminalRenderer({ onOutput: (t) => (emitted += t), rows: 3 });
      renderer.write('a\r\nb\r\n');
      await renderer.flush();
      assert.equal(emitted, '');
      renderer.write('c\r\n');
      await renderer.flush();
      assert.equal(emitted, 'a\n');
      assert.deepEqual(renderer.currentScreen(), ['b', 'c']);
      renderer.dispose();
    });

    it('emits an endless line in bounded pieces that add up to the line', async () => {
      const long = 'abcdefghijklmnopqrstuvwxyz'.repeat(4000); // 104,000 chars, no newline
      let emitted = '';
      const pieces: number[] = [];
      const renderer = new TerminalRenderer({ onOutput: (t) => { emitted += t; pieces.push(t.length); }, cols: 100, rows: 3, maxLineChars: 5000 });
      for (const chunk of chunked(long, random(3), 3000)) {
        renderer.write(chunk);
      }
      await renderer.flush();
      assert.ok(pieces.length > 10 && Math.max(...pieces) <= 5100, `pieces ${pieces.length}, max ${Math.max(...pieces)}`);
      assert.equal(emitted + renderer.currentScreen().join('\n'), long);
      renderer.write('\r\nend\r\n');
      await renderer.flush();
      assert.deepEqual(joinLines(emitted, renderer.currentScreen()), [long, 'end']);
      renderer.dispose();
    });

    it('starts output on a fresh line on request, without adding blank lines', async () => {
      let emitted = '';
      const renderer = new TerminalRenderer({ onOutput: (t) => (emitted += t) });
      renderer.write('abc');
      renderer.ensureLineStart();
      renderer.write('def\r\n');
      renderer.ensureLineStart();
      renderer.write('ghi\r\n');
      await renderer.flush();
      assert.deepEqual(joinLines(emitted, renderer.currentScreen()), ['abc', 'def', 'ghi']);
      renderer.dispose();
    });

    it('judges a line end by the row that followed it, even if rows are then scrolled away in place', async () => {
      // "a" scrolls off, then CSI S removes the rows below it, bringing a wrapped row up.
      const data = `a\r\nb\r\n${'y'.repeat(15)}\r\n\x1b[4;1H\x1b[2S`;
      const r = await render(data, { cols: 10, rows: 4, fastPath: false });
      assert.equal(r.lines[0], 'a');
    });
  });

  describe('fast path', () => {
    const fuzzPieces = ['abc', 'hello world', '  spaced  ', '\x1b[31mred\x1b[0m', '中文', '😀', 'é', '\u0301', '\t', '\b', '\r', '\x1b[K', '\x1b[2K', '\x1b[1K', '\x1b[1A', '\x1b[3;5H', '\x07', '─│█', '\u200b', '\x1b[?1049h', '\x1b[?1049l', '\x1b(0qqq\x1b(B', '\x0eabc\x0f', '\x1b[2;10r', '\x1b[r', 'x'.repeat(90), '⠋', 'Ω', '\x1b[4h', '\x1b[4l', '\x1bc', '\x1b[3J', '\x1b[2J', '\x1bH', '\x1b[3g', '\x1b]0;title\x07', '\x1b]0;unterminated', '\x1bPq#0;2\x1b\\', '\x1b[?7l', '\x1b[?7h', '\x1b[?6h', '\x1b[?6l', '\x1b7', '\x1b8', '\x1bD', '\x1bM', '\x1b[5S', '\x1b[2T', '\x1b[L', '\x1b[M', '\x18'];
    const plainPieces = ['abc', 'hello world', '  spaced  ', '\x1b[31mred\x1b[0m', '中文', '😀', 'é', '─│█', '⠋', 'Ω', 'x'.repeat(90), '\x07', '  '];
    const asciiPieces = ['abc', 'hello world', '  spaced  ', '\x1b[31mred\x1b[0m', '\r', '\x1b[K', '\x1b[2K', '\x1b[1K', '\t', '\b', 'x'.repeat(30), '\x07', '\x1b[0K'];

    it('renders exactly like the emulator alone (differential, random mixes)', async () => {
      const rand = random(42);
      let direct = 0;
      for (let iter = 0; iter < 40; iter++) {
        const cols = 20 + Math.floor(rand() * 100);
        const rows = 3 + Math.floor(rand() * 20);
        const plainShare = rand() < 0.3 ? rand() : 0.97 + rand() * 0.03;
        let data = '';
        const lines = Math.floor(rand() * 600);
        for (let i = 0; i < lines; i++) {
          const plain = rand() < plainShare;
          const set = plain ? (rand() < 0.5 ? asciiPieces : plainPieces) : fuzzPieces;
          const count = Math.floor(rand() * 6);
          for (let j = 0; j < count; j++) {
            data += set[Math.floor(rand() * set.length)];
          }
          data += rand() < 0.97 ? '\r\n' : rand() < 0.5 ? '\n' : '';
        }
        const chunks = chunked(data, rand, 3000);
        const slow = await render(chunks, { cols, rows, fastPath: false, sliceChars: 4096 });
        const fast = await render(chunks, { cols, rows, fastPath: true, sliceChars: 4096 });
        assert.deepEqual(fast.lines, slow.lines, `iteration ${iter} (cols ${cols}, rows ${rows})`);
        direct += fast.directLines;
      }
      assert.ok(direct > 300, `the fast path was exercised (${direct} lines)`);
    }).timeout(120_000);

    it('keeps cursor save/restore positions exact after skipping lines', async () => {
      const data = `\x1b7${'line\r\n'.repeat(500)}\x1b8restored\r\n`;
      const slow = await render(data, { rows: 10, fastPath: false });
      const fast = await render(data, { rows: 10, fastPath: true });
      assert.ok(fast.directLines > 0);
      assert.deepEqual(fast.lines, slow.lines);
    });

    it('stays off while the state makes plain lines render differently', async () => {
      const body = 'qqq\r\n'.repeat(300);
      // DEC line drawing: "q" is a horizontal line.
      const charset = await render(`\x1b(0${body}`, { rows: 10 });
      assert.equal(charset.directLines, 0);
      assert.equal(charset.lines[0], '───');
      // Scroll region set: lines scroll inside it only.
      const region = await render(`\x1b[2;5r${body}`, { rows: 10 });
      assert.equal(region.directLines, 0);
      assert.deepEqual(region.lines, (await render(`\x1b[2;5r${body}`, { rows: 10, fastPath: false })).lines);
    });
  });

  describe('lifetime', () => {
    it('resolves flush when idle, ignores writes after dispose, and releases a pending flush on dispose', async () => {
      const renderer = new TerminalRenderer({ onOutput: () => undefined });
      await renderer.flush();
      renderer.write('x'.repeat(1_000_000));
      const pending = renderer.flush();
      renderer.dispose();
      await pending;
      renderer.write('ignored');
      assert.deepEqual(renderer.currentScreen(), []);
      assert.equal(renderer.pendingChars, 0);
      renderer.dispose();
    });

    it('does not hang a flush when the emulator stops calling back', async () => {
      const renderer = new TerminalRenderer({ onOutput: () => undefined, stallMs: 200 });
      await renderer.flush();
      // Simulate xterm's write queue getting stuck (an exception inside its parser does that).
      (renderer as unknown as { term: { write: (data: string, cb: () => void) => void } }).term.write = () => undefined;
      renderer.write('lost\r\n');
      const started = Date.now();
      await renderer.flush();
      assert.ok(Date.now() - started < 5000);
      assert.match(String(renderer.error), /no progress/);
      renderer.write('ignored');
      await renderer.flush();
      renderer.dispose();
    });

    it('keeps rendering when the output consumer throws', async () => {
      let calls = 0;
      const renderer = new TerminalRenderer({ onOutput: () => { calls++; throw new Error('consumer bug'); }, rows: 3 });
      renderer.write('a\r\nb\r\nc\r\nd\r\n');
      await renderer.flush();
      assert.ok(calls > 0);
      assert.match(String(renderer.error), /consumer bug/);
      assert.deepEqual(renderer.currentScreen(), ['c', 'd']);
      renderer.dispose();
    });

    it('holds no unprocessed data after flush', async () => {
      const renderer = new TerminalRenderer({ onOutput: () => undefined });
      for (let i = 0; i < 1000; i++) {
        renderer.write(`line ${i}\r\n`);
      }
      assert.ok(renderer.pendingChars > 0);
      await renderer.flush();
      assert.equal(renderer.pendingChars, 0);
      assert.equal(renderer.lostOutput, false);
      renderer.dispose();
    });
  });

  describe('emulator reuse', () => {
    /** What earlier runs may leave behind in an emulator. */
    const leftovers: Array<[string, string]> = [
      ['the alternate screen on', 'vim\x1b[?1049h\x1b[Hfull screen app'],
      ['a scroll region', '\x1b[5;10r\x1b[5Hinside'],
      ['the DEC graphics charset and SO', '\x1b(0\x1b)0\x0eqqq'],
      ['tab stops cleared and odd ones set', '\x1b[3g\x1b[4G\x1bH\x1b[11G\x1bH'],
      ['colors and attributes', '\x1b[1;4;31;44mloud'],
      ['origin, insert and no-wraparound modes, a saved cursor', '\x1b[3;20r\x1b[?6h\x1b[4h\x1b[?7l\x1b[5;5H\x1b7'],
      ['a soft-wrapped line at the bottom', 'x'.repeat(1000)],
      ['scrolled output', Array.from({ length: 400 }, (_, i) => `old line ${i}`).join('\r\n')],
    ];
    /** Uses what those would break: tabs, plain ASCII that a charset remaps, wrapping, scrolling, cursor moves. */
    const probe =
      'a\tb\tc\r\nqqq lmn\r\n' + 'y'.repeat(650) + '\r\n' + Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\r\n') +
      '\r\n\x1b[2Aup two\x1b[2B\r\nprogress 1%\rprogress 100%\r\nend\r\n';

    for (const [left, leftover] of leftovers) {
      it(`renders like a fresh emulator after an earlier run left ${left}`, async () => {
        const fresh = await render(probe, { reuseEmulator: false });
        let emitted = '';
        const earlier = new TerminalRenderer({ onOutput: () => undefined });
        earlier.write(leftover);
        await earlier.flush();
        earlier.dispose();
        const renderer = new TerminalRenderer({ onOutput: (text) => (emitted += text) });
        try {
          assert.equal(renderer.reusedEmulator, true, 'the earlier emulator was at rest: it is reused');
          renderer.write(probe);
          await renderer.flush();
          assert.deepEqual(joinLines(emitted, renderer.currentScreen()), fresh.lines);
        } finally {
          renderer.dispose();
        }
      });
    }

    it('never reuses an emulator left inside an escape sequence, or stalled', async () => {
      const earlier = new TerminalRenderer({ onOutput: () => undefined });
      earlier.write('\x1b]0;a title that never ends');
      await earlier.flush();
      earlier.dispose();
      const next = new TerminalRenderer({ onOutput: () => undefined });
      assert.equal(next.reusedEmulator, false);
      next.dispose();
    });
  });
});
