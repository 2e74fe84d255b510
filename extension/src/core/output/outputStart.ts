/**
 * Where a command's output starts on the real screen, for a renderer as large as that screen.
 * ConPTY paints with absolute rows (`CSI row;1H`), so the emulator's cursor must be where the
 * command started (its C mark): the rows above it, and the cells of its row left of it, are the
 * prompt's and the typed command's, never output. A row the output started mid-way in and never
 * wrote on is the echo's line (pwsh 7.4.2 ends it after C), not an empty line of output.
 */

/** The cursor's row and column (0-based) on the real screen when the command started. */
export interface ScreenOrigin {
  readonly row: number;
  readonly col: number;
}

/** A screen as the shell reported it (SCREEN_PROPERTY): its size and the cursor when the command started. */
export interface ScreenReport extends ScreenOrigin {
  readonly cols: number;
  readonly rows: number;
}

/** Sizes beyond these are no terminal's: the report is ignored rather than an emulator that large built. */
const MAX_COLS = 1000;
const MAX_ROWS = 500;

/** Reads `row,col,cols,rows` (shell/pwshCommon.ps1 __TshepScreen); undefined unless it is a real screen with the cursor on it. */
export function parseScreenReport(value: string): ScreenReport | undefined {
  const match = /^(\d{1,4}),(\d{1,4}),(\d{1,4}),(\d{1,4})$/.exec(value);
  if (!match) return undefined;
  const [row, col, cols, rows] = match.slice(1).map(Number) as [number, number, number, number];
  if (cols < 2 || rows < 2 || cols > MAX_COLS || rows > MAX_ROWS || row >= rows || col >= cols) return undefined;
  return { row, col, cols, rows };
}

export class OutputStart {
  /** Rows at the top of the screen above the origin, not yet scrolled off. */
  private promptRows = 0;
  /** The origin's column, until the first line of output has been read. */
  private col = 0;

  begin(origin: ScreenOrigin): void {
    this.promptRows = origin.row;
    this.col = origin.col;
  }

  /** The screen was erased (ED 2/3, RIS): whatever is drawn on it from now on is output. */
  erased(): void {
    this.promptRows = 0;
  }

  /** Screen rows at the top that are the prompt's. */
  get topRows(): number {
    return this.promptRows;
  }

  /** True (once per prompt row) for a row scrolled off the top that was the prompt's. */
  skipsScrolledRow(): boolean {
    if (this.promptRows === 0) {
      return false;
    }
    this.promptRows--;
    return true;
  }

  /** A final line: the first one from the origin's column; undefined when that leaves it empty. */
  finalLine(line: string): string | undefined {
    if (this.col === 0) {
      return line;
    }
    const rest = line.slice(this.col);
    this.col = 0;
    return rest === '' ? undefined : rest;
  }

  /** A piece of an overlong first line, emitted before its end is known. */
  piece(text: string): string {
    const rest = text.slice(this.col);
    this.col = 0;
    return rest;
  }

  /** Final lines read at once (the first may be the origin's row). */
  finalLines(lines: readonly string[]): string[] {
    if (lines.length === 0) {
      return [];
    }
    const first = this.finalLine(lines[0]!);
    return first === undefined ? lines.slice(1) : [first, ...lines.slice(1)];
  }

  /** The screen's lines as they stand, without consuming the origin (they are not final). */
  screenLines(lines: string[]): string[] {
    if (this.col > 0 && lines.length > 0) {
      const first = lines[0]!.slice(this.col);
      if (first === '') lines.shift();
      else lines[0] = first;
    }
    return lines;
  }
}
