/** Percentiles for benchmarks: figures are printed, never asserted. */
export interface Stats {
  readonly p50: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarize(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN, runs: sorted.length };
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** Times `fn` over `runs` calls after a few warm-up calls (JIT, caches). */
export async function measure(runs: number, fn: () => unknown, warmup = Math.min(10, runs)): Promise<Stats> {
  for (let i = 0; i < warmup; i++) {
    await fn();
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return summarize(times);
}
