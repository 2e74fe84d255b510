/**
 * Text read out of an emulator buffer: rows that soft-wrap are joined back into one logical line,
 * and trailing spaces are trimmed.
 */
import type { IBuffer, IBufferLine } from '@xterm/headless';

/**
 * Logical lines of `count` rows from `base` of a buffer whose screen is `rows` high. `prefix` is
 * the pending line: a wrapped first row continues it, otherwise it is a line of its own. Trailing
 * blank lines are kept.
 */
export function logicalLines(buffer: IBuffer, rows: number, base: number, count: number, prefix: string | undefined): string[] {
  const lines: string[] = [];
  let current = prefix;
  for (let r = 0; r < count; r++) {
    const line = buffer.getLine(base + r);
    if (!line) {
      break;
    }
    const next = r + 1 < rows ? buffer.getLine(base + r + 1) : undefined;
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

/**
 * The text of one row. A row continued by the next (soft wrap) is taken at full width; otherwise
 * empty cells at its end are dropped. When a wide character did not fit in the last column, xterm
 * leaves that cell empty and wraps: the blank is not part of the text.
 */
export function rowText(line: IBufferLine, next: IBufferLine | undefined): string {
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
