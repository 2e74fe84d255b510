/**
 * The rendered output, bounded: of the finished text stream only a head (the first half of the
 * limit) and a tail (at least the last half) are kept, with counts of the whole. The current
 * screen is not held here; every reading takes it as an argument, since full output = stream +
 * screen.
 *
 * Until the stream first exceeds the limit the tail holds all of it. At that point (or when the
 * screen takes the output over the limit) it overflows into the spill, which is handed everything
 * so far and receives everything after; from then on the tail is trimmed. A long run's output
 * goes to the spill earlier (persist), so it is on disk while the run goes on.
 *
 * Readings are of the canonical output: stream + screen, without the blank lines a stream ends
 * with when the screen is empty.
 */
import type { OutputSpill } from './outputSpill';

export class BoundedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  /** First headCap characters of the finished text stream. */
  private headText = '';
  /** The whole stream until it exceeds the limit, then at least its last tailCap characters. */
  private tailText = '';
  private streamChars = 0;
  private streamNewlines = 0;
  /** Newlines at the very end of the stream (blank lines that scrolled off last). */
  private trailingNewlines = 0;
  private overflowed = false;
  /** The spill receives the stream (it overflowed, or was asked to persist it). */
  private spilling = false;

  constructor(
    readonly limit: number,
    private readonly spill: Pick<OutputSpill, 'open' | 'append'>,
  ) {
    this.headCap = Math.ceil(limit / 2);
    this.tailCap = Math.ceil(limit / 2);
  }

  /** First characters of the stream (up to half the limit). */
  get head(): string {
    return this.headText;
  }

  /** Characters held for the tail (for the memory bound). */
  get tailChars(): number {
    return this.tailText.length;
  }

  /** Characters of the whole finished stream. */
  get finishedChars(): number {
    return this.streamChars;
  }

  /** Receives finished text from the renderer (synchronously, while it parses). */
  append(text: string): void {
    this.streamChars += text.length;
    this.streamNewlines += countNewlines(text);
    const end = endBeforeNewlines(text);
    this.trailingNewlines = end === 0 ? this.trailingNewlines + text.length : text.length - end;
    if (this.headText.length < this.headCap) {
      this.headText += text.length <= this.headCap - this.headText.length ? text : text.slice(0, this.headCap - this.headText.length);
    }
    if (this.spilling) {
      this.spill.append(text);
    }
    if (this.overflowed) {
      if (text.length >= this.tailCap) {
        this.tailText = text.slice(-this.tailCap);
      } else {
        this.tailText += text;
        if (this.tailText.length > 2 * this.tailCap) {
          this.tailText = this.tailText.slice(-this.tailCap);
        }
      }
      return;
    }
    this.tailText += text;
    if (this.streamChars > this.limit) {
      this.overflow();
    }
  }

  /** From now on the stream goes to the spill as well: everything so far, and what follows. */
  persist(): void {
    if (this.spilling) {
      return;
    }
    this.spilling = true;
    this.spill.open(this.tailText);
  }

  /** The output outgrew the limit: hand the spill everything so far and trim the tail (once). */
  overflow(): void {
    if (this.overflowed) {
      return;
    }
    this.persist();
    this.overflowed = true;
    if (this.tailText.length > 2 * this.tailCap) {
      this.tailText = this.tailText.slice(-this.tailCap);
    }
  }

  /** Characters of the canonical output. */
  length(screen: string): number {
    return screen.length > 0 ? this.streamChars + screen.length : this.streamChars - this.trailingNewlines;
  }

  /** Line breaks of the canonical output. */
  newlines(screen: string): number {
    return screen.length > 0 ? this.streamNewlines + countNewlines(screen) : this.streamNewlines - this.trailingNewlines;
  }

  lines(screen: string): number {
    return this.length(screen) === 0 ? 0 : this.newlines(screen) + 1;
  }

  /** The tail as the canonical output ends: without the stream's trailing blank lines if the screen is empty. */
  tailEnd(screen: string): string {
    return this.tailText.slice(0, this.tailEndIndex(screen.length > 0));
  }

  /** The whole canonical output if head and tail still cover the stream, else undefined. */
  whole(screen: string): string | undefined {
    let stream: string;
    if (!this.overflowed || this.tailText.length === this.streamChars) {
      stream = this.tailText;
    } else {
      const overlap = this.headText.length + this.tailText.length - this.streamChars;
      if (this.headText.length < this.headCap || overlap < 0) {
        return undefined;
      }
      stream = this.headText + this.tailText.slice(overlap);
    }
    if (screen.length > 0) {
      return stream + screen;
    }
    return stream.slice(0, endBeforeNewlines(stream));
  }

  /** The last `count` lines of the canonical output, oldest first. */
  lastLines(screen: readonly string[], count: number): string[] {
    if (count <= 0) {
      return [];
    }
    if (screen.length > count) {
      return screen.slice(-count);
    }
    // Take just enough of the tail: count + 1 line breaks back from its (canonical) end.
    const text = this.tailText;
    const end = this.tailEndIndex(screen.length > 0);
    let start = end;
    for (let found = 0; found <= count && start > 0; found++) {
      const nl = text.lastIndexOf('\n', start - 1);
      start = nl < 0 ? 0 : nl;
    }
    let joined = text.slice(start === 0 ? 0 : start + 1, end);
    if (screen.length > 0) {
      joined += screen.join('\n');
    }
    if (joined.length === 0) {
      return [];
    }
    return joined.split('\n').slice(-count);
  }

  private tailEndIndex(screenShown: boolean): number {
    return screenShown ? this.tailText.length : Math.max(0, this.tailText.length - this.trailingNewlines);
  }
}

export function countNewlines(text: string): number {
  let count = 0;
  let i = text.indexOf('\n');
  while (i >= 0) {
    count++;
    i = text.indexOf('\n', i + 1);
  }
  return count;
}

/** Where the newlines a text ends with begin (its length if it ends otherwise). */
function endBeforeNewlines(text: string): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) {
    end--;
  }
  return end;
}
