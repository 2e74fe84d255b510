import assert from 'node:assert/strict';
import { OscParser } from '../../../extension/src/core/output/oscParser';
import { parseMarkerBody, unescapeOscValue, type PositionedShellMarker } from '../../../extension/src/core/output/shellMarkers';

const BEL = '\x07';
const ST = '\x1b\\';
const osc = (body: string, end = BEL): string => `\x1b]${body}${end}`;

interface Parsed {
  data: string;
  markers: PositionedShellMarker[];
}

/** Parses chunks in sequence; marker offsets are made absolute in the joined data. */
function parseChunks(chunks: readonly string[], parser = new OscParser()): Parsed {
  let data = '';
  const markers: PositionedShellMarker[] = [];
  for (const chunk of chunks) {
    const r = parser.parse(chunk);
    for (const m of r.markers) {
      markers.push({ ...m, offset: m.offset + data.length });
    }
    data += r.data;
  }
  data += parser.end();
  return { data, markers };
}

describe('OscParser', () => {
  it('passes text without markers through unchanged', () => {
    const text = 'plain \x1b[31mred\x1b[0m 中文 😀 e\u0301\r\n';
    assert.deepEqual(parseChunks([text]), { data: text, markers: [] });
  });

  it('extracts the VS Code markers of a run and removes them from the data', () => {
    const stream = `${osc('633;C')}hello\r\nworld\r\n${osc('633;D;0')}${osc('633;A')}$ ${osc('633;B')}`;
    const r = parseChunks([stream]);
    assert.equal(r.data, 'hello\r\nworld\r\n$ ');
    assert.deepEqual(r.markers, [
      { kind: 'commandExecuted', source: '633', offset: 0 },
      { kind: 'commandFinished', source: '633', exitCode: 0, offset: 14 },
      { kind: 'promptStart', source: '633', offset: 14 },
      { kind: 'commandStart', source: '633', offset: 16 },
    ]);
  });

  it('reads exit codes: present, negative, absent, malformed', () => {
    assert.deepEqual(parseMarkerBody('633;D;130'), { kind: 'commandFinished', source: '633', exitCode: 130 });
    assert.deepEqual(parseMarkerBody('633;D;-1'), { kind: 'commandFinished', source: '633', exitCode: -1 });
    assert.deepEqual(parseMarkerBody('633;D'), { kind: 'commandFinished', source: '633' });
    assert.deepEqual(parseMarkerBody('633;D;'), { kind: 'commandFinished', source: '633' });
    assert.deepEqual(parseMarkerBody('633;D;x1'), { kind: 'commandFinished', source: '633' });
    assert.deepEqual(parseMarkerBody('133;D;2;aid=7'), { kind: 'commandFinished', source: '133', exitCode: 2 });
  });

  it('unescapes the 633 E command line and keeps its nonce', () => {
    const r = parseChunks([osc('633;E;echo a\\x3bb \\\\ c\\x0ad;nonce-123')]);
    assert.deepEqual(r.markers, [{ kind: 'commandLine', source: '633', value: 'echo a;b \\ c\nd', nonce: 'nonce-123', offset: 0 }]);
    assert.deepEqual(parseMarkerBody('633;E;ls'), { kind: 'commandLine', source: '633', value: 'ls' });
    assert.deepEqual(parseMarkerBody('633;E;'), { kind: 'commandLine', source: '633', value: '' });
  });

  it('unescapes values: backslashes, hex bytes, UTF-8 byte runs, malformed escapes', () => {
    assert.equal(unescapeOscValue('a\\\\b'), 'a\\b');
    assert.equal(unescapeOscValue('\\x3B\\x3b'), ';;');
    assert.equal(unescapeOscValue('\\xe4\\xb8\\xad\\xe6\\x96\\x87'), '中文');
    assert.equal(unescapeOscValue('caf\\xe9'), 'café'); // not valid UTF-8: Latin-1, as VS Code does
    assert.equal(unescapeOscValue('\\x4'), '\\x4');
    assert.equal(unescapeOscValue('\\xZZ end\\'), '\\xZZ end\\');
    assert.equal(unescapeOscValue('中文 plain'), '中文 plain');
  });

  it('parses 633 P properties, with "=" and escapes in the value', () => {
    assert.deepEqual(parseMarkerBody('633;P;Cwd=/home/me/a\\x3bb'), { kind: 'property', source: '633', key: 'Cwd', value: '/home/me/a;b' });
    assert.deepEqual(parseMarkerBody('633;P;Key=a=b'), { kind: 'property', source: '633', key: 'Key', value: 'a=b' });
    assert.deepEqual(parseMarkerBody('633;P;IsWindows'), { kind: 'property', source: '633', key: 'IsWindows', value: '' });
  });

  it('parses FinalTerm (133) markers and keeps unknown commands as "other"', () => {
    const r = parseChunks([`${osc('133;A;cl=m')}> ${osc('133;B', ST)}ls\r\n${osc('133;C')}out${osc('133;D;1')}${osc('633;SetMark;Id=3')}${osc('133;L')}`]);
    assert.equal(r.data, '> ls\r\nout');
    assert.deepEqual(
      r.markers.map(({ offset: _o, ...m }) => m),
      [
        { kind: 'promptStart', source: '133' },
        { kind: 'commandStart', source: '133' },
        { kind: 'commandExecuted', source: '133' },
        { kind: 'commandFinished', source: '133', exitCode: 1 },
        { kind: 'other', source: '633', code: 'SetMark', args: ['Id=3'] },
        { kind: 'other', source: '133', code: 'L', args: [] },
      ],
    );
    assert.deepEqual(parseMarkerBody('633;F'), { kind: 'continuationStart', source: '633' });
    assert.deepEqual(parseMarkerBody('633;G'), { kind: 'continuationEnd', source: '633' });
  });

  it('passes other OSC sequences through byte for byte (titles, hyperlinks, ST terminators)', () => {
    const title = osc('0;my title');
    const link = `${osc('8;;https://example.com/a;b', ST)}link${osc('8;;', ST)}`;
    const notOurs = [osc('6330;x'), osc('63'), osc('1337;File=abc'), osc('13;x', ST), osc('633')];
    const stream = `${title}a${link}b${notOurs.slice(0, 4).join('')}`;
    assert.deepEqual(parseChunks([stream]), { data: stream, markers: [] });
    // A bare "633" has no command: removed, but yields no marker.
    assert.deepEqual(parseChunks([`x${notOurs[4]}y`]), { data: 'xy', markers: [] });
  });

  it('gives the same result for a split at every position, and byte by byte', () => {
    const stream = [
      osc('633;A'),
      '\x1b[32muser@host\x1b[0m:~$ ',
      osc('633;B'),
      osc('633;E;echo \\x22hi\\x22 \\\\ 中文;n0nce', ST),
      osc('633;C'),
      osc('0;title 😀'),
      'hello 中文 😀 e\u0301\r\n',
      `${osc('8;;http://x', ST)}link${osc('8;;', ST)}\r\n`,
      '1%\r50%\r100%\r\n',
      '\x1b\x1b[1m\x1b\r\x1b[0m',
      osc('133;D;3'),
      osc('633;P;Cwd=/tmp/a\\x3bb'),
      osc('633;D;42'),
      'tail\x1b',
    ].join('');
    const whole = parseChunks([stream]);
    assert.equal(whole.markers.length, 7);
    assert.ok(whole.data.endsWith('tail\x1b'));
    for (let split = 0; split <= stream.length; split++) {
      assert.deepEqual(parseChunks([stream.slice(0, split), stream.slice(split)]), whole, `split at ${split}`);
    }
    assert.deepEqual(parseChunks([...stream]), whole, 'one character at a time');
    for (let a = 0; a < stream.length; a += 7) {
      for (let b = a; b <= stream.length; b += 11) {
        assert.deepEqual(parseChunks([stream.slice(0, a), stream.slice(a, b), stream.slice(b)]), whole, `splits at ${a}, ${b}`);
      }
    }
  });

  it('ends an OSC at ESC like xterm: a marker right after another, and after a foreign OSC', () => {
    const r = parseChunks([`\x1b]633;A\x1b]633;B${BEL}x`]);
    assert.deepEqual(r.markers.map((m) => m.kind), ['promptStart', 'commandStart']);
    assert.equal(r.data, 'x');
    // The foreign OSC's closing ESC was passed on; a backslash completes it as a harmless ST.
    const s = parseChunks(['\x1b]0;title\x1b]633;C\x07x']);
    assert.equal(s.data, '\x1b]0;title\x1b\\x');
    assert.deepEqual(s.markers.map((m) => m.kind), ['commandExecuted']);
  });

  it('ignores C0 controls inside a marker and keeps ESC <control> ] an OSC opener, as xterm does', () => {
    assert.deepEqual(parseChunks(['\x1b]63\x013;C\x07']).markers.map((m) => m.kind), ['commandExecuted']);
    const r = parseChunks(['a\x1b\n]633;C\x07b']);
    assert.equal(r.data, 'a\nb');
    assert.deepEqual(r.markers.map((m) => m.kind), ['commandExecuted']);
  });

  it('drops a marker aborted by CAN/SUB or a C1 control', () => {
    assert.deepEqual(parseChunks(['a\x1b]633;D;1\x18b']), { data: 'ab', markers: [] });
    assert.deepEqual(parseChunks(['a\x1b]633;D;1\x1ab']), { data: 'ab', markers: [] });
  });

  it('drops an unterminated marker beyond the cap without buffering it', () => {
    const parser = new OscParser({ maxMarkerChars: 1024 });
    let data = '';
    data += parser.parse('before\x1b]633;E;').data;
    for (let i = 0; i < 1000; i++) {
      const r = parser.parse('x'.repeat(1000)); // 1 MB of marker body
      data += r.data;
      assert.equal(r.markers.length, 0);
    }
    const last = parser.parse('\x07after');
    assert.equal(data + last.data, 'beforeafter');
    assert.equal(last.markers.length, 0);
    // The parser still works afterwards.
    assert.deepEqual(parser.parse('\x1b]633;C\x07').markers.map((m) => m.kind), ['commandExecuted']);
  });

  it('streams a huge foreign OSC through instead of holding it', () => {
    const parser = new OscParser({ maxMarkerChars: 1024 });
    const first = parser.parse('\x1b]1337;File=inline=1:');
    assert.equal(first.data, '\x1b]1337;File=inline=1:');
    const body = 'A'.repeat(100_000);
    assert.equal(parser.parse(body).data, body);
    assert.equal(parser.parse('\x07done').data, '\x07done');
  });

  it('returns a held lone ESC at end(); an unfinished marker is dropped', () => {
    const parser = new OscParser();
    assert.equal(parser.parse('abc\x1b').data, 'abc');
    assert.equal(parser.end(), '\x1b');
    assert.equal(parser.parse('\x1b]0').data, '\x1b]0'); // known at once not to be ours: streamed
    assert.equal(parser.end(), '');
    assert.equal(parser.parse('\x1b]63').data, ''); // could still become a 633 marker
    assert.equal(parser.end(), '');
    assert.equal(parser.parse('x').data, 'x');
  });
});
