/**
 * Fixtures for the tracker tests: a stand-in "terminal shell" for real processes (a bash reading
 * commands from a pipe, so commands can be typed into it like into a terminal), a tracker on a
 * temp data dir with fast cadences (over any monitor, real or fake), and readers of its answers.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { TrackedProcess } from '../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import { LedgerStore } from '../../../extension/src/core/ledger/ledgerStore';
import { ProcessTracker, type ProcessTrackerDeps } from '../../../extension/src/core/ledger/processTracker';
import { defaultLedgerSettings, type LedgerSettings } from '../../../extension/src/core/ledger/api';
import type { LedgerEvent } from '../../../extension/src/core/ledger/formats';
import { createProcessMonitor } from '../../../extension/src/core/processes';
import type { ProcessInfo, ProcessMonitor } from '../../../extension/src/core/processes/types';
import { collectingLogger, type CollectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { ProcessJanitor, waitFor } from '../processes/helpers';

export interface TestShell {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Types a line into the shell. */
  type(line: string): void;
}

/** A bash in its own process group (the janitor kills the group) that runs what is typed. */
export function spawnShell(janitor: ProcessJanitor): TestShell {
  const child = janitor.spawn('bash', ['-s'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  return { child, pid: child.pid!, type: (line) => child.stdin!.write(`${line}\n`) };
}

/** What a managed terminal does for a run: a shell the tracker watches, a run started, a command typed. */
export function runInShell(janitor: ProcessJanitor, tracker: ProcessTracker, name: string, command: string): TestShell {
  const shell = spawnShell(janitor);
  tracker.terminalOpened(name, shell.pid);
  tracker.runStarted(name);
  shell.type(command);
  return shell;
}

export interface TrackerFixture {
  readonly tracker: ProcessTracker;
  readonly store: LedgerStore;
  readonly logger: CollectingLogger;
  /** The log's process events (session_started/session_ended left out: logReconcile's tests read them). */
  events(): Promise<LedgerEvent[]>;
  /** Every event of the log. */
  allEvents(): Promise<LedgerEvent[]>;
}

export function makeTracker(
  monitor: ProcessMonitor,
  dir: string,
  options: { settings?: Partial<LedgerSettings> } & Partial<Omit<ProcessTrackerDeps, 'settings'>> = {},
): TrackerFixture {
  const logger = collectingLogger();
  const store = new LedgerStore({ dir, logger });
  const settings: LedgerSettings = { ...defaultLedgerSettings, pollIntervalMs: 100, idlePollIntervalMs: 300, ...options.settings };
  const tracker = new ProcessTracker({
    monitor,
    store,
    logger,
    persistence: { activeDelayMs: 20, activeMaxDelayMs: 200, sessionDelayMs: 20, sessionMaxDelayMs: 200 },
    ...options,
    settings: () => settings,
  });
  const allEvents = async (): Promise<LedgerEvent[]> => (await store.readEvents()).items;
  return { tracker, store, logger, allEvents, events: async () => (await allEvents()).filter((e) => !e.event.startsWith('session_')) };
}

/**
 * What a suite over real /proc processes shares, its hooks registered (call it in a describe):
 * after each test its trackers are disposed, its processes killed and its folders removed.
 */
export function realProcessSuite(): { monitor: ProcessMonitor; janitor: ProcessJanitor; dirs: TempDirs; fixtures: TrackerFixture[]; infoOf(pid: number): Promise<ProcessInfo> } {
  const monitor = createProcessMonitor('linux');
  const janitor = new ProcessJanitor();
  const dirs = new TempDirs();
  const fixtures: TrackerFixture[] = [];
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.tracker.dispose()));
    janitor.cleanup();
    dirs.cleanup();
  });
  after(() => monitor.dispose());
  const infoOf = (pid: number): Promise<ProcessInfo> => waitFor(`pid ${pid} in the table`, async () => (await monitor.listAll()).find((p) => p.pid === pid));
  return { monitor, janitor, dirs, fixtures, infoOf };
}

/** list()'s trees as one list, parents before their children. */
export function flatten(nodes: readonly TrackedProcess[]): TrackedProcess[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

/** `promise` rejects with the kill refusal (ShepherdError ProcessNotOwned) and a message matching `pattern`. */
export function rejectsNotOwned(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  return assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ShepherdError, `a ShepherdError, got ${String(error)}`);
    assert.equal(error.code, BridgeErrorCode.ProcessNotOwned);
    assert.match(error.message, pattern);
    return true;
  });
}
