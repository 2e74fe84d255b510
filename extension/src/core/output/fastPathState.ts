/**
 * The renderer's fast path, the deciding half: a long run of plain lines (see plainLines.ts)
 * written at the start of a blank row renders to known text, so the renderer may emit those lines
 * itself and give xterm only the last screenful (after clearing the screen), which leaves xterm in
 * the same state as writing them all. That holds only in some terminal states (normal buffer,
 * cursor at column 0 with nothing below it, default modes, full scroll region, default charset,
 * default tab stops, parser between sequences).
 *
 * This tracks those states from parser hooks, conservatively, and plans each slice; the renderer
 * carries the plan out.
 */
import type { IFunctionIdentifier, Terminal } from '@xterm/headless';
import { EscapeStateTracker } from './escapeState';
import { findPlainRun } from './plainLines';

/** Charset designations xterm knows (ESC ( X and friends); any but 'B' (ASCII) remaps text. */
const CHARSET_FINALS = ['0', 'A', 'B', '4', 'C', '5', 'R', 'Q', 'K', 'Y', 'E', '6', 'Z', 'H', '7', '='];
const CHARSET_INTERMEDIATES = ['(', ')', '*', '+', '-', '.', '/'];

/** Lines beyond one screenful a plain run needs before the fast path is worth it. */
const FAST_PATH_MIN_GAIN = 16;

/** Parser hook registration, through the renderer (which removes the hooks before its emulator is reused). */
export interface ParserHooks {
  registerCsiHandler(id: IFunctionIdentifier, callback: (params: (number | number[])[]) => boolean): void;
  registerEscHandler(id: IFunctionIdentifier, callback: () => boolean): void;
}

/**
 * How to write a slice: `emulator`, as is; `upTo`, the part before a plain run as is, the rest put
 * back to be tried again from a clean line start; `direct`, emit `lines` (the run but its last
 * screenful) directly, write the screenful `[tailStart, end)` after clearing the screen, and put
 * back what follows `end`.
 */
export type FastPathPlan =
  | { readonly kind: 'emulator' }
  | { readonly kind: 'upTo'; readonly end: number }
  | { readonly kind: 'direct'; readonly lines: readonly string[]; readonly tailStart: number; readonly end: number };

const AS_IS: FastPathPlan = { kind: 'emulator' };

export class FastPathState {
  private readonly cols: number;
  private readonly rows: number;
  private normalRegionFull = true;
  private charsetTouched = false;
  private defaultTabs = true;
  /** Whether xterm's parser is between sequences after everything handed to it. */
  private readonly escapeState = new EscapeStateTracker();

  /** Each hook only observes (returns false); `altActive` says whether the alternate screen is shown. */
  constructor(
    private readonly term: Terminal,
    private readonly scrollback: number,
    parser: ParserHooks,
    altActive: () => boolean,
  ) {
    this.cols = term.cols;
    this.rows = term.rows;
    parser.registerEscHandler({ final: 'c' }, () => {
      this.reset(); // RIS
      return false;
    });
    parser.registerCsiHandler({ final: 'r' }, (params) => {
      if (!altActive()) {
        this.normalRegionFull = this.isFullRegion(params);
      }
      return false;
    });
    parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      if (!altActive()) {
        this.normalRegionFull = true; // DECSTR resets the scroll region
      }
      return false;
    });
    for (const intermediates of CHARSET_INTERMEDIATES) {
      for (const final of CHARSET_FINALS) {
        parser.registerEscHandler({ intermediates, final }, () => {
          this.charsetTouched ||= final !== 'B';
          return false;
        });
      }
    }
    for (const final of ['n', 'o', '|', '}', '~']) {
      parser.registerEscHandler({ final }, () => {
        this.charsetTouched = true; // locking shifts to G1..G3
        return false;
      });
    }
    parser.registerEscHandler({ final: 'H' }, () => {
      this.defaultTabs = false; // HTS sets a tab stop
      return false;
    });
    parser.registerCsiHandler({ final: 'g' }, () => {
      this.defaultTabs = false; // TBC clears tab stops
      return false;
    });
  }

  /** True if the data handed to xterm so far leaves its parser between sequences. */
  get atGround(): boolean {
    return this.escapeState.atGround;
  }

  /** The states of a fresh emulator (after a reset, or once a reused one was brought back to it). */
  reset(): void {
    this.normalRegionFull = true;
    this.charsetTouched = false;
    this.defaultTabs = true;
  }

  /** Sees data as it is queued: SO shifts to G1, so text may be remapped from then on. */
  noteQueued(data: string): void {
    if (data.includes('\x0e')) {
      this.charsetTouched = true;
    }
  }

  /** Sees every slice handed to xterm (for the parser state). */
  noteWritten(slice: string): void {
    this.escapeState.feed(slice);
  }

  /** Plans a slice that goes to the normal screen. */
  plan(slice: string): FastPathPlan {
    const keep = this.rows;
    // The slice must start between sequences: a previous slice may have ended inside one.
    if (this.charsetTouched || !this.normalRegionFull || !this.escapeState.atGround) {
      return AS_IS;
    }
    const run = findPlainRun(slice, keep + FAST_PATH_MIN_GAIN, { cols: this.cols, defaultTabs: this.defaultTabs });
    if (!run) {
      return AS_IS;
    }
    if (run.start > 0) {
      return { kind: 'upTo', end: run.start };
    }
    if (!this.atCleanLineStart()) {
      return AS_IS;
    }
    const direct = run.lines.length - keep;
    run.lines.length = direct;
    return { kind: 'direct', lines: run.lines, tailStart: run.starts[direct]!, end: run.end };
  }

  /** True if printing plain lines from the cursor on behaves like appending them. */
  private atCleanLineStart(): boolean {
    const buffer = this.term.buffer.normal;
    // With the ring full the base row stays put whether lines scroll through xterm or not.
    if (buffer.cursorX !== 0 || buffer.baseY !== this.scrollback) {
      return false;
    }
    const modes = this.term.modes;
    if (!modes.wraparoundMode || modes.insertMode || modes.originMode || modes.reverseWraparoundMode) {
      return false;
    }
    for (let r = buffer.cursorY; r < this.rows; r++) {
      const line = buffer.getLine(buffer.baseY + r);
      if (!line || line.isWrapped || line.translateToString(true).length > 0) {
        return false;
      }
    }
    return true;
  }

  private isFullRegion(params: (number | number[])[]): boolean {
    const [p0, p1] = params;
    if (typeof p0 === 'object' || typeof p1 === 'object') {
      return false;
    }
    const top = p0 || 1;
    let bottom = p1 ?? 0;
    if (params.length < 2 || bottom > this.rows || bottom === 0) {
      bottom = this.rows;
    }
    // xterm ignores an empty region; treat that as "unknown" rather than guess.
    return bottom > top && top === 1 && bottom === this.rows;
  }
}
