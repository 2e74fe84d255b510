/**
 * Pure parsers for what the Windows PowerShell queries return (ConvertTo-Json), tested on
 * recorded JSON. They accept every shape ConvertTo-Json produces for the same data:
 * - one object instead of an array when a query matched a single process, nothing when none;
 * - dates as `"\/Date(1700000000000)\/"` (Windows PowerShell 5.1), as ISO 8601 with an offset
 *   and 7 fraction digits (PowerShell 7), as 5.1's `{ value, DisplayHint, DateTime }` wrapper for
 *   dates that passed through Select-Object, or as a raw CIM string (`20231114231320.123456+060`).
 * Our own queries send CreationDate already as UTC `ToString('o')`, identical in both hosts.
 */
import type { ProcessInfo } from './types';

/** ConvertTo-Json output (already JSON.parsed) as a list of rows, whatever its shape. */
export function jsonRows(value: unknown): Record<string, unknown>[] {
  if (value === null || value === undefined || value === '') {
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
}

/** JSON text from PowerShell -> rows; empty text (an empty pipeline) is no rows. */
export function parseJsonRows(text: string): Record<string, unknown>[] {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  return trimmed.length === 0 ? [] : jsonRows(JSON.parse(trimmed));
}

export interface CimDate {
  /** Canonical identity key: UTC, always 7 fraction digits (100 ns), e.g. 2023-11-14T22:13:20.1234560Z. */
  readonly key: string;
  /** ISO 8601 with milliseconds. */
  readonly iso: string;
}

function fromParts(wholeSecondsMs: number, fraction: string): CimDate | undefined {
  if (!Number.isFinite(wholeSecondsMs)) {
    return undefined;
  }
  const frac7 = (fraction + '0000000').slice(0, 7);
  const base = new Date(wholeSecondsMs).toISOString().slice(0, 19);
  return { key: `${base}.${frac7}Z`, iso: new Date(wholeSecondsMs + Math.floor(Number(frac7) / 10_000)).toISOString() };
}

/** A CreationDate in any of the forms ConvertTo-Json or WMI produce; undefined when absent. */
export function parseCimDate(value: unknown): CimDate | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return fromMs(value);
  }
  if (typeof value === 'object' && value !== null && 'value' in value) {
    return parseCimDate((value as { value: unknown }).value); // 5.1 ETS wrapper
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  const s = value.trim();
  const msForm = /^(?:\\?\/)?Date\((-?\d+)(?:[+-]\d{4})?\)(?:\\?\/)?$/.exec(s);
  if (msForm) {
    return fromMs(Number(msForm[1])); // milliseconds since the epoch, UTC; any offset is display only
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (iso) {
    const [, y, mo, d, h, mi, sec, frac = '', zone] = iso;
    const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
    // No zone: a local DateTime of this machine (PowerShell ran here).
    const offsetMin = zone === undefined ? -new Date(wall).getTimezoneOffset() : zoneMinutes(zone);
    return fromParts(wall - offsetMin * 60_000, frac);
  }
  const dmtf = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\.(\d{6})([+-])(\d{3})$/.exec(s);
  if (dmtf) {
    const [, y, mo, d, h, mi, sec, micro, sign, off] = dmtf;
    const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
    return fromParts(wall - (sign === '-' ? -1 : 1) * Number(off) * 60_000, micro!);
  }
  return undefined;
}

function fromMs(ms: number): CimDate | undefined {
  const whole = Math.floor(ms / 1000) * 1000;
  return fromParts(whole, String(ms - whole).padStart(3, '0'));
}

function zoneMinutes(zone: string): number {
  if (zone === 'Z') {
    return 0;
  }
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Win32_Process rows -> ProcessInfo. A process without a CreationDate (System Idle) gets an empty
 * startTime, which never matches an identity, so it can never be killed or reported alive.
 */
export function parseWin32Processes(rows: readonly Record<string, unknown>[]): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const row of rows) {
    const pid = num(row.ProcessId);
    if (pid === undefined) {
      continue;
    }
    const name = typeof row.Name === 'string' ? row.Name : '';
    const commandLine = typeof row.CommandLine === 'string' && row.CommandLine.trim().length > 0 ? row.CommandLine.trim() : `[${name}]`;
    const created = parseCimDate(row.CreationDate);
    out.push({
      pid,
      ppid: num(row.ParentProcessId) ?? 0,
      name,
      commandLine,
      startTime: created?.key ?? '',
      startedAt: created?.iso ?? new Date(0).toISOString(),
    });
  }
  return out;
}

/** Get-NetTCPConnection rows (LocalPort, OwningProcess) -> sorted unique ports per pid. */
export function parseListenRows(rows: readonly Record<string, unknown>[]): Map<number, number[]> {
  const ports = new Map<number, Set<number>>();
  for (const row of rows) {
    const pid = num(row.OwningProcess);
    const port = num(row.LocalPort);
    if (pid === undefined || port === undefined || port === 0 || port > 65535) {
      continue;
    }
    let set = ports.get(pid);
    if (!set) {
      set = new Set();
      ports.set(pid, set);
    }
    set.add(port);
  }
  return new Map([...ports].map(([pid, set]) => [pid, [...set].sort((a, b) => a - b)]));
}

/** Console hosts attached to a shell are plumbing, not a job the user started. */
export function isConsoleHost(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'conhost.exe' || n === 'openconsole.exe';
}
