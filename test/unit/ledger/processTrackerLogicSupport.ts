/**
 * What the processTrackerLogic*.test.ts files share: ProcessTracker's logic against a fake process
 * table (FakeProcessMonitor), on every OS with no real process involved, for what real processes
 * cannot be made to do on demand — a pid reused by a stranger, a kill the OS refuses, the OS not
 * answering, a window that died.
 *
 * Most tests poll only when they ask (refresh, runEnded, kill, terminalClosed), so what the
 * tracker saw is exact; the ones about cadence use makeTracker's fast polling and wait for it.
 *
 * Each file's describe calls `const t = useFakeTable()`; `t` is the running test's table, windows
 * and folders (a fresh set before each test).
 */
import assert from 'node:assert/strict';
import type { LedgerStartup } from '../../../extension/src/core/ledger/api';
import type { LedgerEvent } from '../../../extension/src/core/ledger/formats';
import type { ProcessTracker } from '../../../extension/src/core/ledger/processTracker';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { FakeProcessMonitor } from './fakeProcessMonitor';
import { TempDirs } from '../../support/tempDirs';
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

/** One test's fake world: a process table, the windows opened on it and their folders. */
export interface FakeTable {
  readonly fake: FakeProcessMonitor;
  readonly dirs: TempDirs;
  /** A window: its extension host in the table (the owner other windows check) and a started tracker. */
  openWindow(dir?: string, options?: Parameters<typeof makeTracker>[2]): Promise<WindowFixture>;
  /** A managed terminal: its shell in the table, announced to the tracker. */
  openTerminal(tracker: ProcessTracker, name: string): ProcessInfo;
}

function newFakeTable(): FakeTable & { dispose(): Promise<void> } {
  const fake = new FakeProcessMonitor();
  const dirs = new TempDirs();
  const windows: TrackerFixture[] = [];
  return {
    fake,
    dirs,
    async openWindow(dir = dirs.make(), options = {}) {
      const host = fake.spawn(1, 'code', 'code --type=extensionHost');
      const fixture = makeTracker(fake, dir, { ...options, owner: { pid: host.pid, startTime: host.startTime } });
      windows.push(fixture);
      return { ...fixture, host, startup: await fixture.tracker.start() };
    },
    openTerminal(tracker, name) {
      const shell = fake.spawn(1, 'bash', 'bash --login');
      tracker.terminalOpened(name, shell.pid);
      return shell;
    },
    async dispose() {
      await Promise.all(windows.splice(0).map((f) => f.tracker.dispose()));
      dirs.cleanup();
    },
  };
}

/** For a describe: the running test's FakeTable (a fresh one before each test; after it, every window's tracker disposed and the folders removed). */
export function useFakeTable(): FakeTable {
  let current: ReturnType<typeof newFakeTable> | undefined;
  beforeEach(() => {
    current = newFakeTable();
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  const now = () => current ?? assert.fail('a FakeTable exists only while a test runs');
  return {
    get fake() {
      return now().fake;
    },
    get dirs() {
      return now().dirs;
    },
    openWindow: (...args) => now().openWindow(...args),
    openTerminal: (...args) => now().openTerminal(...args),
  };
}

/** Processes of the summary as `pid:ports`. */
export function running(tracker: ProcessTracker): string[] {
  return tracker.summary().running.map((e) => `${e.pid}:${e.ports.join(',')}`);
}
