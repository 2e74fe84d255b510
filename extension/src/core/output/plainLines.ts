/**
 * Renders the common, simple kind of terminal line without the emulator: the renderer's fast path.
 *
 * Most command output is lines of printable text, colors, and `\r` progress updates, each ended by
 * CRLF. Written at the start of a blank row with default modes, such a line renders to a known
 * text, so a long run of them can skip xterm entirely (which costs about a microsecond per line
 * plus per character). A line qualifies only in two shapes whose result is certain:
 *
 *  - text: printable characters whose cell width is known and that never combine with a previous
 *    cell (a curated, conservative set: ASCII, Latin, Greek/Cyrillic, general symbols, box and
 *    block drawing, CJK and Hangul, emoji), plus SGR (colors) and BEL. Long lines simply wrap and
 *    are joined again, so the text is the line itself.
 *  - overlay: ASCII only, plus CR, BS, TAB, EL (CSI K) and SGR, never reaching the last column:
 *    replayed on a row of cells, which is how a terminal collapses progress bars.
 *
 * Anything else returns undefined and goes through xterm. Equality with xterm's result is checked
 * by differential tests (fast path on vs off) over random mixes of lines.
 */

/** BMP code units that print in one or two cells and never join a previous cell (xterm Unicode 6 widths). */
const SAFE_BMP = new Uint8Array(0x10000);
const SAFE_RANGES: Array<[number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0x2ff], // Latin-1, Latin Extended, IPA, spacing modifiers
  [0x370, 0x482], // Greek, Cyrillic (combining marks start at U+0483)
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e],
  [0x2070, 0x20cf], // super/subscripts, currency
  [0x2100, 0x2328], // letterlike, number forms, arrows, math, misc technical
  [0x232b, 0x27bf], // ..., box drawing, blocks, geometric shapes, misc symbols, dingbats
  [0x2800, 0x2e7f], // braille (spinners), arrows, math, misc symbols
  [0x2e80, 0x3029], // CJK radicals, punctuation (wide)
  [0x3030, 0x3098],
  [0x309b, 0xa4cf], // kana, CJK ideographs, Yi (wide)
  [0xac00, 0xd7a3], // Hangul syllables (wide)
  [0xff01, 0xff60], // fullwidth forms (wide)
  [0xffe0, 0xffe6],
];
for (const [from, to] of SAFE_RANGES) {
  SAFE_BMP.fill(1, from, to + 1);
}

/** Astral code points accepted (emoji and pictographs, CJK extension B+): no joining in Unicode 6. */
function safeAstral(cp: number): boolean {
  return (cp >= 0x1f000 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x2fffd);
}

export interface PlainLineState {
  readonly cols: number;
  /** Tab stops are the default every-8 ones (no HTS/TBC seen). */
  readonly defaultTabs: boolean;
}

/**
 * The text one line renders to (trailing spaces trimmed) when written at column 0 of a blank row,
 * or undefined when the line is not simple enough to be sure. `line` excludes its CRLF.
 */
export function renderPlainLine(line: string, state: PlainLineState): string | undefined {
  const n = line.length;
  let overlay = false;
  let nonAscii = false;
  let sequences = false;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) {
      continue;
    }
    if (c === 0x1b) {
      const end = csiEnd(line, i);
      if (end < 0) {
        return undefined;
      }
      const final = line.charCodeAt(end);
      if (final === 0x4b /* K */) {
        overlay = true;
      } else if (final !== 0x6d /* m */) {
        return undefined;
      }
      sequences = true;
      i = end;
    } else if (c === 0x0d || c === 0x08 || c === 0x09) {
      overlay = true;
    } else if (c === 0x07) {
      sequences = true;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const low = i + 1 < n ? line.charCodeAt(i + 1) : 0;
      if (low < 0xdc00 || low > 0xdfff || !safeAstral(((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000)) {
        return undefined;
      }
      nonAscii = true;
      i++;
    } else if (SAFE_BMP[c] === 1) {
      nonAscii = true;
    } else {
      return undefined;
    }
  }
  if (!overlay) {
    return trimSpaces(sequences ? stripSequences(line) : line);
  }
  if (nonAscii) {
    return undefined;
  }
  return replayOverlay(line, state);
}

/** Index of the final byte of a CSI sequence with numeric parameters at `start`, or -1. */
function csiEnd(line: string, start: number): number {
  if (line.charCodeAt(start + 1) !== 0x5b /* [ */) {
    return -1;
  }
  for (let j = start + 2; j < line.length; j++) {
    const c = line.charCodeAt(j);
    if ((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a) {
      continue;
    }
    return c >= 0x40 && c <= 0x7e ? j : -1;
  }
  return -1;
}

/** Removes SGR sequences and BELs (already validated). */
function stripSequences(line: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x1b) {
      out += line.slice(from, i);
      i = csiEnd(line, i);
      from = i + 1;
    } else if (c === 0x07) {
      out += line.slice(from, i);
      from = i + 1;
    }
  }
  return out + line.slice(from);
}

/** Replays an ASCII line with CR/BS/TAB/EL on a row of cells; undefined if it would reach the edge. */
function replayOverlay(line: string, state: PlainLineState): string | undefined {
  const cols = state.cols;
  const cells: string[] = []; // '' is an empty cell
  let x = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) {
      if (x >= cols) {
        return undefined; // would wrap: the row arithmetic is not worth replicating
      }
      cells[x++] = line[i]!;
    } else if (c === 0x0d) {
      x = 0;
    } else if (c === 0x08) {
      if (x >= cols) {
        return undefined;
      }
      if (x > 0) {
        x--;
      }
    } else if (c === 0x09) {
      const stop = ((x >> 3) + 1) << 3;
      if (!state.defaultTabs || stop >= cols) {
        return undefined;
      }
      x = stop;
    } else if (c === 0x1b) {
      const end = csiEnd(line, i);
      if (line.charCodeAt(end) === 0x4b /* K */) {
        if (x >= cols) {
          return undefined;
        }
        const param = line.slice(i + 2, end);
        if (param === '' || param === '0') {
          cells.length = Math.min(cells.length, x);
        } else if (param === '1') {
          for (let k = 0; k <= x; k++) {
            cells[k] = '';
          }
        } else if (param === '2') {
          cells.length = 0;
        } else {
          return undefined;
        }
      }
      i = end;
    }
    // BEL: nothing
  }
  let text = '';
  for (let k = 0; k < cells.length; k++) {
    const cell = cells[k];
    text += cell === undefined || cell === '' ? ' ' : cell;
  }
  return trimSpaces(text);
}

function trimSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) {
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}

export interface PlainRun {
  /** Index in the data where the run starts (a line start). */
  readonly start: number;
  /** Index just after the CRLF of the run's last line. */
  readonly end: number;
  /** The rendered text of each line. */
  readonly lines: string[];
  /** Index in the data where each line starts. */
  readonly starts: number[];
}

/**
 * The first run of at least `minLines` consecutive plain lines in `data` (lines end in "\r\n",
 * extra CRs before it are allowed), searching from the start of the data, which must be a line
 * start. Undefined if there is none.
 */
export function findPlainRun(data: string, minLines: number, state: PlainLineState): PlainRun | undefined {
  let lines: string[] = [];
  let starts: number[] = [];
  let runStart = 0;
  let pos = 0;
  // Most lines are printable ASCII only; find the next character that needs a closer look once,
  // instead of classifying every line character by character.
  const special = /[^\x20-\x7e\n]/g;
  let nextSpecial = -1;
  while (pos < data.length) {
    const nl = data.indexOf('\n', pos);
    if (nl < 0) {
      break;
    }
    let contentEnd = nl;
    while (contentEnd > pos && data.charCodeAt(contentEnd - 1) === 0x0d) {
      contentEnd--;
    }
    let text: string | undefined;
    if (contentEnd < nl) {
      if (nextSpecial < pos) {
        special.lastIndex = pos;
        nextSpecial = special.exec(data)?.index ?? data.length;
      }
      text = nextSpecial >= contentEnd ? trimSpaces(data.slice(pos, contentEnd)) : renderPlainLine(data.slice(pos, contentEnd), state);
    }
    if (text === undefined) {
      // not plain (or a bare LF): a run ends here
      if (lines.length >= minLines) {
        return { start: runStart, end: pos, lines, starts };
      }
      lines = [];
      starts = [];
      runStart = nl + 1;
    } else {
      lines.push(text);
      starts.push(pos);
    }
    pos = nl + 1;
  }
  if (lines.length >= minLines) {
    return { start: runStart, end: pos, lines, starts };
  }
  return undefined;
}
