/**
 * Finds the environment's secret values in a text in one pass for all of them (Wu–Manber): a
 * table says, for the last 3 characters of a window as long as the shortest value, how far the
 * window may move before one of the values could end in it. Most windows of ordinary output hold
 * none of the values' 3-character blocks, so the scan moves almost a whole value's length at a
 * time; a window that may hold one is checked with `startsWith`. One `indexOf` pass per value cost
 * 3–6 ms per 20 MB each; the table is built once per redactor (a settings or environment change).
 * Values are grouped by length so one short value does not shorten the moves for the long ones.
 * A second table does the same for the last 2 characters: both moves are safe, so the larger is
 * taken, and where the 2 characters end no value's block (most windows) the third is never read.
 * A value holding a character its caller scans for anyway (an anchor: secretLines.ts's `-`, `_`…)
 * is looked for only at that scan's hits, by the anchor and the character after it: no pass of its
 * own (the pass cost 2.5–4.5 ms per 20 MB with 8 values; the look at a hit costs a table read).
 * Values without one (random letters and digits, as most tokens are) are looked for the same way at
 * a letter rare in output (`Q`, `Z`, `x`…) scanned for on its own (scanOwnLetters): a scan over
 * output without that letter costs about 0.4 ms per 20 MB, so up to MAX_OWN_SCANS of them beat the
 * pass, which costs the same for one value as for eight (about 3 ms): they are used only when they
 * cover every such value, and a text where they are common (base64) gets the pass after all.
 */

const BLOCK = 3;
const TABLE_BITS = 14;
const MASK = (1 << TABLE_BITS) - 1;
/** Values from this length on share the long group (its moves are at least this minus BLOCK). */
const LONG_VALUE = 12;
/** At most this many letters scanned on their own for the values that hold no anchor. */
const MAX_OWN_SCANS = 3;
/**
 * Places of those letters per character of text past which the pass is cheaper (a place handed
 * back costs about 35 ns, the pass about 0.15 ns a character): in base64 or hex dumps, where the
 * letters are common, the values looked for at them take the pass instead.
 */
const OWN_SCAN_PLACES_PER_CHAR = 1 / 256;

const blockHash = (text: string, end: number): number =>
  ((text.charCodeAt(end - 2) << 10) ^ (text.charCodeAt(end - 1) << 5) ^ text.charCodeAt(end)) & MASK;
/** Two ASCII characters each have a slot of their own (7 bits each). */
const pairHash = (text: string, end: number): number => ((text.charCodeAt(end - 1) << 7) ^ text.charCodeAt(end)) & MASK;

/** One group of values, all at least `window` characters long. */
class ShiftTable {
  private readonly window: number;
  private readonly shift: Uint8Array;
  /** The moves by the last 2 characters, and the longest (no value's block ends with them). */
  private readonly pairShift: Uint8Array;
  private readonly pairMove: number;
  /** The values that end with a block of this hash. */
  private readonly ends = new Map<number, string[]>();

  constructor(values: readonly string[]) {
    this.window = Math.min(...values.map((value) => value.length));
    this.shift = new Uint8Array(MASK + 1).fill(Math.min(255, this.window - BLOCK + 1));
    this.pairMove = Math.min(255, this.window - 1);
    this.pairShift = new Uint8Array(MASK + 1).fill(this.pairMove);
    for (const value of values) {
      // Each value's last `window` characters: the end of a value (its random part, past a
      // prefix such as `ghp_` or `sk-`) is the least common in output, so windows move farther.
      const first = value.length - this.window;
      for (let end = first + BLOCK - 1; end < value.length; end++) {
        const hash = blockHash(value, end);
        this.shift[hash] = Math.min(this.shift[hash]!, value.length - 1 - end);
      }
      for (let end = first + 1; end < value.length; end++) {
        const hash = pairHash(value, end);
        this.pairShift[hash] = Math.min(this.pairShift[hash]!, value.length - 1 - end);
      }
      const hash = blockHash(value, value.length - 1);
      const list = this.ends.get(hash);
      if (list) list.push(value);
      else this.ends.set(hash, [value]);
    }
  }

  scan(text: string, found: (start: number, end: number) => void): void {
    const { window, shift, pairShift, pairMove } = this;
    const length = text.length;
    for (let end = window - 1; end < length; ) {
      const pair = pairShift[pairHash(text, end)]!;
      if (pair === pairMove) {
        end += pair;
        continue;
      }
      const hash = blockHash(text, end);
      const move = Math.max(pair, shift[hash]!);
      if (move > 0) {
        end += move;
        continue;
      }
      for (const value of this.ends.get(hash) ?? []) {
        const start = end + 1 - value.length;
        if (start >= 0 && text.startsWith(value, start)) found(start, end + 1);
      }
      end++;
    }
  }
}

/** Where a value is looked for at an anchor's hits: the value and the anchor's offset in it. */
type Anchored = readonly [value: string, offset: number];

/** The first place in `value` of one of `anchors` (in their order) with a character after it, or -1. */
function anchorOffset(value: string, anchors: string): number {
  for (const anchor of anchors) {
    const offset = value.indexOf(anchor);
    if (offset >= 0 && offset < value.length - 1) return offset;
  }
  return -1;
}

/**
 * Up to MAX_OWN_SCANS of `letters` that together are in every one of `values` (each with a
 * character after it), chosen greedily by how many values each covers, rarest first on a tie; ''
 * when they cover not all (the pass then takes them all).
 */
function ownScanLetters(values: readonly string[], letters: string): string {
  let chosen = '';
  let rest = values;
  while (rest.length > 0 && chosen.length < MAX_OWN_SCANS) {
    let bestLetter = '';
    let bestCount = 0;
    for (const letter of letters) {
      const count = rest.filter((value) => anchorOffset(value, letter) >= 0).length;
      if (count > bestCount) [bestLetter, bestCount] = [letter, count];
    }
    if (bestCount === 0) return '';
    chosen += bestLetter;
    rest = rest.filter((value) => anchorOffset(value, bestLetter) < 0);
  }
  return rest.length === 0 ? chosen : '';
}

const asciiOnly = (chars: string): string => chars.replace(/[^\x00-\x7f]/g, '');

/** The pass's tables for `values`, short values apart so they do not shorten the long ones' moves. */
function shiftTables(values: readonly string[]): readonly ShiftTable[] {
  const long = values.filter((value) => value.length >= LONG_VALUE);
  const short = values.filter((value) => value.length < LONG_VALUE);
  return [long, short].filter((group) => group.length > 0).map((group) => new ShiftTable(group));
}

export class ValueScanner {
  private readonly tables: readonly ShiftTable[];
  /** The pass over the values looked for at rare letters, for a text where those letters are common. */
  private readonly ownScanFallback: readonly ShiftTable[];
  /** By `128 × anchor + (the character after it & 127)`: an index into `anchored` (0: none). */
  private readonly anchorSlots = new Uint16Array(128 * 128);
  private readonly anchored: Anchored[][] = [[]];
  /** The anchors some value is looked for at. */
  private anchorChars = '';
  /** The letters of `ownScanCandidates` some value is looked for at (scanOwnLetters). */
  readonly ownScans: string;

  /**
   * `values`: at least BLOCK characters each (secretNames.ts keeps values of 6 or more). `anchors`:
   * ASCII characters whose every place in a text the caller hands to `atAnchor`, rarest first.
   * `ownScanCandidates`: ASCII letters rare in output, rarest first, scanned for on their own
   * (`ownScans`, scanOwnLetters) when they spare the pass.
   */
  constructor(values: readonly string[], anchors = '', ownScanCandidates = '') {
    const usable = [...new Set(values)].filter((value) => value.length >= BLOCK);
    const ascii = asciiOnly(anchors);
    const unanchored = usable.filter((value) => !this.anchorAt(value, ascii));
    this.ownScans = ownScanLetters(unanchored, asciiOnly(ownScanCandidates));
    const inPass = unanchored.filter((value) => !this.anchorAt(value, this.ownScans));
    this.tables = shiftTables(inPass);
    this.ownScanFallback = shiftTables(unanchored.filter((value) => !inPass.includes(value)));
  }

  /** Files `value` under the first of `anchors` it holds with a character after it: false if none. */
  private anchorAt(value: string, anchors: string): boolean {
    const offset = anchorOffset(value, anchors);
    if (offset < 0) return false;
    if (!this.anchorChars.includes(value[offset]!)) this.anchorChars += value[offset];
    const slot = value.charCodeAt(offset) * 128 + (value.charCodeAt(offset + 1) & 127);
    if (this.anchorSlots[slot] === 0) this.anchorSlots[slot] = this.anchored.push([]) - 1;
    this.anchored[this.anchorSlots[slot]!]!.push([value, offset]);
    return true;
  }

  /** The anchors some value is looked for at: a scan for another need not call `atAnchor`. */
  get anchorsUsed(): string {
    return this.anchorChars;
  }

  /** Calls `found` with `[start, end)` of every place one of the unanchored values appears (not in order). */
  scan(text: string, found: (start: number, end: number) => void): void {
    for (const table of this.tables) table.scan(text, found);
  }

  /**
   * Calls `found` for every place of the values looked for at rare letters (some more than once):
   * at the letters' places, or by the pass once they prove common in `text`.
   */
  scanOwnLetters(text: string, found: (start: number, end: number) => void): void {
    let places = Math.ceil(text.length * OWN_SCAN_PLACES_PER_CHAR);
    for (const letter of this.ownScans) {
      for (let i = text.indexOf(letter); i >= 0; i = text.indexOf(letter, i + 1)) {
        if (--places < 0) {
          for (const table of this.ownScanFallback) table.scan(text, found);
          return;
        }
        this.atAnchor(text, i, found);
      }
    }
  }

  /** At `index`, a place of one of the anchors: calls `found` for every anchored value holding it there. */
  atAnchor(text: string, index: number, found: (start: number, end: number) => void): void {
    // The anchor's place is never the text's last: each value has a character after it (and a read past the end deoptimizes).
    if (index + 1 >= text.length) return;
    const list = this.anchorSlots[text.charCodeAt(index) * 128 + (text.charCodeAt(index + 1) & 127)]!;
    if (list === 0) return;
    for (const [value, offset] of this.anchored[list]!) {
      const start = index - offset;
      if (start >= 0 && text.startsWith(value, start)) found(start, start + value.length);
    }
  }
}
