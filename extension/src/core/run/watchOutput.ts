/**
 * Test runners and builds in watch mode, read from their output: the banner a tool prints when a
 * cycle is done and it waits for file changes, the cycle's summary (pass/fail counts, errors) and
 * the keys that stop or re-run it. Pure; tested on output recorded from the real tools
 * (test/fixtures/watchers/) and on lines quoted from the sources of those these machines lack.
 */
import { isWatchCommand } from '../stacks/stackTable';

/** A key a watcher reads from the terminal (sent with terminal_input, no Enter unless said). */
export interface WatchKey {
  readonly text: string;
  readonly enter: boolean;
  /** What it does, for the message: "quits", "re-runs all tests". */
  readonly does: string;
}

export interface Watcher {
  readonly tool: string;
  /** The line a cycle ends with, once the tool waits for file changes. */
  readonly banner: RegExp;
  /** How many non-empty lines from the end of the output the banner may be when the output goes quiet. */
  readonly within: number;
  /** Only for command lines this accepts: the banner also ends one-shot runs of the tool. */
  readonly when?: (command: string) => boolean;
  /** A line that starts a new cycle: a banner before one of these belongs to the last cycle. */
  readonly restart?: RegExp;
  /** The lines a summary shows (the last match of each, in this order). */
  readonly summary: readonly RegExp[];
  /** The line the counts come from (its last match); the summary lines when absent. */
  readonly counts?: RegExp;
  /** Counts its own way, from the counts line (Karma states only what failed). */
  readonly count?: (line: string) => Counts;
  /** Stops it; Ctrl+C when absent. */
  readonly stop?: WatchKey;
  /** Runs the cycle again without a file change; saving a watched file when absent. */
  readonly rerun?: WatchKey;
}

const quit: WatchKey = { text: 'q', enter: false, does: 'quits' };
const ngTest = (command: string): boolean => /\b(ng\s+test|karma\s+start)\b/.test(command) && !/--(no-watch|watch[=\s]+false|single-run)\b/.test(command);
/** What jest's two ways of ending a cycle share. */
const jest = {
  tool: 'jest',
  summary: [/^Test Suites:\s/, /^Tests:\s/, /^No tests found\b/],
  counts: /^Tests:\s/,
  stop: quit,
  rerun: { text: 'a', enter: false, does: 'runs all tests' },
} as const;
const jestWatch = (command: string): boolean => /(^|\s)--watch(All)?(\s|=|$)/.test(command);
const nodeWatch = (command: string): boolean => /(^|\s)node\s+(.*\s)?--watch(-path)?\b/.test(command);

/** Known watchers, the first whose banner matches wins. */
export const WATCHERS: readonly Watcher[] = [
  {
    tool: 'vitest',
    // " PASS  Waiting for file changes..." / " FAIL  Tests failed. Watching for file changes..."
    banner: /\b(PASS|FAIL)\b.*\b(Waiting|Watching) for file changes\.\.\./,
    within: 2,
    summary: [/^\s*Test Files\s+\d/, /^\s*Tests\s+\d/, /^\s*Errors\s+\d/],
    counts: /^\s*Tests\s+\d/,
    stop: quit,
    rerun: { text: 'a', enter: false, does: 're-runs all tests' },
  },
  // The usage block after the first run, "Watch Usage: Press w to show more." after later ones.
  { ...jest, banner: /^\s*Watch Usage\b/, within: 9 },
  // Without a TTY or with CI set jest watches just the same but prints no usage block (it still
  // reads keys): its summary's last line ends the cycle, for a command line that asks to watch,
  // since a one-shot run prints it too and exits.
  { ...jest, banner: /^Ran all test suites\b/, within: 1, when: jestWatch },
  { tool: 'tsc --watch', banner: /\bWatching for file changes\.$/, within: 1, restart: /File change detected\./, summary: [/\bFound \d+ errors?\b/] },
  { tool: 'webpack --watch', banner: /\bwebpack [\d.]+ compiled\b/, within: 2, when: isWatchCommand, summary: [/\bwebpack [\d.]+ compiled\b/] },
  { tool: 'esbuild --watch', banner: /\[watch\] build finished, watching for changes/, within: 1, summary: [/\berror\b.*\d/i, /\[watch\] build finished/] },
  { tool: 'rollup --watch', banner: /\bwaiting for changes\.\.\.$/, within: 1, summary: [/^created .+ in [\d.]+m?s/, /^\[!\]/] },
  { tool: 'vite build --watch', banner: /^built in [\d.]+\s*m?s\.?$/, within: 1, when: isWatchCommand, summary: [/^✓ \d+ modules? transformed/, /^built in /] },
  {
    tool: 'nodemon',
    banner: /^\[nodemon\] (watching (path|extensions)|clean exit - waiting for changes|app crashed - waiting for file changes|starting `)/,
    within: 20,
    restart: /^\[nodemon\] restarting\b/,
    summary: [/^\[nodemon\] (starting `|clean exit|app crashed)/],
    rerun: { text: 'rs', enter: true, does: 'restarts it' },
  },
  { tool: 'node --watch', banner: /^(Completed|Failed) running '.+'/, within: 1, when: nodeWatch, summary: [/^(Completed|Failed) running '.+'/] },
  { tool: 'cargo watch', banner: /^\[Finished running\. Exit status: \d+\]$/i, within: 1, restart: /^\[Running '/, summary: [/^test result: /, /^error(\[E\d+\])?: /, /^\[Finished running\./i], counts: /^test result: / },
  {
    tool: 'ng test (Karma)',
    // "Chrome Headless ...: Executed 5 of 5 (1 FAILED) (0.021 secs / 0.015 secs)", "... Executed 5 of 5 SUCCESS (...)"
    banner: /\bExecuted \d+ of \d+\b.*\b(SUCCESS|FAILED|ERROR)\b/,
    within: 3,
    when: ngTest,
    summary: [/\bExecuted \d+ of \d+\b/],
    counts: /\bExecuted \d+ of \d+\b/,
    count: (line) => {
      const m = /\bExecuted (\d+) of \d+(?: \((\d+) FAILED\))?(?:.*\(skipped (\d+)\))?/.exec(line);
      if (!m) return {};
      const failed = Number(m[2] ?? 0);
      return { passed: Number(m[1]) - failed, failed, ...(m[3] !== undefined ? { skipped: Number(m[3]) } : {}) };
    },
  },
];

/** What a cycle's summary counts. */
export interface Counts {
  readonly passed?: number;
  readonly failed?: number;
  readonly skipped?: number;
  readonly errors?: number;
  readonly warnings?: number;
}

export interface CycleEnd extends Counts {
  readonly watcher: Watcher;
  readonly summary: string[];
}

/**
 * Whether the output, now quiet, shows a watcher that finished a cycle: a known banner among its
 * last non-empty lines (with no restart line after it), printed by a command the tool accepts.
 * `lines` are the last lines of the rendered output, oldest first.
 */
export function findCycleEnd(command: string, lines: readonly string[]): CycleEnd | undefined {
  const text = lines.map((l) => l.trimEnd()).filter((l) => l.trim().length > 0);
  for (const watcher of WATCHERS) {
    if (watcher.when && !watcher.when(command)) continue;
    const tail = text.slice(-watcher.within);
    const at = lastIndex(tail, watcher.banner);
    if (at < 0) continue;
    if (watcher.restart && tail.slice(at + 1).some((l) => watcher.restart!.test(l))) continue;
    const upTo = text.length - tail.length + at + 1;
    return { watcher, ...summarize(watcher, text.slice(0, upTo)) };
  }
  return undefined;
}

/** The summary lines (last match of each pattern, in output order) and the counts in them. */
function summarize(watcher: Watcher, lines: readonly string[]): Omit<CycleEnd, 'watcher'> {
  const found = new Set<number>();
  for (const pattern of watcher.summary) {
    const i = lastIndex(lines, pattern);
    if (i >= 0) found.add(i);
  }
  const summary = [...found].sort((a, b) => a - b).map((i) => lines[i]!.trim());
  const countLine = (watcher.counts ? lines[lastIndex(lines, watcher.counts)] : summary.join('\n'))?.trim() ?? '';
  return { summary, ...(watcher.count ?? countsIn)(countLine) };
}

const COUNT = /(\d+)\s+(passed|failed|skipped|todo|pending|ignored|errors?|warnings?|SUCCESS|FAILED)\b/gi;

/** Counts a summary line states: "1 failed | 3 passed (4)", "Found 2 errors", "compiled with 1 error and 2 warnings". */
export function countsIn(line: string): Counts {
  const counts: { passed?: number; failed?: number; skipped?: number; errors?: number; warnings?: number } = {};
  const add = (key: keyof typeof counts, n: number): void => {
    counts[key] = (counts[key] ?? 0) + n;
  };
  for (const m of line.matchAll(COUNT)) {
    const n = Number(m[1]);
    const word = m[2]!.toLowerCase();
    if (word === 'passed' || word === 'success') add('passed', n);
    else if (word === 'failed') add('failed', n);
    else if (word === 'skipped' || word === 'todo' || word === 'pending' || word === 'ignored') add('skipped', n);
    else if (word.startsWith('error')) add('errors', n);
    else add('warnings', n);
  }
  return counts;
}

function lastIndex(lines: readonly string[], pattern: RegExp): number {
  for (let i = lines.length - 1; i >= 0; i--) if (pattern.test(lines[i]!)) return i;
  return -1;
}
