/** The reliability suite's results: one row per check, printed as the table docs/reliability.md quotes. */
import { cpus, loadavg } from 'node:os';
import { summarize } from '../bench/stats';

export type Area = 'hostile input' | 'load' | 'faults' | 'isolation';

export interface Check {
  readonly area: Area;
  /** What was tried. */
  readonly name: string;
  /** How often. */
  readonly tried: number;
  /** What was lost: calls unanswered or answered wrongly, crashes, hangs, foreign kills (goal: 0). */
  readonly lost: number;
  /** The goal besides losing nothing, when there is one (memory). */
  readonly goal?: string;
  /** Every goal of the row met. */
  readonly met: boolean;
  /** Figures and what "lost" counted. */
  readonly figures: string;
  /** Set when the check could not run here, and why (printed loudly). */
  readonly skipped?: string;
}

export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
export const signedMb = (bytes: number): string => `${bytes >= 0 ? '+' : ''}${(bytes / 1e6).toFixed(1)} MB`;

/** p50 / p95 / max of durations in ms, for a row's figures. */
export function latency(samples: readonly number[]): string {
  if (samples.length === 0) return 'no samples';
  const s = summarize(samples);
  const f = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
  return `p50 ${f(s.p50)}, p95 ${f(s.p95)}, max ${f(s.max)}`;
}

export function header(seed: number, scale: string, vscodeVersion: string): string {
  return (
    `Terminal Shepherd reliability (${scale}) — seed ${seed}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}, ` +
    `VS Code ${vscodeVersion} (code-server)\nReplay: npm run soak -- --seed ${seed}${scale === 'full' ? '' : ' --short'}`
  );
}

/** The table: what was tried, how often, what was lost, whether the goals were met, and the figures. */
export function renderTable(checks: readonly Check[]): string {
  const rows = checks.map((c) => ({
    area: c.area as string,
    name: c.name,
    tried: c.skipped ? '-' : String(c.tried),
    lost: c.skipped ? '-' : String(c.lost),
    goal: c.skipped ? 'SKIPPED' : c.met ? 'met' : 'NOT MET',
    figures: c.skipped ? `!!! ${c.skipped} !!!` : `${c.goal ? `[${c.goal}] ` : ''}${c.figures}`.replace(/\s+/g, ' '),
  }));
  const width = (key: keyof (typeof rows)[number], title: string): number => Math.max(title.length, ...rows.map((r) => r[key].length));
  const w = { area: width('area', 'area'), name: width('name', 'check'), tried: width('tried', 'tried'), lost: width('lost', 'lost'), goal: width('goal', 'goals') };
  const line = (r: (typeof rows)[number]): string =>
    `${r.area.padEnd(w.area)}  ${r.name.padEnd(w.name)}  ${r.tried.padStart(w.tried)}  ${r.lost.padStart(w.lost)}  ${r.goal.padEnd(w.goal)}  ${r.figures}`;
  const head = line({ area: 'area', name: 'check', tried: 'tried', lost: 'lost', goal: 'goals', figures: 'figures' });
  return [head, '-'.repeat(head.length + 20), ...rows.map(line)].join('\n');
}
