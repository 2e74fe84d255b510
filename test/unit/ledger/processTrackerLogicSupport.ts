/**
 * What the processTrackerLogic*.test.ts files share: ProcessTracker's logic against a fake process
 * table (FakeProcessMonitor), on every OS with no real process involved, for what real processes
 * cannot be made to do on demand — a pid reused by a stranger, a kill the OS refuses, the OS not
 * answering, a window that died.
 *
 * Most tests poll only when they ask (refresh, runEnded, kill, terminalClosed), so what the
 * tracker saw is exact; the ones about cadence use makeTracker's fast polling and wait for it.
 *
 * `fake` is the current test's table (a fresh one before each test), read by importers through
 * the module's live binding. Call `fakeTableHooks()` in each file's describe.
 */
import type { LedgerStartup } from '../../../extension/src/core/ledger/api';
import type { LedgerEvent } from '../../../extension/src/core/ledger/formats';
import type { ProcessTracker } from '../../../extension/src/core/ledger/processTracker';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { FakeProcessMonitor } from './fakeProcessMonitor';
import { TempDirs } from './helpers';
import { makeTracker, type TrackerFixture } from './trackerSupport';

/** No timer-driven poll within a test's lifetime. */
export const ON_DEMAND = { pollIntervalMs: 60_000, idlePollIntervalMs: 60_000 };
export const NO_KILLS = { killed: [], failed: [] };

export interface WindowFixture extends TrackerFixture {
  /** Its extension host in the fake table: the window is alive while this process is. */
  readonly host: ProcessInfo;
  readonly startup: LedgerStartup;
}

/** One line per event: what, which process (pid/start time), and why. */
export function describeEvents(events: readonly LedgerEvent[]): string[] {
  return events.map((e) => [e.event, `${e.pid}/${e.startTime}`, e.reason, e.fromSessionId].filter(Boolean).join(' '));
}

export function eventLine(event: LedgerEvent['event'], p: ProcessInfo, ...extra: string[]): string {
  return [event, `${p.pid}/${p.startTime}`, ...extra].join(' ');
}

export function identity(p: ProcessInfo): { pid: number; startTime: string; commandLine: string } {
  return { pid: p.pid, startTime: p.startTime, commandLine: p.commandLine };
}

export const dirs = new TempDirs();
const fixtures: TrackerFixture[] = [];
export let fake: FakeProcessMonitor;

/** A fresh fake table before each test; after it, every window's tracker disposed and the folders removed. */
export function fakeTableHooks(): void {
  beforeEach(() => {
    fake = new FakeProcessMonitor();
  });
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.tracker.dispose()));
    dirs.cleanup();
  });
}

/** A window: its extension host in the table (the owner other windows check) and a started tracker. */
export async function openWindow(dir = dirs.make(), options: Parameters<typeof makeTracker>[2] = {}): Promise<WindowFixture> {
  const host = fake.spawn(1, 'code', 'code --type=extensionHost');
  const fixture = makeTracker(fake, dir, { ...options, owner: { pid: host.pid, startTime: host.startTime } });
  fixtures.push(fixture);
  return { ...fixture, host, startup: await fixture.tracker.start() };
}

/** A managed terminal: its shell in the table, announced to the tracker. */
export function openTerminal(tracker: ProcessTracker, name: string): ProcessInfo {
  const shell = fake.spawn(1, 'bash', 'bash --login');
  tracker.terminalOpened(name, shell.pid);
  return shell;
}

/** Processes of the summary as `pid:ports`. */
export function running(tracker: ProcessTracker): string[] {
  return tracker.summary().running.map((e) => `${e.pid}:${e.ports.join(',')}`);
}
