/** Shared helpers for the output pipeline tests. */
import { TerminalRenderer, type TerminalRendererOptions } from '../../../extension/src/core/output/terminalRenderer';
import { Random } from '../../soak/random';

export interface Rendered {
  /** Text emitted as final, in order (lines end in "\n"). */
  readonly emitted: string;
  /** currentScreen() after the last flush. */
  readonly screen: string[];
  /** emitted + screen, as lines: what a snapshot shows. */
  readonly lines: string[];
  readonly directLines: number;
}

/** Renders data written as the given chunks (or one string) and returns what came out. */
export async function render(data: string | readonly string[], options: Partial<TerminalRendererOptions> = {}): Promise<Rendered> {
  let emitted = '';
  const renderer = new TerminalRenderer({ ...options, onOutput: (text) => (emitted += text) });
  try {
    for (const chunk of typeof data === 'string' ? [data] : data) {
      renderer.write(chunk);
    }
    await renderer.flush();
    const screen = [...renderer.currentScreen()];
    return { emitted, screen, lines: joinLines(emitted, screen), directLines: renderer.directLines };
  } finally {
    renderer.dispose();
  }
}

/** The lines of emitted text followed by the screen (an emitted fragment continues the screen). */
export function joinLines(emitted: string, screen: readonly string[]): string[] {
  const text = emitted + screen.join('\n');
  if (text.length === 0) {
    return [];
  }
  const lines = text.split('\n');
  if (screen.length === 0 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

/** Deterministic pseudo-random numbers in [0, 1) (the reliability suite's seeded source). */
export function random(seed: number): () => number {
  const source = new Random(seed);
  return () => source.next();
}

/** Splits a string into chunks of random length (1..max). */
export function chunked(data: string, rand: () => number, max: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < data.length; ) {
    const len = 1 + Math.floor(rand() * max);
    chunks.push(data.slice(i, i + len));
    i += len;
  }
  return chunks;
}

export function gcIfAvailable(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return gc !== undefined;
}
