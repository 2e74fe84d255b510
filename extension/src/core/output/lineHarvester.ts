/**
 * The renderer's reading half: lines leave the emulator as a stream of finished text. A row is
 * final once it has scrolled off the screen, because no escape sequence can reach it any more.
 * Soft-wrapped rows are joined back into one logical line and trailing spaces are trimmed. What is
 * still on screen is read on demand (`screen()`), so at any time: full output = everything
 * emitted + the current screen.
 *
 * Memory stays bounded: the emulator keeps only a small scrollback ring, and rows are harvested
 * from it before they can be recycled. A marker (public xterm API) sits on the last harvested
 * row; xterm keeps it pointing at the same row as the ring trims, so the rows after it are
 * exactly the ones not yet read. Harvesting runs after every written slice, from the scroll event
 * for slices that scroll more than half the ring, and from parser hooks before sequences that
 * would move or discard unread rows.
 *
 * Where the real screen is known, a command's output starts where it really did (outputStart.ts).
 */
import type { IMarker, Terminal } from '@xterm/headless';
import { logicalLines, rowText, trimTrailingSpaces } from './bufferText';
import type { ParserHooks } from './fastPathState';
import { OutputStart, type ScreenOrigin } from './outputStart';

export interface LineHarvesterOptions {
  /** Receives finished text in order: whole lines ending in "\n", or pieces of an overlong line. */
  readonly onOutput: (text: string) => void;
  /** Errors met while harvesting or emitting (never thrown into xterm's parser). */
  readonly onError: (error: unknown) => void;
  /** A logical line longer than this is emitted in pieces. */
  readonly maxLineChars: number;
  /** Scrolls after which a slice still being parsed is harvested (half the scrollback ring). */
  readonly harvestEvery: number;
  /** Whether the alternate screen is shown (the normal buffer is frozen meanwhile). */
  readonly altActive: () => boolean;
}

export class LineHarvester {
  private readonly rows: number;
  /** Marker on the last harvested row of the normal buffer; undefined: nothing harvested yet. */
  private marker: IMarker | undefined;
  /** The logical line whose rows scrolled off but whose end may still be on screen. */
  private pending: string | undefined;
  private scrollsSinceHarvest = 0;
  private lostRows = false;
  private readonly start = new OutputStart();

  /** Registers its parser hooks through `parser` (the renderer removes them before reuse). */
  constructor(
    private readonly term: Terminal,
    parser: ParserHooks,
    private readonly options: LineHarvesterOptions,
  ) {
    this.rows = term.rows;
    const altActive = options.altActive;
    // ED 3 (erase saved lines, sent by `clear`) would discard rows we have not read yet. The
    // scrollback is invisible storage to us, so swallowing it changes nothing anyone can see.
    parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (!altActive() && (params[0] === 2 || params[0] === 3)) {
        this.start.erased();
      }
      return params[0] === 3;
    });
    // Before the screen switches to the alternate buffer (vim, less), read the normal buffer's
    // scrolled rows while markers can still be placed on it.
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      if (!altActive() && params.some((p) => p === 47 || p === 1047 || p === 1049)) {
        this.harvest();
      }
      return false;
    });
    // RIS (ESC c) replaces the buffers: read what scrolled, finish the pending line, start over.
    parser.registerEscHandler({ final: 'c' }, () => {
      this.start.erased();
      this.harvest();
      this.finishPending();
      this.marker?.dispose();
      this.marker = undefined;
      return false;
    });
    // Scrolling or inserting/deleting rows in place can put a different row right below the
    // scrollback; read what scrolled first, so each line's end is judged by the row that followed
    // it when it left the screen.
    const harvestFirst = (): boolean => {
      if (!altActive()) {
        this.harvest();
      }
      return false;
    };
    for (const final of ['S', 'T', 'L', 'M']) {
      parser.registerCsiHandler({ final }, harvestFirst);
    }
    parser.registerEscHandler({ final: 'M' }, harvestFirst);
  }

  /** True if rows were ever lost between harvests (should never happen; for diagnostics). */
  get lostOutput(): boolean {
    return this.lostRows;
  }

  /** The emulator scrolled while parsing: a slice that scrolls past half the ring is harvested mid-way. */
  scrolled(): void {
    if (!this.options.altActive() && ++this.scrollsSinceHarvest >= this.options.harvestEvery) {
      this.harvest();
    }
  }

  /** Counts every row in the scrollback as read (the blank rows that primed the ring, or a reused emulator's old ones). */
  markScrollbackRead(): void {
    const buffer = this.term.buffer.normal;
    this.marker = this.term.registerMarker(buffer.baseY - 1 - (buffer.baseY + buffer.cursorY));
  }

  /** Harvests, never throwing into xterm's parser (that would stall its write queue). */
  harvest(): void {
    try {
      this.harvestRows();
    } catch (error) {
      this.options.onError(error);
    }
  }

  /** The output starts at `origin` from now on (harvested first): the rows above it count as read. */
  startAt(origin: ScreenOrigin): void {
    this.finishPending();
    this.start.begin(origin);
  }

  /** What the screen shows is about to be erased as not output: the pending line is not either. */
  dropPending(): void {
    this.pending = undefined;
  }

  /** The fast path's lines, rendered without the emulator: emitted after the screen's lines above the cursor. */
  emitDirect(lines: readonly string[]): void {
    const above = this.linesFromPrompt(this.term.buffer.normal.cursorY);
    this.pending = undefined;
    this.emit(this.start.finalLines(above.concat(lines)).join('\n') + '\n');
  }

  /** The not-yet-final lines of the normal screen, trailing blank lines dropped. */
  screen(): string[] {
    const lines = this.start.screenLines(this.linesFromPrompt(this.rows));
    while (lines.length > 0 && lines[lines.length - 1] === '') {
      lines.pop();
    }
    return lines;
  }

  dispose(): void {
    this.marker?.dispose();
  }

  /** Logical lines of the screen rows below the prompt's, down to row `end`, continuing the pending line. */
  private linesFromPrompt(end: number): string[] {
    const buffer = this.term.buffer.normal;
    const top = Math.min(this.start.topRows, this.rows);
    return logicalLines(buffer, this.rows - top, buffer.baseY + top, end - top, this.pending);
  }

  /** Reads every row that scrolled into the normal buffer's scrollback since the last harvest. */
  private harvestRows(): void {
    this.scrollsSinceHarvest = 0;
    if (this.options.altActive()) {
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
          if (this.pending.length > this.options.maxLineChars) {
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
    if (!buffer.getLine(end)?.isWrapped) {
      this.finishPending();
    }
  }

  private finishPending(): void {
    if (this.pending !== undefined) {
      this.emitLine(this.pending);
      this.pending = undefined;
    }
  }

  private emitLine(text: string): void {
    const line = this.start.finalLine(trimTrailingSpaces(text));
    if (line !== undefined) {
      this.emit(line + '\n');
    }
  }

  private emit(text: string): void {
    try {
      this.options.onOutput(text);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
