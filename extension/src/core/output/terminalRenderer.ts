/**
 * Renders raw terminal data into the text a terminal would show, using the same emulator as VS
 * Code's terminal (xterm.js, headless). Escape sequences, `\r` progress bars, cursor movement and
 * erases are resolved by the emulator; we only read text back out of its buffer.
 *
 * This is the feeding half: data waits in a queue (sliceQueue.ts) and goes to xterm one slice at a
 * time; lines come back out through the harvester (lineHarvester.ts) as a stream of finished
 * text, and what is still on screen is read on demand (`currentScreen()`). `flush()` waits for
 * idle, bounded by a stall watchdog (flushWaiters.ts).
 *
 * Fast path: a long run of plain lines renders to known text, so the renderer emits those lines
 * itself and gives xterm only the last screenful; fastPathState.ts decides when that is exact.
 *
 * Where the real screen is known, a command's output starts where it really did (`startAt`).
 *
 * Emulators are reused through a small pool (emulatorPool.ts).
 */
import { Terminal } from '@xterm/headless';
import { keepSpareEmulator, resetSequence, takeSpareEmulator } from './emulatorPool';
import { FastPathState, type ParserHooks } from './fastPathState';
import { FlushWaiters } from './flushWaiters';
import { LineHarvester } from './lineHarvester';
import type { ScreenOrigin } from './outputStart';
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
  private readonly sliceChars: number;
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
  private readonly harvester: LineHarvester;
  private readonly flushWaiters: FlushWaiters;
  private altActive = false;
  private disposed = false;
  private screenCache: { version: number; lines: readonly string[] } | undefined;
  private version = 0;
  private directLineCount = 0;
  private failure: Error | undefined;
  /** Set when xterm stopped calling back (an internal error): input is dropped from then on. */
  private stalled = false;

  constructor(options: TerminalRendererOptions) {
    this.cols = Math.max(2, Math.floor(options.cols ?? 300));
    this.rows = Math.max(2, Math.floor(options.rows ?? 50));
    const scrollback = Math.max(8, Math.floor(options.scrollback ?? 200));
    this.sliceChars = Math.max(64, Math.floor(options.sliceChars ?? 64 * 1024));
    this.fastPath = options.fastPath ?? true;
    this.flushWaiters = new FlushWaiters(Math.max(1, options.stallMs ?? 10_000), {
      isIdle: () => this.isIdle(),
      inFlight: () => this.inFlight > 0,
      stalled: (error) => {
        this.recordError(error);
        this.stalled = true;
        this.queue.clear();
        this.queued = 0;
      },
    });
    this.reuseEmulator = options.reuseEmulator ?? true;
    const spare = this.reuseEmulator ? takeSpareEmulator(this.cols, this.rows, scrollback) : undefined;
    this.reusedEmulator = spare !== undefined;
    this.term = spare ?? new Terminal({ cols: this.cols, rows: this.rows, scrollback, allowProposedApi: true, logLevel: 'off' });

    const hooks = this.hooks;
    hooks.push(
      this.term.onScroll(() => {
        if (!this.priming) {
          this.harvester.scrolled();
        }
      }),
      this.term.buffer.onBufferChange((buffer) => {
        this.altActive = buffer.type === 'alternate';
      }),
    );
    const xtermParser = this.term.parser;
    const parser: ParserHooks = {
      registerCsiHandler: (...args: Parameters<typeof xtermParser.registerCsiHandler>) => hooks.push(xtermParser.registerCsiHandler(...args)),
      registerEscHandler: (...args: Parameters<typeof xtermParser.registerEscHandler>) => hooks.push(xtermParser.registerEscHandler(...args)),
    };
    this.harvester = new LineHarvester(this.term, parser, {
      onOutput: options.onOutput,
      onError: (error) => this.recordError(error),
      maxLineChars: Math.max(this.cols * 2, Math.floor(options.maxLineChars ?? 64 * 1024)),
      harvestEvery: Math.floor(scrollback / 2),
      altActive: () => this.altActive,
    });
    parser.registerCsiHandler({ final: 'b' }, (params) => typeof params[0] === 'number' && params[0] > MAX_REPEAT);

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
    return this.flushWaiters.wait();
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
    return this.harvester.lostOutput;
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
    const lines = this.harvester.screen();
    this.screenCache = { version: this.version, lines };
    return lines;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.queue.clear();
    this.queued = 0;
    this.harvester.dispose();
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
    this.flushWaiters.dispose();
  }

  // -------------------------------------------------------------------------------------------
  // Feeding the emulator

  private isIdle(): boolean {
    return this.disposed || this.stalled || (this.inFlight === 0 && this.queue.isEmpty);
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
        this.flushWaiters.releaseAll();
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
    this.flushWaiters.progress();
    this.term.write(slice, () => {
      this.inFlight = 0;
      this.flushWaiters.progress();
      this.queued -= slice.length;
      if (this.disposed) {
        return;
      }
      if (this.priming) {
        this.priming = false;
        // The hooks saw the reset's own sequences: they describe a fresh emulator now.
        this.fastPathState.reset();
        this.harvester.markScrollbackRead();
      } else if (!this.altActive) {
        this.harvester.harvest();
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
    this.harvester.emitDirect(plan.lines);
    this.directLineCount += plan.lines.length;
    const tail = slice.slice(plan.tailStart, plan.end);
    this.queued -= slice.length - tail.length - (slice.length - plan.end);
    // Home + erase display: the rows just emitted leave the screen without entering scrollback.
    const reset = '\x1b[H\x1b[2J';
    this.queued += reset.length;
    return { write: reset + tail, requeue: slice.slice(plan.end) };
  }

  /**
   * Moves the cursor to where the output really starts (the emulator is idle: nothing in flight).
   * What scrolled is read first; the rows above the origin are the prompt's and count as read.
   */
  private moveToOrigin({ origin, clearScreen }: OriginRequest): void {
    if (this.altActive) {
      return;
    }
    this.harvester.harvest();
    if (clearScreen) {
      // Home + erase display (as the fast path does): the rows leave without entering scrollback.
      this.harvester.dropPending();
      this.queue.unshift(new OriginRequest(origin, false));
      this.queue.unshift('\x1b[H\x1b[2J');
      this.queued += 7;
      return;
    }
    this.harvester.startAt(origin);
    const move = `\x1b[${origin.row + 1};${origin.col + 1}H`;
    this.queue.unshift(move);
    this.queued += move.length;
    this.version++;
  }

  private recordError(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
  }
}
