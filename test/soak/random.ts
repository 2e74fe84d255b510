/**
 * A seeded random source for the reliability suite: the same seed replays the same hostile
 * input. Each check draws from its own stream (`fork`), so a change in one check does not shift
 * what the others generate.
 */
import { randomInt } from 'node:crypto';

export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** mulberry32: small, fast, good enough to spread test cases. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string {
    const chars = [...alphabet];
    let out = '';
    for (let i = 0; i < length; i++) out += chars[this.int(0, chars.length - 1)];
    return out;
  }

  /** An independent stream for one part of the suite, derived from the seed and a label. */
  fork(label: string): Random {
    let h = this.seed ^ 0x9e3779b9;
    for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
    return new Random(h >>> 0);
  }
}

/** A fresh seed when none is given (printed, so the run can be replayed). */
export function newSeed(): number {
  return randomInt(1, 2 ** 31 - 1);
}
