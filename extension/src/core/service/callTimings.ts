/**
 * Where one call's time goes, stage by stage, from monotonic marks carried on the call: each mark
 * ends the stage under way. Cheap enough to take on every call (a clock read and a property); the
 * result carries the spans only when the caller asked (RequestMeta.timings, a benchmark), so a
 * regression names its stage (test/bench/chainBench.ts prints them).
 */
export class CallTimings {
  private readonly spans: Record<string, number> = {};
  private readonly startedAt: number;
  private last: number;

  constructor(private readonly now: () => number) {
    this.startedAt = now();
    this.last = this.startedAt;
  }

  /** Ends `stage` at `at` (now unless given: a time the run recorded); a stage marked twice adds up. Times before the last mark count as 0. */
  mark(stage: string, at = this.now()): void {
    const end = Math.max(this.last, at);
    this.spans[stage] = (this.spans[stage] ?? 0) + (end - this.last);
    this.last = end;
  }

  /** The spans in ms (0.01 ms steps), with `total` from the call's arrival to now. */
  done(): Record<string, number> {
    const round = (ms: number): number => Math.round(ms * 100) / 100;
    const out: Record<string, number> = {};
    for (const [stage, ms] of Object.entries(this.spans)) out[stage] = round(ms);
    out.total = round(this.now() - this.startedAt);
    return out;
  }
}
