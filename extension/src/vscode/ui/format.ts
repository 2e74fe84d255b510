/**
 * Words and numbers the process UI shows: ages, ports, one-line descriptions, kill reports.
 * Pure (no vscode), so every string a user reads is unit-tested.
 */
import { formatCost, type ProcessCost } from '../../../../common/src/processCost';
import type { KillResult } from '../../../../common/src/protocol';

export { flattenProcesses } from '../../core/ledger/processForest';

/** The fields of a process the texts use (TrackedProcess and LedgerSummary entries both have them). */
export interface ProcessFacts extends ProcessCost {
  readonly pid: number;
  readonly name: string;
  readonly ports: readonly number[];
  readonly startedAt: string;
  readonly terminalName?: string;
  readonly commandLine?: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago a process started, compact: "12s", "3m", "2h 5m", "3d 4h". Undefined when the
 * start time is not a date. A start slightly in the future (clock skew) counts as "0s".
 */
export function formatAge(startedAt: string, now: number): string | undefined {
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return undefined;
  const ms = Math.max(0, now - start);
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)}s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)}m`;
  if (ms < DAY) return twoUnits(Math.floor(ms / HOUR), 'h', Math.floor((ms % HOUR) / MINUTE), 'm');
  return twoUnits(Math.floor(ms / DAY), 'd', Math.floor((ms % DAY) / HOUR), 'h');
}

function twoUnits(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small > 0 ? `${big}${bigUnit} ${small}${smallUnit}` : `${big}${bigUnit}`;
}

/** Listening ports as a user types them after a host: ":5173, :24678" ("" when none). */
export function formatPorts(ports: readonly number[]): string {
  return [...ports].sort((a, b) => a - b).map((p) => `:${p}`).join(', ');
}

/** "pid 1234 · :5173 · 3m": what identifies a process at a glance (tree and pick descriptions). */
export function processDescription(p: ProcessFacts, now: number): string {
  const parts = [`pid ${p.pid}`];
  const ports = formatPorts(p.ports);
  if (ports) parts.push(ports);
  const age = formatAge(p.startedAt, now);
  if (age !== undefined) parts.push(age);
  const cost = formatCost(p, ' · ');
  if (cost) parts.push(cost);
  return parts.join(' · ');
}

/** "python3 (pid 1234, :8000)": a process named in a sentence. */
export function processPhrase(p: ProcessFacts): string {
  const ports = formatPorts(p.ports);
  return `${p.name || 'process'} (pid ${p.pid}${ports ? `, ${ports}` : ''})`;
}

/** "1 process" / "3 processes", "1 orphaned process" / "2 orphaned processes". */
export function countProcesses(count: number, adjective?: string): string {
  const noun = count === 1 ? 'process' : 'processes';
  return adjective ? `${count} ${adjective} ${noun}` : `${count} ${noun}`;
}

/** "a (pid 1), b (pid 2), c (pid 3) and 4 more": the first few, so a notification stays short. */
export function listPhrases(processes: readonly ProcessFacts[], max = 3): string {
  const shown = processes.slice(0, max).map(processPhrase);
  const rest = processes.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

export interface KillReport {
  /** What a notification says. */
  readonly message: string;
  /** Some process survived: a warning with "Show Log" rather than an information message. */
  readonly partial: boolean;
}

/**
 * Says what a kill did, naming processes from `known` (the processes the user saw) where it can:
 * "Killed python3 (pid 1234) and sleep (pid 1240)." / "Could not kill node (pid 77)."
 */
export function describeKill(result: KillResult, known: readonly ProcessFacts[], what = 'process'): KillReport {
  const byPid = new Map(known.map((p) => [p.pid, p]));
  const name = (pid: number): string => {
    const p = byPid.get(pid);
    return p ? processPhrase(p) : `pid ${pid}`;
  };
  const killed = result.killed.map(name);
  const failed = result.failed.map(name);
  if (killed.length === 0 && failed.length === 0) {
    return { message: `Nothing was killed: the ${what} had already exited.`, partial: false };
  }
  const sentences: string[] = [];
  if (killed.length > 0) sentences.push(`Killed ${joinShort(killed)}.`);
  if (failed.length > 0) sentences.push(`Could not kill ${joinShort(failed)}; see the log for why.`);
  return { message: sentences.join(' '), partial: failed.length > 0 };
}

function joinShort(items: readonly string[], max = 5): string {
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Escapes text for a MarkdownString so a process name never turns into markup or a link. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** A fenced code block that no backtick run in `text` can close early. */
export function markdownCodeBlock(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}\n${text}\n${fence}`;
}

/** A local time for tooltips: "2025-11-22 14:03:07" (ISO without the zone noise), or the input. */
export function formatStartTime(startedAt: string): string {
  const date = new Date(startedAt);
  if (Number.isNaN(date.getTime())) return startedAt;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
