/**
 * waitMode "ready": waits until a server or watcher started by a run is ready to use, or fails
 * fast. Ready means a port the run's process tree listens on (from the OS) that answers, over
 * HTTP where the output or the port gives a URL; for a watcher without a port, its ready line
 * (a known tool's, or the caller's readyPattern). A log line alone never makes a server ready:
 * Django and Puma print theirs before they bind.
 *
 * Fails fast: the run ended (exit code and output, e.g. EADDRINUSE), it asks a question
 * (waiting_for_input; a keyboard-shortcut hint such as Vite's is not one), the caller cancelled,
 * or the timeout passed (the server keeps running). The decision rules are pure functions
 * (planProbes, judge) so they are unit-tested without servers.
 */
import type { ReadyInfo } from '../../../../common/src/protocol';
import type { RunOutputSnapshot } from '../output/runOutput';
import type { RunProgress } from '../run/commandRun';
import type { RunState } from '../run/runState';
import type { WaitOptions, WaitOutcome } from '../run/runWait';
import type { ProbeResult } from './probe';
import { findLocalUrls, findReadyLine, isShortcutHint, type LocalUrl, type ReadyLineMatch } from './serverOutput';

/** The part of a CommandRun readiness uses. */
export interface ReadyRun {
  /** The command line: a watcher's banner is a ready line only for a command that watches. */
  readonly command: string;
  readonly state: RunState;
  readonly active: boolean;
  /** The run was disposed (the window is closing): its waits return at once. */
  readonly disposed: boolean;
  wait(options: WaitOptions): Promise<WaitOutcome>;
  progress(): RunProgress;
  outputSnapshot(): Promise<RunOutputSnapshot>;
}

export interface ReadyEnvironment {
  /** TCP ports the run's process tree listens on now (from the OS). */
  treePorts(): Promise<number[]>;
  probeUrl(url: string): Promise<ProbeResult>;
  probePort(port: number): Promise<ProbeResult>;
  now(): number;
}

export interface ReadyOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The caller's readyPattern: a matching line makes the run ready. */
  readonly readyPattern?: RegExp;
}

export type ReadyOutcome =
  | { readonly kind: 'ready'; readonly info: ReadyInfo }
  /** The run ended (completed or terminal_closed) before it was ready. */
  | { readonly kind: 'ended' }
  | { readonly kind: 'waiting_for_input' }
  | { readonly kind: 'cancelled' }
  /** The run was disposed: the window is closing. */
  | { readonly kind: 'disposed' }
  | { readonly kind: 'timeout'; readonly seen: ReadySeen };

/** What the wait saw, for an honest timeout message. */
export interface ReadySeen {
  readonly ports: readonly number[];
  readonly urls: readonly string[];
  readonly line?: string;
  readonly lastProbe?: ProbeResult;
}

/** A probe to make: a URL the output printed (its port is the tree's), or a bare port. */
export type ProbeTarget = { readonly url: string; readonly port: number } | { readonly port: number; readonly url?: undefined };

/** How long after a watcher's ready line a port may still appear before the line alone counts. */
export const WATCHER_SETTLE_MS = 500;
/**
 * The OS shows a bind before VS Code delivers the line that announced it: when the port answered
 * and no printed URL names it yet, the output gets this long to catch up (a URL may carry a path).
 */
export const URL_CATCH_UP_MS = 150;
/** An answer outside Playwright's statuses (404, 500) counts once it held this long without a better one. */
export const WEAK_ANSWER_GRACE_MS = 2000;

/** Probe cadence: fast at first (servers usually come up within seconds), slower later. */
export function probeIntervalMs(elapsedMs: number): number {
  if (elapsedMs < 5000) return 50;
  return elapsedMs < 30_000 ? 100 : 250;
}

/** Where one look at the tree costs much (lsof on macOS, CIM on Windows), looks are spaced so they take at most a quarter of the time. */
export const LOOK_COST_FACTOR = 4;

/**
 * What to probe: URLs the output printed whose port the tree listens on (a URL on a port the
 * tree does not hold may be another process's), then the tree's other ports, bare.
 */
export function planProbes(ports: readonly number[], urls: readonly LocalUrl[]): ProbeTarget[] {
  const held = new Set(ports);
  const targets: ProbeTarget[] = urls.filter((u) => held.has(u.port)).map((u) => ({ url: u.url, port: u.port }));
  const covered = new Set(targets.map((t) => t.port));
  for (const port of ports) if (!covered.has(port)) targets.push({ port });
  return targets;
}

export interface Judgement {
  readonly elapsedMs: number;
  readonly ports: readonly number[];
  readonly urls: readonly LocalUrl[];
  readonly line: (ReadyLineMatch & { readonly atMs: number }) | undefined;
  readonly results: readonly ProbeResult[];
  /** When an answer outside the accepted statuses was first seen. */
  readonly weakSinceMs: number | undefined;
}

/** The readiness verdict for one look, or undefined to keep waiting. Pure. */
export function judge(j: Judgement): Omit<ReadyInfo, 'waitedMs'> | undefined {
  const urlsOf = (extra?: string): string[] => {
    const held = new Set(j.ports);
    const printed = j.urls.filter((u) => held.has(u.port)).map((u) => u.url);
    return [...new Set([...printed, ...(extra !== undefined && printed.length === 0 ? [extra] : [])])];
  };
  if (j.line?.kind === 'pattern') {
    return { ports: [...j.ports], urls: urlsOf(), via: 'pattern', line: j.line.line };
  }
  const accepted = j.results.find((r) => r.kind === 'http' && r.accepted);
  if (accepted?.kind === 'http') {
    return { ports: [...j.ports], urls: urlsOf(accepted.url), via: 'http', http: { url: accepted.url, status: accepted.status } };
  }
  const weak = j.results.find((r) => r.kind === 'http');
  if (weak?.kind === 'http' && j.weakSinceMs !== undefined && j.elapsedMs - j.weakSinceMs >= WEAK_ANSWER_GRACE_MS) {
    return { ports: [...j.ports], urls: urlsOf(weak.url), via: 'http', http: { url: weak.url, status: weak.status } };
  }
  const tcp = j.results.find((r) => r.kind === 'tcp');
  if (tcp?.kind === 'tcp' && weak === undefined) {
    return { ports: [...j.ports], urls: tcp.why === 'no_answer' ? urlsOf(tcp.url) : [], via: 'tcp' };
  }
  if (j.line?.kind === 'watcher' && j.ports.length === 0 && j.elapsedMs - j.line.atMs >= WATCHER_SETTLE_MS) {
    return { ports: [], urls: [], via: 'line', line: j.line.line };
  }
  return undefined;
}

/** Waits per the rules above; every path is bounded by options.timeoutMs. */
export async function waitUntilReady(run: ReadyRun, env: ReadyEnvironment, options: ReadyOptions): Promise<ReadyOutcome> {
  const start = env.now();
  const deadline = start + options.timeoutMs;
  let outputChars = -1;
  let urls: LocalUrl[] = [];
  let line: Judgement['line'];
  let ports: number[] = [];
  let lastProbe: ProbeResult | undefined;
  let weakSinceMs: number | undefined;
  let lookCostMs = 0;
  const seen = (): ReadySeen => ({
    ports,
    urls: urls.map((u) => u.url),
    ...(line ? { line: line.line } : {}),
    ...(lastProbe ? { lastProbe } : {}),
  });

  for (;;) {
    const stop = stopReason(run, options.signal);
    if (stop) return stop;
    const elapsed = env.now() - start;
    if (elapsed >= options.timeoutMs) return { kind: 'timeout', seen: seen() };

    // Output: the ready line (first one wins) and the URLs, re-read only when it grew.
    const chars = run.progress().outputChars;
    if (chars !== outputChars) {
      outputChars = chars;
      const text = (await run.outputSnapshot()).output;
      urls = findLocalUrls(text);
      if (!line) {
        const found = findReadyLine(text, options.readyPattern, run.command);
        if (found) line = { ...found, atMs: env.now() - start };
      }
    }
    // The tree's ports, then the probes, raced against the run ending.
    const looked = await untilRunSettles(run, options.signal, deadline - env.now(), async () => {
      const lookStart = env.now();
      ports = await env.treePorts();
      lookCostMs = env.now() - lookStart;
      const results: ProbeResult[] = [];
      for (const target of planProbes(ports, urls)) {
        const result = target.url !== undefined ? await env.probeUrl(target.url) : await env.probePort(target.port);
        results.push(result);
        lastProbe = result;
        if (result.kind === 'http' && result.accepted) break;
      }
      return results;
    });
    if (looked === undefined) continue; // the run settled, was cancelled or the time is up: checked at the top
    const now = env.now() - start;
    if (looked.some((r) => r.kind === 'http' && !r.accepted)) weakSinceMs ??= now;
    const verdict = judge({ elapsedMs: now, ports, urls, line, results: looked, weakSinceMs });
    if (verdict) {
      const printed = verdict.via === 'http' || verdict.via === 'tcp' ? await printedUrls(run, ports, { urls, outputChars }, options.signal) : undefined;
      return { kind: 'ready', info: { ...verdict, ...(printed && printed.length > 0 ? { urls: printed } : {}), waitedMs: Math.round(now) } };
    }

    const pause = Math.min(Math.max(probeIntervalMs(now), lookCostMs * LOOK_COST_FACTOR), deadline - env.now());
    if (pause > 0) await run.wait({ timeoutMs: pause, stopAtInput: false, ...(options.signal ? { signal: options.signal } : {}) });
  }
}

/**
 * The printed URLs of held ports, given the output up to URL_CATCH_UP_MS to deliver them. `known`
 * is what the output said when it held `outputChars` characters: output that came since (while
 * the tree was looked at and probed) is read at once, not only output still to come.
 */
async function printedUrls(run: ReadyRun, ports: readonly number[], known: { readonly urls: readonly LocalUrl[]; readonly outputChars: number }, signal: AbortSignal | undefined): Promise<string[]> {
  const held = (urls: readonly LocalUrl[]): string[] => urls.filter((u) => ports.includes(u.port)).map((u) => u.url);
  let found = held(known.urls);
  const deadline = performance.now() + URL_CATCH_UP_MS;
  let chars = known.outputChars;
  while (found.length === 0 && performance.now() < deadline && !signal?.aborted && run.active && !run.disposed) {
    if (run.progress().outputChars === chars) {
      await run.wait({ timeoutMs: 10, stopAtInput: false, ...(signal ? { signal } : {}) });
      continue;
    }
    chars = run.progress().outputChars;
    found = held(findLocalUrls((await run.outputSnapshot()).output));
  }
  return found;
}

/** The run ended, asks a real question, or the caller gave up: the wait is over. */
function stopReason(run: ReadyRun, signal: AbortSignal | undefined): ReadyOutcome | undefined {
  if (signal?.aborted) return { kind: 'cancelled' };
  if (run.disposed) return { kind: 'disposed' };
  const state = run.state;
  if (state.kind === 'completed' || state.kind === 'terminal_closed') return { kind: 'ended' };
  if (state.kind === 'waiting_for_input' && !isShortcutHint(state.prompt)) return { kind: 'waiting_for_input' };
  return undefined;
}

/**
 * Runs `work` unless the run settles first (ends, is cancelled, or `budgetMs` passes): then
 * undefined. The run's own wait is aborted when the work wins, so no listener or timer stays.
 */
async function untilRunSettles<T>(run: ReadyRun, signal: AbortSignal | undefined, budgetMs: number, work: () => Promise<T>): Promise<T | undefined> {
  if (budgetMs <= 0) return undefined;
  const local = new AbortController();
  const combined = signal ? AbortSignal.any([signal, local.signal]) : local.signal;
  const settled = run.wait({ timeoutMs: budgetMs, stopAtInput: false, signal: combined }).then(() => undefined);
  try {
    return await Promise.race([work(), settled]);
  } finally {
    local.abort();
  }
}
