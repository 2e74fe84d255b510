/**
 * The renderer's input queue: text waiting for the emulator and requests for a line start, in
 * order. Slices are cut from its front, small chunks joined and big ones split. Taken entries are
 * blanked and dropped in bulk, so taking from the front stays cheap however many chunks wait.
 */

/** Entry asking for a line break unless the cursor is at the start of a line by then. */
const LINE_START = Symbol('lineStart');
type QueueItem = string | typeof LINE_START;

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

  /** Puts data back at the front. */
  unshift(data: string): void {
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

  /** Takes up to `maxChars` of text from the front, stopping at a line-start request. */
  takeSlice(maxChars: number): string {
    const parts: string[] = [];
    let size = 0;
    while (this.head < this.items.length && size < maxChars) {
      const item = this.items[this.head]!;
      if (item === LINE_START) {
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
