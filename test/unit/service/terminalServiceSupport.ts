/**
 * What the terminalService*.test.ts files share: a TerminalService against a fake TerminalHost
 * (the tool front and the terminal registry with real runs and real output capture, but
 * terminals, executions and the OS probe scripted by each test), settings with a short grace and
 * timeouts so a suite takes seconds, and the readers and scripts the tests use.
 *
 * Each file's describe calls `const t = useTerminalService()`: `t.host`, `t.probe`, `t.service` and
 * `t.workspace` are the current test's, made fresh before each test (a test that needs other
 * settings calls `t.setup()` again) and disposed after it.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TerminalRunResult } from '../../../common/src/protocol';
import { ShepherdError, type BridgeErrorCode } from '../../../extension/src/core/errors';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { runOutputLimit } from '../../../extension/src/core/output/outputLimit';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import type { TerminalService } from '../../../extension/src/core/service/terminalService';
import { integrationFilesProvider } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { TempDirs } from '../../support/tempDirs';
import { waitFor } from '../processes/helpers';
import { FakeTerminalHost, ScriptedProbe, type FakeTerminal, SHELL_SCRIPTS } from '../terminals/fakeTerminalHost';
import { fakeTerminalService } from './serviceSupport';

export const testSettings: ShepherdSettings = {
  ...defaultSettings,
  gracePeriodMs: 300,
  defaultTimeoutMs: 5000,
  shellIntegrationTimeoutMs: 1000,
  // Lines as the tests write them; the leading space of the history setting has its own tests.
  preventShellHistory: false,
};

/** The agent marks of a terminal the tests open (no client, the history setting of testSettings). */
export const testMarks = { agent: 'terminal-shepherd', preventShellHistory: false } as const;

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

export interface SetupOptions {
  readonly settings?: Partial<ShepherdSettings>;
  readonly noWorkspace?: boolean;
  readonly logFilePath?: () => string;
}

/** One test's service against a fake host, and what it runs in. */
export interface TerminalServiceTest {
  readonly dirs: TempDirs;
  readonly host: FakeTerminalHost;
  readonly probe: ScriptedProbe;
  readonly service: TerminalService;
  /** The workspace folder, with a `sub` folder. */
  readonly workspace: string;
  /** What managedEnv names: the private folder (and PowerShell's shared script, unused by other shells). */
  files(): { runsDir: string; pwshCommon: string };
  /** A fresh workspace, host, probe and service, with `settings` over testSettings (the ones replaced are left as they are). */
  setup(options?: SetupOptions): void;
}

/** Call in a describe: a fresh TerminalServiceTest before each test; its service and host disposed, its folders removed after it. */
export function useTerminalService(): TerminalServiceTest {
  const dirs = new TempDirs();
  let current: Omit<TerminalServiceTest, 'dirs' | 'setup'> | undefined;
  const now = (): Omit<TerminalServiceTest, 'dirs' | 'setup'> => {
    if (!current) throw new Error('useTerminalService: used outside a test');
    return current;
  };
  const t: TerminalServiceTest = {
    dirs,
    get host() {
      return now().host;
    },
    get probe() {
      return now().probe;
    },
    get service() {
      return now().service;
    },
    get workspace() {
      return now().workspace;
    },
    files: () => now().files(),
    setup(options = {}) {
      current = setUp(dirs, options);
    },
  };
  beforeEach(() => t.setup());
  afterEach(() => {
    current?.service.dispose();
    current?.host.dispose();
    current = undefined;
    dirs.cleanup();
  });
  return t;
}

function setUp(dirs: TempDirs, options: SetupOptions): Omit<TerminalServiceTest, 'dirs' | 'setup'> {
  const workspace = dirs.make('terminal-service-');
  mkdirSync(path.join(workspace, 'sub'));
  const host = new FakeTerminalHost();
  const probe = new ScriptedProbe();
  const privateDir = dirs.make('terminal-service-private-');
  const settings = { ...testSettings, ...options.settings };
  const service = fakeTerminalService(host, () => settings, dirs, {
    createOutput: (_name, run) => new OutputCapture({ limitChars: runOutputLimit(settings.outputLimitChars, run?.clientOutputLimitChars), ...(options.logFilePath ? { logFilePath: options.logFilePath } : {}) }),
    probeShell: probe.probeShell,
    workspaceFolder: () => (options.noWorkspace ? undefined : workspace),
    integrationFiles: integrationFilesProvider(SHELL_SCRIPTS, privateDir),
  });
  return { host, probe, service, workspace, files: () => ({ runsDir: path.join(privateDir, 'runs'), pwshCommon: '' }) };
}
