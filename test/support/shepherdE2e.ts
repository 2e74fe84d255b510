/**
 * The real chain for end-to-end tests: a real VS Code (code-server) with the built Terminal
 * Shepherd extension on a fresh workspace, and an MCP SDK client driving dist/mcp-server.js, which
 * reaches the window through .devtools/bridge.json exactly as an MCP client outside VS Code would.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult, TrackedProcess } from '../../common/src/protocol';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { connectMcpServer, repoRoot, toolText, type McpSession } from './mcpClient';
import { workspaceDirs } from './tempDirs';
import type { LaunchOptions } from './launchOptions';
import { launchVsCode, type VsCode } from './vscodeHarness';
export { procAlive as alive } from './procStat';

export const E2E_SETTINGS: Record<string, unknown> = {
  'terminal.integrated.shellIntegration.enabled': true,
  // These suites test how commands run, not whether they may: the per-command check has its own
  // suite (commandSafety.test.ts) and is on there. Off, the floor still asks.
  'terminalShepherd.safety.perCommandCheck': false,
  // The extension's log is kept with the artifacts of a failed test: executions in it too.
  'terminalShepherd.log.level': 'debug',
  // The test runner is the harness's MCP client and starts VS Code itself: its processes are no
  // agent's. The suite of client processes (clientProcesses.test.ts) turns this on.
  'terminalShepherd.processes.trackClientProcesses': false,
};

/** Machine settings: terminalShepherd.terminal.shellPath is machine-overridable, so in code-server's remote window it applies only from here. */
export const E2E_MACHINE_SETTINGS: Record<string, unknown> = {
  'terminalShepherd.terminal.shellPath': '/bin/bash',
};

/** Where `npm run package` writes the .vsix a user installs. */
export const VSIX = path.join(repoRoot, 'terminal-shepherd.vsix');

/** `npm run package`: the production build and the .vsix; throws with npm's output when it fails.
 * Call restoreDevelopmentBuild() afterwards, so later tests run on readable stacks again. */
export function packageVsix(): { vsix: string; output: string } {
  const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'package'], { cwd: repoRoot, encoding: 'utf8', timeout: 180_000 });
  const output = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`npm run package failed:\n${output}`);
  return { vsix: VSIX, output };
}

/** The development build again (source maps, readable stacks), after packageVsix(). */
export function restoreDevelopmentBuild(): void {
  const rebuilt = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  if (rebuilt.status !== 0) console.error(`could not restore the development build: ${rebuilt.stderr}`);
}

export function makeWorkspace(): string {
  const ws = workspaceDirs.make('tshep-e2e-');
  mkdirSync(path.join(ws, 'sub dir'));
  writeFileSync(path.join(ws, 'README.md'), '# e2e workspace\n');
  return ws;
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ShepherdWindow {
  readonly vscode: VsCode;
  readonly workspace: string;
  readonly mcp: McpSession;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<CallToolResult>;
  /** terminal_run and friends: the structured result, failing the test on an isError result. */
  run(name: string, args: Record<string, unknown>): Promise<TerminalRunResult & Record<string, unknown>>;
  stop(failed: boolean): Promise<void>;
}

export async function openShepherdWindow(
  options: {
    workspace?: string;
    settings?: Record<string, unknown>;
    machineSettings?: Record<string, unknown>;
    label?: string;
    launch?: Partial<LaunchOptions>;
    /** Logs at the levels a person has (info): what benchmarks measure. Tests log debug lines for their artifacts. */
    userLogLevel?: boolean;
  } = {},
): Promise<ShepherdWindow> {
  const workspace = options.workspace ?? makeWorkspace();
  const vscode = await launchVsCode({
    workspace,
    extensions: [repoRoot],
    settings: { ...E2E_SETTINGS, ...(options.userLogLevel ? { 'terminalShepherd.log.level': 'info' } : {}), ...options.settings },
    machineSettings: { ...E2E_MACHINE_SETTINGS, ...options.machineSettings },
    label: options.label ?? 'shepherd',
    // The extension's log channel keeps debug lines only at VS Code's debug level: a failed test's
    // kept log then shows every execution, marker and probe that decided its run.
    ...(options.userLogLevel ? {} : { serverArgs: ['--log', 'debug'] }),
    ...options.launch,
  });
  try {
    await waitFor('the extension to advertise its bridge in .devtools/bridge.json', 60_000, () => existsSync(path.join(workspace, '.devtools', 'bridge.json')));
    const mcp = await connectMcpServer({ workspace });
    const call = async (name: string, args: Record<string, unknown>, callOptions: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
      (await mcp.client.callTool({ name, arguments: args }, CallToolResultSchema, {
        timeout: callOptions.timeoutMs ?? 170_000,
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      })) as CallToolResult;
    return {
      vscode,
      workspace,
      mcp,
      call,
      async run(name, args) {
        const result = await call(name, args);
        assert.notEqual(result.isError, true, `${name} failed: ${toolText(result)}`);
        return result.structuredContent as TerminalRunResult & Record<string, unknown>;
      },
      async stop(failed) {
        await mcp.close().catch(() => undefined);
        await vscode.stop({ failed });
      },
    };
  } catch (error) {
    await vscode.stop({ failed: true });
    throw error;
  }
}

/**
 * The window a suite's tests share, for use inside describe(): VS Code installed if missing and
 * the window opened before the tests (after the suite's earlier before hooks), stopped after them
 * with its logs kept when one failed, then `cleanup`. The returned window stands for the one
 * opened, so tests and later hooks use it directly.
 */
export function suiteWindow(open: () => Promise<ShepherdWindow>, cleanup?: () => void): ShepherdWindow {
  let opened: ShepherdWindow | undefined;
  let failed = false;
  before(async function () {
    this.timeout(900_000); // a first install of code-server takes about 2 minutes
    await ensureVsCode();
    opened = await open();
  });
  afterEach(function () {
    failed ||= this.currentTest?.state === 'failed';
  });
  after(async () => {
    await opened?.stop(failed);
    cleanup?.();
  });
  const current = (): ShepherdWindow => opened ?? assert.fail("the suite's window is not open (its before hook failed)");
  return {
    get vscode() {
      return current().vscode;
    },
    get workspace() {
      return current().workspace;
    },
    get mcp() {
      return current().mcp;
    },
    call: (name, args, options) => current().call(name, args, options),
    run: (name, args) => current().run(name, args),
    stop: (failed) => current().stop(failed),
  };
}

/**
 * Switches a running window to another shell for new managed terminals, and the user settings
 * that go with it (VS Code's injection, terminal env, Terminal Shepherd's strategy), then waits
 * until the extension host sees them. User settings go through the API (a rewritten
 * User/settings.json is not noticed by a running code-server); the machine-scoped shell through
 * Machine/settings.json, as a user of a remote window would.
 */
export async function useShell(win: ShepherdWindow, shellPath: string, settings: Record<string, unknown> = {}): Promise<void> {
  const injection = settings['terminal.integrated.shellIntegration.enabled'] ?? true;
  const env = settings['terminal.integrated.env.linux'] ?? {};
  const strategy = settings['terminalShepherd.terminal.strategy'] ?? 'auto';
  await win.vscode.driver.evaluate(`
    const c = vscode.workspace.getConfiguration('terminal.integrated');
    await c.update('shellIntegration.enabled', ${JSON.stringify(injection)}, vscode.ConfigurationTarget.Global);
    await c.update('env.linux', ${JSON.stringify(env)}, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('terminalShepherd').update('terminal.strategy', ${JSON.stringify(strategy)}, vscode.ConfigurationTarget.Global);
  `);
  win.vscode.writeMachineSettings({ ...E2E_MACHINE_SETTINGS, 'terminalShepherd.terminal.shellPath': shellPath });
  const wanted = JSON.stringify([shellPath, injection, env, strategy]);
  let seen = '';
  await waitFor(`settings ${wanted}`, 30_000, async () => {
    seen = await win.vscode.driver.evaluate<string>(`
      const c = vscode.workspace.getConfiguration();
      return JSON.stringify([c.get('terminalShepherd.terminal.shellPath'), c.get('terminal.integrated.shellIntegration.enabled'), c.get('terminal.integrated.env.linux') ?? {}, c.get('terminalShepherd.terminal.strategy')]);
    `);
    return seen === wanted || undefined;
  }).catch((error: Error) => {
    throw new Error(`${error.message}; the window has ${seen}`);
  });
}

/** A process list with every child tree spread out, parents first. */
export const flatten = (list: readonly TrackedProcess[]): TrackedProcess[] => list.flatMap((p) => [p, ...flatten(p.children ?? [])]);

/** The events of the workspace's .devtools/process-log.jsonl, oldest first (none when it does not exist yet). */
export function ledgerEvents(workspace: string): { event: string; pid: number; name?: string; reason?: string }[] {
  const file = path.join(workspace, '.devtools', 'process-log.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export interface HostMemory {
  /** Resident set size of the extension host after V8's last-resort GC, bytes. */
  readonly rss: number;
  /**
   * What a regular full GC leaves resident on top of `rss`, bytes: pages V8 freed but keeps
   * pooled for reuse (sized by the heaviest recent moment, not by what anything holds).
   */
  readonly pooled: number;
  /** V8 heap in use, bytes. */
  readonly heap: number;
  /** V8's compiled code (code space in use), bytes: grows while the JIT compiles functions that got hot. */
  readonly code: number;
}

/**
 * The extension host's memory once nothing but what something still holds is left: a pause, two
 * regular full GCs (gc exposed for the measurement only), then V8's last-resort GC, the one it
 * runs when told memory is low, which also returns its pooled pages to the OS.
 */
export function extensionHostMemory(win: ShepherdWindow): Promise<HostMemory> {
  return win.vscode.driver.evaluate<HostMemory>(
    `
    const v8 = require('v8');
    v8.setFlagsFromString('--expose_gc');
    const gc = require('vm').runInNewContext('gc');
    await new Promise((r) => setTimeout(r, 1000));
    gc(); gc();
    const afterRegular = process.memoryUsage().rss;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const m = process.memoryUsage();
    const code = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'code_space')?.space_used_size ?? 0;
    return { rss: m.rss, pooled: Math.max(0, afterRegular - m.rss), heap: m.heapUsed, code };
    `,
    { timeoutMs: 60_000 },
  );
}
