/**
 * The renderer's input queue: text waiting for the emulator and requests for a line start or for
 * the output's start on the screen, in order. Slices are cut from its front, small chunks joined and big ones split. Taken entries are
 * blanked and dropped in bulk, so taking from the front stays cheap however many chunks wait.
 */

/** Entry asking for a line break unless the cursor is at the start of a line by then. */
const LINE_START = Symbol('lineStart');

import type { ScreenOrigin } from './outputStart';

/** Entry asking for the output to start at a screen position (see TerminalRenderer.startAt). */
export class OriginRequest {
  constructor(
    readonly origin: ScreenOrigin,
    /** What the screen shows is not output (the prompt's, drawn where our cursor was not): erase it. */
    readonly clearScreen: boolean,
  ) {}
}
type QueueItem = string | typeof LINE_START | OriginRequest;

export class SliceQueue {
  private readonly items: QueueItem[] = [];
  private head = 0;

  get isEmpty(): boolean {
    return this.head >= this.items.length;
  }

  push(data: string): void {
    this.items.push(data);
  }

  pushLineStart(): void {
    this.items.push(LINE_START);
  }

  pushOrigin(request: OriginRequest): void {
    this.items.push(request);
  }

  /** Removes an origin request from the front and returns it; undefined if the front is not one. */
  takeOrigin(): OriginRequest | undefined {
    const item = this.isEmpty ? undefined : this.items[this.head];
    if (!(item instanceof OriginRequest)) {
      return undefined;
    }
    this.head++;
    return item;
  }

  /** Puts data (or an origin request) back at the front. */
  unshift(data: string | OriginRequest): void {
    if (this.head > 0) {
      this.items[--this.head] = data;
    } else {
      this.items.unshift(data);
    }
  }

  /** Removes a line-start request from the front; false if the front is not one. */
  takeLineStart(): boolean {
    if (this.isEmpty || this.items[this.head] !== LINE_START) {
      return false;
    }
    this.head++;
    return true;
  }

  clear(): void {
    this.items.length = 0;
    this.head = 0;
  }

  /** Takes up to `maxChars` of text from the front, stopping at a line-start or origin request. */
  takeSlice(maxChars: number): string {
    const parts: string[] = [];
    let size = 0;
    while (this.head < this.items.length && size < maxChars) {
      const item = this.items[this.head]!;
      if (typeof item !== 'string') {
        break;
      }
      const room = maxChars - size;
      if (item.length <= room) {
        parts.push(item);
        size += item.length;
        this.items[this.head++] = '';
      } else {
        let cut = room;
        const code = item.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff && cut > 1) {
          cut--; // keep surrogate pairs together (xterm copes, but this keeps slices clean)
        }
        parts.push(item.slice(0, cut));
        size += cut;
        this.items[this.head] = item.slice(cut);
        break;
      }
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return parts.length === 1 ? parts[0]! : parts.join('');
  }
}
