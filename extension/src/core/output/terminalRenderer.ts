/**
 * Renders raw terminal data into the text a terminal would show, using the same emulator as VS
 * Code's terminal (xterm.js, headless). Escape sequences, `\r` progress bars, cursor movement and
 * erases are resolved by the emulator; we only read text back out of its buffer.
 *
 * Lines leave the emulator as a stream of finished text: a row is final once it has scrolled off
 * the screen, because no escape sequence can reach it any more. Soft-wrapped rows are joined back
 * into one logical line and trailing spaces are trimmed. What is still on screen is read on demand
 * (`currentScreen()`), so at any time: full output = everything emitted + the current screen.
 *
 * Memory stays bounded: the emulator keeps only a small scrollback ring, and rows are harvested
 * from it before they can be recycled. A marker (public xterm API) sits on the last harvested
 * row; xterm keeps it pointing at the same row as the ring trims, so the rows after it are
 * exactly the ones not yet read. Harvesting runs after every written slice and, for slices that
 * scroll more than half the ring, from the scroll event itself.
 *
 * Fast path: a long run of plain lines (see plainLines.ts) written at the start of a blank row
 * renders to known text. The renderer then emits those lines itself and gives xterm only the last
 * screenful (after clearing the screen), which leaves xterm in the same state as writing them all.
 * It applies only while the terminal is in a state where that equivalence holds (normal buffer,
 * cursor at column 0 with nothing below it, default modes, full scroll region, default charset).
 *
 * Emulators are reused: a run's renderer hands its emulator back on dispose (when it is at rest)
 * and the next renderer resets it instead of building and priming a new one. A fresh emulator is
 * about 1 MB of typed arrays that V8 frees only when its external-memory limit (64 MB) is reached,
 * which left the extension host's allocator holding some 60 MB after the first hundred runs.
 */
import { Terminal, type IBuffer, type IBufferLine, type IMarker } from '@xterm/headless';
import { EscapeStateTracker } from './escapeState';
import { findPlainRun } from './plainLines';

export interface TerminalRendererOptions {
  /** Receives finished text in order: whole lines ending in "\n", or pieces of an overlong line. */
  readonly onOutput: (text: string) => void;
  /** Terminal width; wide, so lines a real terminal would not wrap stay one row (default 300). */
  readonly cols?: number;
  /** Terminal height: how far back cursor movement can reach to redraw (default 50). */
  readonly rows?: number;
  /** Rows of emulator scrollback kept between harvests (default 200). */
  readonly scrollback?: number;
  /** Characters handed to the emulator per write (default 64 Ki). */
  readonly sliceChars?: number;
  /** A logical line longer than this is emitted in pieces, so one endless line stays bounded (default 64 Ki). */
  readonly maxLineChars?: number;
  /** Render long runs of plain lines without the emulator (default true; off only to compare). */
  readonly fastPath?: boolean;
  /** How long a flush waits for an emulator that makes no progress (default 10 s). */
  readonly stallMs?: number;
  /** Take an emulator at rest from an earlier renderer, and leave this one's for the next (default true; off only to compare). */
  readonly reuseEmulator?: boolean;
}

/** Queue entry asking for a line break unless the cursor is at the start of a line. */
const LINE_START = Symbol('lineStart');
type QueueItem = string | typeof LINE_START;

/** Repeat counts above this (CSI n b) are dropped: xterm allocates n cells up front. */
const MAX_REPEAT = 65_535;

/** Charset designations xterm knows (ESC ( X and friends); any but 'B' (ASCII) remaps text. */
const CHARSET_FINALS = ['0', 'A', 'B', '4', 'C', '5', 'R', 'Q', 'K', 'Y', 'E', '6', 'Z', 'H', '7', '='];
const CHARSET_INTERMEDIATES = ['(', ')', '*', '+', '-', '.', '/'];

/** Lines beyond one screenful a plain run needs before the fast path is worth it. */
const FAST_PATH_MIN_GAIN = 16;

/**
 * Emulators at rest, ready for the next renderer of the same size. A few, for terminals that run
 * at the same time; each holds its buffers (about 1 MB).
 */
const spareEmulators: Terminal[] = [];
const MAX_SPARE_EMULATORS = 4;

function takeSpareEmulator(cols: number, rows: number, scrollback: number): Terminal | undefined {
  const i = spareEmulators.findIndex((t) => t.cols === cols && t.rows === rows && t.options.scrollback === scrollback);
  return i < 0 ? undefined : spareEmulators.splice(i, 1)[0];
}

function keepSpareEmulator(term: Terminal): void {
  spareEmulators.push(term);
  if (spareEmulators.length > MAX_SPARE_EMULATORS) {
    spareEmulators.shift()!.dispose();
  }
}

/**
 * Brings a used emulator back to the state a fresh, primed one is in: any sequence in progress
 * cancelled (CAN), the normal screen, soft reset (modes, SGR, charsets, scroll region, saved
 * cursor), default tab stops, cursor home on a cleared screen. The scrollback ring stays full of
 * old rows; the renderer's marker is placed after them, so they count as read.
 */
function resetSequence(cols: number): string {
  let tabs = '\x1b[3g';
  for (let col = 8; col < cols; col += 8) {
    tabs += `\x1b[${col + 1}G\x1bH`;
  }
  return `\x18\x1b[?1049l\x1b[!p${tabs}\x1b[H\x1b[2J`;
}

export class TerminalRenderer {
  readonly cols: number;
  readonly rows: number;
  private readonly term: Terminal;
  /** Listeners and parser hooks on the emulator: removed before it goes back to the spares. */
  private readonly hooks: Array<{ dispose(): void }> = [];
  private readonly reuseEmulator: boolean;
  /** This renderer runs on an emulator an earlier one left (for tests and diagnostics). */
  readonly reusedEmulator: boolean;
  private readonly onOutput: (text: string) => void;
  private readonly sliceChars: number;
  private readonly maxLineChars: number;
  private readonly harvestEvery: number;
  private readonly scrollback: number;
  private readonly stallMs: number;
  /** True while the blank rows that fill the scrollback ring at start are being written. */
  private priming = true;

  private readonly queue: QueueItem[] = [];
  private queueHead = 0;
  /** Characters in the queue, plus those handed to xterm and not yet processed. */
  private queued = 0;
  private inFlight = 0;
  /** Guards pump against re-entry from an output callback (slices must stay in order). */
  private pumping = false;
  private readonly fastPath: boolean;
  /** Facts the fast path relies on, tracked from parser hooks (conservatively). */
  private normalRegionFull = true;
  private charsetTouched = false;
  private defaultTabs = true;
  /** Whether xterm's parser is between sequences after everything handed to it. */
  private readonly escapeState = new EscapeStateTracker();
  private readonly idleWaiters: Array<() => void> = [];

  /** Marker on the last harvested row of the normal buffer; undefined: nothing harvested yet. */
  private marker: IMarker | undefined;
  /** The logical line whose rows scrolled off but whose end may still be on screen. */
  private pending: string | undefined;
  private scrollsSinceHarvest = 0;
  private altActive = false;
  private disposed = false;
  private screenCache: { version: number; lines: readonly string[] } | undefined;
  private version = 0;
  private lostRows = false;
  private directLineCount = 0;
  private failure: Error | undefined;
  /** Set when xterm stopped calling back (an internal error): input is dropped from then on. */
  private stalled = false;
  private lastProgressAt = 0;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(options: TerminalRendererOptions) {
    this.cols = Math.max(2, Math.floor(options.cols ?? 300));
    this.rows = Math.max(2, Math.floor(options.rows ?? 50));
    const scrollback = Math.max(8, Math.floor(options.scrollback ?? 200));
    this.scrollback = scrollback;
    this.harvestEvery = Math.floor(scrollback / 2);
    this.sliceChars = Math.max(64, Math.floor(options.sliceChars ?? 64 * 1024));
    this.maxLineChars = Math.max(this.cols * 2, Math.floor(options.maxLineChars ?? 64 * 1024));
    this.onOutput = options.onOutput;
    this.fastPath = options.fastPath ?? true;
    this.stallMs = Math.max(1, options.stallMs ?? 10_000);
    this.reuseEmulator = options.reuseEmulator ?? true;
    const spare = this.reuseEmulator ? takeSpareEmulator(this.cols, this.rows, scrollback) : undefined;
    this.reusedEmulator = spare !== undefined;
    this.term = spare ?? new Terminal({ cols: this.cols, rows: this.rows, scrollback, allowProposedApi: true, logLevel: 'off' });

    const hooks = this.hooks;
    hooks.push(
      this.term.onScroll(() => {
        if (!this.priming && !this.altActive && ++this.scrollsSinceHarvest >= this.harvestEvery) {
          this.harvest();
        }
      }),
      this.term.buffer.onBufferChange((buffer) => {
        this.altActive = buffer.type === 'alternate';
      }),
    );
    const xtermParser = this.term.parser;
    const parser = {
      registerCsiHandler: (...args: Parameters<typeof xtermParser.registerCsiHandler>) => hooks.push(xtermParser.registerCsiHandler(...args)),
      registerEscHandler: (...args: Parameters<typeof xtermParser.registerEscHandler>) => hooks.push(xtermParser.registerEscHandler(...args)),
    };
    // ED 3 (erase saved lines, sent by `clear`) would discard rows we have not read yet. The
    // scrollback is invisible storage to us, so swallowing it changes nothing anyone can see.
    parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
    // Before the screen switches to the alternate buffer (vim, less), read the normal buffer's
    // scrolled rows while markers can still be placed on it.
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      if (!this.altActive && params.some((p) => p === 47 || p === 1047 || p === 1049)) {
        this.harvest();
      }
      return false;
    });
    // RIS (ESC c) replaces the buffers: read what scrolled, finish the pending line, start over.
    parser.registerEscHandler({ final: 'c' }, () => {
      this.harvest();
      if (this.pending !== undefined) {
        this.emitLine(this.pending);
        this.pending = undefined;
      }
      this.marker?.dispose();
      this.marker = undefined;
      this.normalRegionFull = true;
      this.charsetTouched = false;
      this.defaultTabs = true;
      return false;
    });
    parser.registerCsiHandler({ final: 'b' }, (params) => typeof params[0] === 'number' && params[0] > MAX_REPEAT);
    // Scrolling or inserting/deleting rows in place can put a different row right below the
    // scrollback; read what scrolled first, so each line's end is judged by the row that followed
    // it when it left the screen.
    const harvestFirst = (): boolean => {
      if (!this.altActive) {
        this.harvest();
      }
      return false;
    };
    for (const final of ['S', 'T', 'L', 'M']) {
      parser.registerCsiHandler({ final }, harvestFirst);
    }
    parser.registerEscHandler({ final: 'M' }, harvestFirst);

    // State the fast path depends on. Each hook only observes (returns false).
    parser.registerCsiHandler({ final: 'r' }, (params) => {
      if (!this.altActive) {
        this.normalRegionFull = this.isFullRegion(params);
      }
      return false;
    });
    parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      if (!this.altActive) {
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

    // Fill the scrollback ring with blank rows (not output) before any data: from then on the
    // buffer's base row index stays fixed, which makes positions saved by DECSC (absolute buffer
    // rows in xterm) independent of how many rows the fast path skipped. A reused emulator's ring
    // is full already: it is reset instead.
    const prime = spare ? resetSequence(this.cols) : '\n'.repeat(this.rows - 1 + scrollback) + '\x1b[H';
    this.queued += prime.length;
    this.writeToTerminal(prime);
  }

  /** Queues raw data (shell-integration markers already removed). */
  write(data: string): void {
    if (this.disposed || this.stalled || data.length === 0) {
      return;
    }
    if (data.includes('\x0e')) {
      this.charsetTouched = true; // SO shifts to G1: text may be remapped from now on
    }
    this.queue.push(data);
    this.queued += data.length;
    this.pump();
  }

  /** Queues a line break that is written only if the cursor is not at the start of a line then. */
  ensureLineStart(): void {
    if (this.disposed) {
      return;
    }
    this.queue.push(LINE_START);
    this.pump();
  }

  /**
   * Resolves once everything written so far is parsed, harvested and emitted. If xterm stops
   * making progress (an exception inside its parser leaves its queue stuck), it resolves after
   * `stallMs` without progress instead of never; `error` then says why.
   */
  flush(): Promise<void> {
    if (this.isIdle()) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.watch();
    });
  }

  /** The first error met while rendering (rendering continues where it can). */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Characters written but not yet processed by the emulator. */
  get pendingChars(): number {
    return this.queued;
  }

  get alternateScreenActive(): boolean {
    return this.altActive;
  }

  /** Lines rendered by the fast path without the emulator (for tests and diagnostics). */
  get directLines(): number {
    return this.directLineCount;
  }

  /** True if rows were ever lost between harvests (should never happen; for diagnostics). */
  get lostOutput(): boolean {
    return this.lostRows;
  }

  /**
   * The not-yet-final lines of the normal screen, trailing blank lines dropped. The first line may
   * continue text already emitted (when an overlong line was emitted in pieces).
   */
  currentScreen(): readonly string[] {
    if (this.disposed) {
      return [];
    }
    const cached = this.screenCache;
    if (cached && cached.version === this.version) {
      return cached.lines;
    }
    const buffer = this.term.buffer.normal;
    const lines = this.screenLines(buffer, buffer.baseY, this.rows, this.pending);
    while (lines.length > 0 && lines[lines.length - 1] === '') {
      lines.pop();
    }
    this.screenCache = { version: this.version, lines };
    return lines;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    if (this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
    this.queue.length = 0;
    this.queueHead = 0;
    this.queued = 0;
    this.marker?.dispose();
    for (const hook of this.hooks) {
      hook.dispose();
    }
    // Back to the spares only at rest: nothing in flight, no failure, its parser between sequences.
    const atRest = this.reuseEmulator && this.inFlight === 0 && !this.stalled && !this.failure && !this.priming && this.fastPath && this.escapeState.atGround;
    if (atRest) {
      keepSpareEmulator(this.term);
    } else {
      this.term.dispose();
    }
    this.resolveIdle();
  }

  // -------------------------------------------------------------------------------------------
  // Feeding the emulator

  private isIdle(): boolean {
    return this.disposed || this.stalled || (this.inFlight === 0 && this.queueHead >= this.queue.length);
  }

  /** While someone waits for a flush, checks that xterm keeps calling back. */
  private watch(): void {
    if (this.watchdog) {
      return;
    }
    this.watchdog = setInterval(() => {
      if (this.isIdle() || this.idleWaiters.length === 0) {
        clearInterval(this.watchdog);
        this.watchdog = undefined;
        return;
      }
      if (this.inFlight > 0 && Date.now() - this.lastProgressAt > this.stallMs) {
        this.recordError(new Error(`the terminal emulator made no progress for ${this.stallMs} ms; output after this point is dropped`));
        this.stalled = true;
        this.queue.length = 0;
        this.queueHead = 0;
        this.queued = 0;
        clearInterval(this.watchdog);
        this.watchdog = undefined;
        this.resolveIdle();
      }
    }, Math.min(1000, this.stallMs));
    this.watchdog.unref?.();
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters.splice(0);
    for (const resolve of waiters) {
      resolve();
    }
  }

  /** Hands the next slice to xterm; one slice is in flight at a time so state checks see it all. */
  private pump(): void {
    if (this.pumping) {
      return;
    }
    this.pumping = true;
    try {
      this.pumpSlices();
    } finally {
      this.pumping = false;
    }
  }

  private pumpSlices(): void {
    while (!this.disposed && !this.stalled && this.inFlight === 0) {
      while (this.queueHead < this.queue.length && this.queue[this.queueHead] === LINE_START) {
        this.queueHead++;
        if (!this.altActive && this.term.buffer.active.cursorX !== 0) {
          this.queue[--this.queueHead] = '\r\n';
          this.queued += 2;
          break;
        }
      }
      if (this.queueHead >= this.queue.length) {
        this.queue.length = 0;
        this.queueHead = 0;
        this.resolveIdle();
        return;
      }
      let slice = this.takeSlice();
      if (this.fastPath && !this.altActive) {
        const plan = this.planFastPath(slice);
        if (plan.requeue.length > 0) {
          this.unshift(plan.requeue);
        }
        slice = plan.write;
        this.version++;
        if (slice.length === 0) {
          continue; // everything was rendered directly
        }
      }
      this.writeToTerminal(slice);
    }
  }

  private writeToTerminal(slice: string): void {
    if (this.fastPath) {
      this.escapeState.feed(slice);
    }
    this.inFlight = 1;
    this.lastProgressAt = Date.now();
    this.term.write(slice, () => {
      this.inFlight = 0;
      this.lastProgressAt = Date.now();
      this.queued -= slice.length;
      if (this.disposed) {
        return;
      }
      if (this.priming) {
        this.priming = false;
        // The hooks saw the reset's own sequences: they describe a fresh emulator now.
        this.normalRegionFull = true;
        this.charsetTouched = false;
        this.defaultTabs = true;
        const buffer = this.term.buffer.normal;
        this.marker = this.term.registerMarker(buffer.baseY - 1 - (buffer.baseY + buffer.cursorY));
      } else if (!this.altActive) {
        this.harvest();
      }
      this.version++;
      this.pump();
    });
  }

  private unshift(data: string): void {
    if (this.queueHead > 0) {
      this.queue[--this.queueHead] = data;
    } else {
      this.queue.unshift(data);
    }
  }

  /**
   * Decides how a slice is written: through xterm as is, or, when it starts with a long run of
   * plain lines and the terminal is in a state where that is exact, by emitting the run directly
   * and giving xterm only its last screenful. Returns what to write now and what to put back.
   */
  private planFastPath(slice: string): { write: string; requeue: string } {
    const keep = this.rows;
    const state = { cols: this.cols, defaultTabs: this.defaultTabs };
    // The slice must start between sequences: a previous slice may have ended inside one.
    if (this.charsetTouched || !this.normalRegionFull || !this.escapeState.atGround) {
      return { write: slice, requeue: '' };
    }
    const run = findPlainRun(slice, keep + FAST_PATH_MIN_GAIN, state);
    if (!run) {
      return { write: slice, requeue: '' };
    }
    if (run.start > 0) {
      // Let xterm render up to the run; the run is tried again from a clean line start.
      return { write: slice.slice(0, run.start), requeue: slice.slice(run.start) };
    }
    if (!this.atCleanLineStart()) {
      return { write: slice, requeue: '' };
    }
    const buffer = this.term.buffer.normal;
    const above = this.screenLines(buffer, buffer.baseY, buffer.cursorY, this.pending);
    this.pending = undefined;
    const direct = run.lines.length - keep;
    run.lines.length = direct;
    this.emit(above.concat(run.lines).join('\n') + '\n');
    this.directLineCount += direct;
    const tail = slice.slice(run.starts[direct], run.end);
    this.queued -= slice.length - tail.length - (slice.length - run.end);
    // Home + erase display: the rows just emitted leave the screen without entering scrollback.
    const reset = '\x1b[H\x1b[2J';
    this.queued += reset.length;
    return { write: reset + tail, requeue: slice.slice(run.end) };
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

  /** Takes up to sliceChars from the queue, joining small chunks and splitting big ones. */
  private takeSlice(): string {
    const parts: string[] = [];
    let size = 0;
    while (this.queueHead < this.queue.length && size < this.sliceChars) {
      const item = this.queue[this.queueHead]!;
      if (item === LINE_START) {
        break;
      }
      const room = this.sliceChars - size;
      if (item.length <= room) {
        parts.push(item);
        size += item.length;
        this.queue[this.queueHead++] = '';
      } else {
        let cut = room;
        const code = item.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff && cut > 1) {
          cut--; // keep surrogate pairs together (xterm copes, but this keeps slices clean)
        }
        parts.push(item.slice(0, cut));
        size += cut;
        this.queue[this.queueHead] = item.slice(cut);
        break;
      }
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    return parts.length === 1 ? parts[0]! : parts.join('');
  }

  // -------------------------------------------------------------------------------------------
  // Harvesting finished rows

  /** Harvests, never throwing into xterm's parser (that would stall its write queue). */
  private harvest(): void {
    try {
      this.harvestRows();
    } catch (error) {
      this.recordError(error);
    }
  }

  /** Reads every row that scrolled into the normal buffer's scrollback since the last harvest. */
  private harvestRows(): void {
    this.scrollsSinceHarvest = 0;
    if (this.altActive) {
      return; // the normal buffer is frozen meanwhile, and markers cannot be placed on it
    }
    const buffer = this.term.buffer.normal;
    const end = buffer.baseY; // rows [0, end) are scrollback
    let start = 0;
    if (this.marker) {
      if (this.marker.isDisposed) {
        this.lostRows = true; // the ring was trimmed past our marker: rows were lost
      } else {
        start = this.marker.line + 1;
      }
    }
    if (start < end) {
      for (let y = start; y < end; y++) {
        const line = buffer.getLine(y)!;
        const next = buffer.getLine(y + 1)!;
        const text = rowText(line, next);
        if (line.isWrapped && this.pending !== undefined) {
          this.pending += text;
          if (this.pending.length > this.maxLineChars) {
            this.emit(this.pending);
            this.pending = '';
          }
        } else {
          if (this.pending !== undefined) {
            this.emitLine(this.pending);
          }
          this.pending = text;
        }
      }
      this.marker?.dispose();
      // registerMarker is relative to the cursor row: place it on row end - 1.
      this.marker = this.term.registerMarker(end - 1 - (buffer.baseY + buffer.cursorY));
    }
    // The first screen row can never become a continuation (the row above it is out of reach), so
    // if it is not one now, the pending line is complete.
    if (this.pending !== undefined && !buffer.getLine(end)?.isWrapped) {
      this.emitLine(this.pending);
      this.pending = undefined;
    }
  }

  private emitLine(text: string): void {
    this.emit(trimTrailingSpaces(text) + '\n');
  }

  private emit(text: string): void {
    try {
      this.onOutput(text);
    } catch (error) {
      this.recordError(error);
    }
  }

  private recordError(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
  }

  /**
   * Logical lines of `count` rows from `base` of a buffer. `prefix` is the pending line: a wrapped
   * first row continues it, otherwise it is a line of its own. Trailing blank lines are kept.
   */
  private screenLines(buffer: IBuffer, base: number, count: number, prefix: string | undefined): string[] {
    const lines: string[] = [];
    let current = prefix;
    for (let r = 0; r < count; r++) {
      const line = buffer.getLine(base + r);
      if (!line) {
        break;
      }
      const next = r + 1 < this.rows ? buffer.getLine(base + r + 1) : undefined;
      const text = rowText(line, next);
      if (line.isWrapped && current !== undefined) {
        current += text;
      } else {
        if (current !== undefined) {
          lines.push(trimTrailingSpaces(current));
        }
        current = text;
      }
    }
    if (current !== undefined) {
      lines.push(trimTrailingSpaces(current));
    }
    return lines;
  }
}

/**
 * The text of one row. A row continued by the next (soft wrap) is taken at full width; otherwise
 * empty cells at its end are dropped. When a wide character did not fit in the last column, xterm
 * leaves that cell empty and wraps: the blank is not part of the text.
 */
function rowText(line: IBufferLine, next: IBufferLine | undefined): string {
  if (!next || !next.isWrapped) {
    return line.translateToString(true);
  }
  const text = line.translateToString(false);
  const last = line.getCell(line.length - 1);
  if (last && last.getChars() === '' && last.getWidth() === 1 && next.getCell(0)?.getWidth() === 2) {
    return text.slice(0, -1);
  }
  return text;
}

/** Drops trailing U+0020 only (tabs and other spaces a program printed were cells, kept as spaces). */
export function trimTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x20) {
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}
