/**
 * Benchmarks of the real chain (MCP SDK client -> dist/mcp-server.js -> bridge -> extension in a
 * real VS Code -> terminal -> bash), each against the floor measured in the same window and run:
 * a bare shellIntegration.executeCommand -> end-event round trip in the extension host, with no
 * grace, no confirmation and no bridge.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverScript } from '../support/mcpClient';
import { extensionHostMemory, openShepherdWindow, type ShepherdWindow } from '../support/shepherdE2e';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { silentLogger } from '../../common/src/logger';
import { BridgeClient } from '../../mcp-server/src/bridge/bridgeClient';
import { renderReminder, toReminder } from '../../mcp-server/src/tools/support/ledgerReminder';
import { measure, summarize, type Stats } from './stats';

export interface ChainBenchResult {
  readonly runs: number;
  /** Bare executeCommand -> end event in the extension host (ms). */
  readonly floorTrue: Stats;
  readonly floorSleep: Stats;
  /** terminal_run round trip seen by the MCP client (ms). */
  readonly runTrue: Stats;
  readonly runSleep: Stats;
  /** Time beyond the command's own time: round trip minus 0 (true) or 300 ms (sleep 0.3). */
  readonly overheadTrue: Stats;
  readonly overheadSleep: Stats;
  readonly floorOverheadSleep: Stats;
  readonly throughput: {
    readonly megabytes: number;
    readonly runMs: number;
    readonly floorMs: number;
    readonly runMbPerSec: number;
    readonly floorMbPerSec: number;
    readonly outputChars: number;
    readonly truncated: boolean;
    readonly extHostRssGrowthMb: number;
    readonly extHostHeapGrowthMb: number;
    readonly floorRssGrowthMb: number;
    readonly floorHeapGrowthMb: number;
  };
  readonly coldStart: Stats;
  /** process/summary over the bridge, as the MCP server asks it for every response. */
  readonly summaryRoundTrip: Stats;
  /** Rendering the capped reminder of 50 running processes. */
  readonly reminderRender: Stats;
}

/** Runs in the extension host: a bash terminal of its own and N bare round trips of `command`. */
const FLOOR = (command: string, runs: number, drain: boolean): string => `
  const term = state.floorTerminal ??= vscode.window.createTerminal({ name: 'bench floor', shellPath: '/bin/bash', isTransient: true });
  const si = term.shellIntegration ?? await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no shell integration in 20 s')), 20000);
    const d = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === term) { clearTimeout(timer); d.dispose(); resolve(e.shellIntegration); } });
  });
  const times = [];
  for (let i = 0; i < ${runs}; i++) {
    const t0 = performance.now();
    const execution = si.executeCommand(${JSON.stringify(command)});
    const ended = new Promise((resolve) => {
      const d = vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) { d.dispose(); resolve(); } });
    });
    ${drain ? 'let n = 0; for await (const chunk of execution.read()) n += chunk.length;' : ''}
    await ended;
    times.push(performance.now() - t0);
  }
  return times;
`;

/** Runs per block when the floor and terminal_run alternate. */
const BLOCK = 5;

async function timeRuns(win: ShepherdWindow, command: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = await win.run('terminal_run', { command, name: 'bench' });
    times.push(performance.now() - t0);
    if (result.status !== 'completed') throw new Error(`bench run of ${command} ended ${result.status}`);
  }
  return times;
}

async function coldStarts(workspace: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverScript, '--workspace', workspace], stderr: 'ignore' }));
    await client.listTools();
    times.push(performance.now() - t0);
    await client.close();
  }
  return times;
}

export async function runChainBench(options: { runs?: number; megabytes?: number } = {}): Promise<ChainBenchResult> {
  const runs = options.runs ?? 30;
  const megabytes = options.megabytes ?? 20;
  await ensureVsCode();
  // Both the floor's terminal and ours stay hidden: a visible terminal costs the workbench's
  // rendering on every command (it doubled both round trips in headless Chromium).
  const win = await openShepherdWindow({ label: 'bench', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': false } });
  try {
    const ev = <T>(code: string, timeoutMs = 300_000) => win.vscode.driver.evaluate<T>(code, { timeoutMs });
    // Warm both paths (first terminal creation, JIT) before measuring.
    await ev(FLOOR('true', 3, false));
    await timeRuns(win, 'true', 3);

    // Floor and terminal_run alternate in small blocks, so a machine that slows down or speeds up
    // during the run (a shared VM does) weighs on both sides of the ratio alike.
    const interleaved = async (command: string): Promise<{ floor: number[]; run: number[] }> => {
      const floor: number[] = [];
      const run: number[] = [];
      for (let done = 0; done < runs; done += BLOCK) {
        const n = Math.min(BLOCK, runs - done);
        floor.push(...(await ev<number[]>(FLOOR(command, n, false))));
        run.push(...(await timeRuns(win, command, n)));
      }
      return { floor, run };
    };
    const { floor: floorTrue, run: runTrue } = await interleaved('true');
    const { floor: floorSleep, run: runSleep } = await interleaved('sleep 0.3');

    const bytes = megabytes * 1_000_000;
    // 100-character lines, so the rendering is like a real build log rather than one huge line.
    const big = `yes 'terminal shepherd throughput line 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUV' | head -c ${bytes}`;
    const baseline = await extensionHostMemory(win);
    const floorBig = (await ev<number[]>(FLOOR(big, 1, true)))[0]!;
    const before = await extensionHostMemory(win);
    const t0 = performance.now();
    const result = await win.run('terminal_run', { command: big, name: 'bench', timeout: 600_000 });
    const runMs = performance.now() - t0;
    const after = await extensionHostMemory(win);

    const cold = await coldStarts(win.workspace, 10);
    // The ledger reminder every response carries: one process/summary round trip + its rendering.
    const bridge = new BridgeClient({ workspaceFolder: win.workspace, logger: silentLogger, clientInfo: { name: 'bench', version: '1' } });
    const summaryRoundTrip = await measure(50, () => bridge.request('ledgerSummary', {}));
    bridge.dispose();
    const entry = (pid: number) => ({ pid, name: 'node', terminalName: 'dev', ports: [5173], startedAt: new Date().toISOString() });
    const fifty = toReminder({ running: Array.from({ length: 50 }, (_, i) => entry(i)), orphaned: [] });
    const reminderRender = await measure(200, () => renderReminder(fifty));
    return {
      runs,
      floorTrue: summarize(floorTrue),
      floorSleep: summarize(floorSleep),
      runTrue: summarize(runTrue),
      runSleep: summarize(runSleep),
      overheadTrue: summarize(runTrue),
      overheadSleep: summarize(runSleep.map((t) => t - 300)),
      floorOverheadSleep: summarize(floorSleep.map((t) => t - 300)),
      throughput: {
        megabytes,
        runMs,
        floorMs: floorBig,
        runMbPerSec: megabytes / (runMs / 1000),
        floorMbPerSec: megabytes / (floorBig / 1000),
        outputChars: result.output.length,
        truncated: result.truncated === true,
        extHostRssGrowthMb: (after.rss - before.rss) / 1e6,
        extHostHeapGrowthMb: (after.heap - before.heap) / 1e6,
        floorRssGrowthMb: (before.rss - baseline.rss) / 1e6,
        floorHeapGrowthMb: (before.heap - baseline.heap) / 1e6,
      },
      coldStart: summarize(cold),
      summaryRoundTrip,
      reminderRender,
    };
  } finally {
    await win.stop(false);
  }
}

