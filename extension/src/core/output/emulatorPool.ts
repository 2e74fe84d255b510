/**
 * Emulators at rest, for reuse: a run's renderer hands its emulator back on dispose (when it is
 * at rest) and the next renderer of the same size resets it instead of building and priming a new
 * one. A fresh emulator is about 1 MB of typed arrays that V8 frees only when its external-memory
 * limit (64 MB) is reached, which left the extension host's allocator holding some 60 MB after
 * the first hundred runs. A few are kept, for terminals that run at the same time.
 */
import type { Terminal } from '@xterm/headless';

const spareEmulators: Terminal[] = [];
const MAX_SPARE_EMULATORS = 4;

export function takeSpareEmulator(cols: number, rows: number, scrollback: number): Terminal | undefined {
  const i = spareEmulators.findIndex((t) => t.cols === cols && t.rows === rows && t.options.scrollback === scrollback);
  return i < 0 ? undefined : spareEmulators.splice(i, 1)[0];
}

export function keepSpareEmulator(term: Terminal): void {
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
export function resetSequence(cols: number): string {
  let tabs = '\x1b[3g';
  for (let col = 8; col < cols; col += 8) {
    tabs += `\x1b[${col + 1}G\x1bH`;
  }
  return `\x18\x1b[?1049l\x1b[!p${tabs}\x1b[H\x1b[2J`;
}
