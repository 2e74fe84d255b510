/**
 * What the terminalService*.test.ts files share: a TerminalService against a fake TerminalHost
 * (the tool front and the terminal registry with real runs and real output capture, but
 * terminals, executions and the OS probe scripted by each test), settings with a short grace and
 * timeouts so a suite takes seconds, and the readers and scripts the tests use.
 *
 * `host`, `probe`, `service` and `workspace` are the current test's: `setup()` replaces them (a
 * test that needs other settings calls it again), and an importer reads them through the module's
 * live bindings. Call `terminalServiceHooks()` in each file's describe.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TerminalRunResult } from '../../../common/src/protocol';
import { ShepherdError, type BridgeErrorCode } from '../../../extension/src/core/errors';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import type { TerminalService } from '../../../extension/src/core/service/terminalService';
import { integrationFilesProvider } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { TempDirs, waitFor } from '../ledger/helpers';
import { fakeTerminalService } from '../service/serviceSupport';
import { FakeTerminalHost, ScriptedProbe, type FakeTerminal, SHELL_SCRIPTS } from './fakeTerminalHost';

export const testSettings: ShepherdSettings = {
  ...defaultSettings,
  gracePeriodMs: 300,
  defaultTimeoutMs: 5000,
  shellIntegrationTimeoutMs: 1000,
};

export const jobInForeground = (foregroundCommand?: string): ShellActivity => ({
  foreground: 'job',
  readingTerminal: false,
  ...(foregroundCommand ? { foregroundCommand } : {}),
});

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const busyTail =
  'Use another name (for example "default-2"), wait for it with terminal_state {name: "default", wait: true}, ' +
  'or stop it with terminal_input {name: "default", text: "\\u0003"}.';

export async function rejectsWith(promise: Promise<unknown>, code: BridgeErrorCode, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ShepherdError, `expected a ShepherdError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

/** The result without its duration, which no test can know exactly. */
export function withoutDuration(result: TerminalRunResult): Omit<TerminalRunResult, 'durationMs'> {
  const { durationMs, ...rest } = result;
  assert.equal(typeof durationMs, 'number');
  return rest;
}

/** Commands listed in `table` complete at once with (output, exit code); any other starts and keeps running. */
export function script(host: FakeTerminalHost, table: Record<string, readonly [string, number]> = {}): void {
  host.onExecute = (execution) => {
    const done = table[execution.commandLine];
    if (done) execution.complete(done[0], done[1]);
    else execution.start();
  };
}

/** The terminal of `name` once its `count`-th execution exists (the call that sends it is still on its way). */
export function executionsIn(host: FakeTerminalHost, name: string, count: number): Promise<FakeTerminal> {
  return waitFor(`execution ${count} in "${name}"`, () => {
    const terminal = host.terminals.find((t) => t.options.name === `Shepherd: ${name}` && !t.closed);
    return terminal !== undefined && terminal.executions.length >= count && terminal;
  });
}

export const dirs = new TempDirs();
export let host: FakeTerminalHost;
export let probe: ScriptedProbe;
export let service: TerminalService;
export let workspace: string;
let privateDir: string;

/** What managedEnv names: the private folder (and PowerShell's shared script, unused by other shells). */
export const files = (): { runsDir: string; pwshCommon: string } => ({ runsDir: path.join(privateDir, 'runs'), pwshCommon: '' });

/** A fresh workspace (with a `sub` folder), host, probe and service, with `settings` over testSettings. */
export function setup(options: { settings?: Partial<ShepherdSettings>; noWorkspace?: boolean; logFilePath?: () => string } = {}): void {
  workspace = dirs.make('terminal-service-');
  mkdirSync(path.join(workspace, 'sub'));
  host = new FakeTerminalHost();
  probe = new ScriptedProbe();
  privateDir = dirs.make('terminal-service-private-');
  const settings = { ...testSettings, ...options.settings };
  service = fakeTerminalService(host, () => settings, dirs, {
    createOutput: () => new OutputCapture({ limitChars: settings.outputLimitChars, ...(options.logFilePath ? { logFilePath: options.logFilePath } : {}) }),
    probeShell: probe.probeShell,
    workspaceFolder: () => (options.noWorkspace ? undefined : workspace),
    integrationFiles: integrationFilesProvider(SHELL_SCRIPTS, privateDir),
  });
}

/** A fresh setup() before each test; the last service and host disposed, the folders removed after it. */
export function terminalServiceHooks(): void {
  beforeEach(() => setup());
  afterEach(() => {
    service.dispose();
    host.dispose();
    dirs.cleanup();
  });
}
