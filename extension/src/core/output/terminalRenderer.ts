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
 * Fast path: a long run of plain lines renders to known text, so the renderer emits those lines
 * itself and gives xterm only the last screenful; fastPathState.ts decides when that is exact.
 *
 * Where the real screen is known, a command's output starts where it really did (`startAt`,
 * outputStart.ts).
 *
 * Emulators are reused through a small pool (emulatorPool.ts).
 */
import { Terminal, type IMarker } from '@xterm/headless';
import { logicalLines, rowText, trimTrailingSpaces } from './bufferText';
import { keepSpareEmulator, resetSequence, takeSpareEmulator } from './emulatorPool';
import { FastPathState } from './fastPathState';
import { OutputStart, type ScreenOrigin } from './outputStart';
import { OriginRequest, SliceQueue } from './sliceQueue';

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

/** Repeat counts above this (CSI n b) are dropped: xterm allocates n cells up front. */
const MAX_REPEAT = 65_535;

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
  private readonly stallMs: number;
  /** True while the blank rows that fill the scrollback ring at start are being written. */
  private priming = true;

  private readonly queue = new SliceQueue();
  /** Characters in the queue, plus those handed to xterm and not yet processed. */
  private queued = 0;
  private inFlight = 0;
  /** Guards pump against re-entry from an output callback (slices must stay in order). */
  private pumping = false;
  private readonly fastPath: boolean;
  private readonly fastPathState: FastPathState;
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
  /** Where the output started on the screen (see startAt). */
  private readonly start = new OutputStart();
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
    parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (!this.altActive && (params[0] === 2 || params[0] === 3)) {
        this.start.erased();
      }
      return params[0] === 3;
    });
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
      this.start.erased();
      this.harvest();
      if (this.pending !== undefined) {
        this.emitLine(this.pending);
        this.pending = undefined;
      }
      this.marker?.dispose();
      this.marker = undefined;
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

    this.fastPathState = new FastPathState(this.term, scrollback, parser, () => this.altActive);

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
    this.fastPathState.noteQueued(data);
    this.queue.push(data);
    this.queued += data.length;
    this.pump();
  }

  /** Queues a line break that is written only if the cursor is not at the start of a line then. */
  ensureLineStart(): void {
    if (this.disposed) {
      return;
    }
    this.queue.pushLineStart();
    this.pump();
  }

  /**
   * Queues the start of the output at a position of the real screen (the cursor when the command
   * started): the cursor moves there, and the rows above it count as read (the prompt's). For a
   * renderer as large as the real screen. `clearScreen`: what was written so far is no output.
   */
  startAt(origin: ScreenOrigin, clearScreen = false): void {
    if (this.disposed) {
      return;
    }
    const row = Math.max(0, Math.min(this.rows - 1, Math.floor(origin.row)));
    const col = Math.max(0, Math.min(this.cols - 1, Math.floor(origin.col)));
    this.queue.pushOrigin(new OriginRequest({ row, col }, clearScreen));
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
    const top = Math.min(this.start.topRows, this.rows);
    const lines = this.start.screenLines(logicalLines(buffer, this.rows - top, buffer.baseY + top, this.rows - top, this.pending));
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
    this.queue.clear();
    this.queued = 0;
    this.marker?.dispose();
    for (const hook of this.hooks) {
      hook.dispose();
    }
    // Back to the spares only at rest: nothing in flight, no failure, its parser between sequences.
    const atRest = this.reuseEmulator && this.inFlight === 0 && !this.stalled && !this.failure && !this.priming && this.fastPath && this.fastPathState.atGround;
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
    return this.disposed || this.stalled || (this.inFlight === 0 && this.queue.isEmpty);
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
        this.queue.clear();
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
      while (this.queue.takeLineStart()) {
        if (!this.altActive && this.term.buffer.active.cursorX !== 0) {
          this.queue.unshift('\r\n');
          this.queued += 2;
          break;
        }
      }
      const request = this.queue.takeOrigin();
      if (request) {
        this.moveToOrigin(request);
        continue;
      }
      if (this.queue.isEmpty) {
        this.queue.clear();
        this.resolveIdle();
        return;
      }
      let slice = this.queue.takeSlice(this.sliceChars);
      if (this.fastPath && !this.altActive) {
        const plan = this.planSlice(slice);
        if (plan.requeue.length > 0) {
          this.queue.unshift(plan.requeue);
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
      this.fastPathState.noteWritten(slice);
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
        this.fastPathState.reset();
        const buffer = this.term.buffer.normal;
        this.marker = this.term.registerMarker(buffer.baseY - 1 - (buffer.baseY + buffer.cursorY));
      } else if (!this.altActive) {
        this.harvest();
      }
      this.version++;
      this.pump();
    });
  }

  /**
   * Carries out the fast path's plan for a slice (see fastPathState.ts). Returns what to write
   * now and what to put back.
   */
  private planSlice(slice: string): { write: string; requeue: string } {
    const plan = this.fastPathState.plan(slice);
    if (plan.kind === 'emulator') {
      return { write: slice, requeue: '' };
    }
    if (plan.kind === 'upTo') {
      return { write: slice.slice(0, plan.end), requeue: slice.slice(plan.end) };
    }
    const buffer = this.term.buffer.normal;
    const top = Math.min(this.start.topRows, this.rows);
    const above = logicalLines(buffer, this.rows - top, buffer.baseY + top, buffer.cursorY - top, this.pending);
    this.pending = undefined;
    this.emit(this.start.finalLines(above.concat(plan.lines)).join('\n') + '\n');
    this.directLineCount += plan.lines.length;
    const tail = slice.slice(plan.tailStart, plan.end);
    this.queued -= slice.length - tail.length - (slice.length - plan.end);
    // Home + erase display: the rows just emitted leave the screen without entering scrollback.
    const reset = '\x1b[H\x1b[2J';
    this.queued += reset.length;
    return { write: reset + tail, requeue: slice.slice(plan.end) };
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
        if (this.start.skipsScrolledRow()) {
          continue; // a prompt row above the origin scrolled off: not output
        }
        const line = buffer.getLine(y)!;
        const next = buffer.getLine(y + 1)!;
        const text = rowText(line, next);
        if (line.isWrapped && this.pending !== undefined) {
          this.pending += text;
          if (this.pending.length > this.maxLineChars) {
            this.emit(this.start.piece(this.pending));
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

  /**
   * Moves the cursor to where the output really starts (the emulator is idle: nothing in flight).
   * What scrolled is read first; the rows above the origin are the prompt's and count as read.
   */
  private moveToOrigin({ origin, clearScreen }: OriginRequest): void {
    if (this.altActive) {
      return;
    }
    this.harvest();
    if (clearScreen) {
      // Home + erase display (as the fast path does): the rows leave without entering scrollback.
      this.pending = undefined;
      this.queue.unshift(new OriginRequest(origin, false));
      this.queue.unshift('\x1b[H\x1b[2J');
      this.queued += 7;
      return;
    }
    if (this.pending !== undefined) {
      this.emitLine(this.pending);
      this.pending = undefined;
    }
    this.start.begin(origin);
    const move = `\x1b[${origin.row + 1};${origin.col + 1}H`;
    this.queue.unshift(move);
    this.queued += move.length;
    this.version++;
  }

  private emitLine(text: string): void {
    const line = this.start.finalLine(trimTrailingSpaces(text));
    if (line !== undefined) {
      this.emit(line + '\n');
    }
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
}
