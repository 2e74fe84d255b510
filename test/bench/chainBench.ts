/**
 * Benchmarks of the real chain (MCP SDK client -> dist/mcp-server.js -> bridge -> extension in a
 * real VS Code -> terminal -> bash), each against the floor measured in the same window and run:
 * a bare shellIntegration.executeCommand -> end-event round trip in the extension host, with no
 * grace, no confirmation and no bridge. The users' path: VS Code's default settings with the
 * per-command check on, its first question per command answered "Allow … in this Session"
 * (usersPath.ts); quiet, then with a busy loop on the other core; and where one `true` spends its time.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverScript } from '../support/mcpClient';
import { extensionHostMemory, openShepherdWindow } from '../support/shepherdE2e';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { silentLogger } from '../../common/src/logger';
import { BridgeClient } from '../../mcp-server/src/bridge/bridgeClient';
import { renderReminder, toReminder } from '../../mcp-server/src/tools/support/ledgerReminder';
import { measure, summarize, type Stats } from './stats';
import { connectUsersClient, stageSpans, underLoad, type UsersClient } from './usersPath';

export interface ChainBenchResult {
  readonly runs: number;
  /** Bare executeCommand -> end event in the extension host, on terminal_run's own terminal (ms). */
  readonly floorTrue: Stats;
  /** The same, executeCommand -> VS Code's start event: the `typing` stage of the floor. */
  readonly floorTypingTrue: Stats;
  /** The same on a terminal split beside it that is never VS Code's active terminal. */
  readonly floorBesideTrue: Stats;
  readonly floorSleep: Stats;
  /** terminal_run round trip seen by the MCP client (ms). */
  readonly runTrue: Stats;
  readonly runSleep: Stats;
  /** Time beyond the command's own time: round trip minus 0 (true) or 300 ms (sleep 0.3). */
  readonly overheadTrue: Stats;
  readonly overheadSleep: Stats;
  readonly floorOverheadSleep: Stats;
  /** `true` again, floor and terminal_run, with a CPU-bound process on the other core. */
  readonly loaded: { readonly floor: Stats; readonly run: Stats; readonly durationMs: Stats };
  /** The result's own durationMs for `true`, quiet. */
  readonly durationTrue: Stats;
  /** Where one `true` spends its time, p50/p95 per stage over the quiet runs. */
  readonly spans: { stage: string; p50: number; p95: number }[];
  /** Questions the per-command check asked (one per command first seen). */
  readonly questions: number;
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

/**
 * A pause before each command, floor and terminal_run alike, as an agent's calls come (a model's turn
 * apart): a line typed within ~10 ms of the previous end meets VS Code's own work on that terminal's
 * end and prompt, and its start event comes 10-15 ms later, whoever types it (docs/benchmarks.md).
 */
const PAUSE_MS = 50;

/** Runs in the extension host: N bare round trips of `command` on terminal_run's own terminal
 * ("own": revealed, VS Code's active terminal, as a person's is), or on a bash terminal of its own
 * split beside it ("beside": on screen, never the active one). Each as [to the end event, to the start event]. */
const FLOOR = (command: string, runs: number, drain: boolean, where: 'own' | 'beside' = 'beside'): string => `
  const own = vscode.window.terminals.find((t) => t.name.includes('bench') && t !== state.floorTerminal);
  const term = ${where === 'own' ? 'own' : `state.floorTerminal ??= vscode.window.createTerminal({ name: 'floor', shellPath: '/bin/bash', isTransient: true, ...(own ? { location: { parentTerminal: own } } : {}) })`};
  const si = term.shellIntegration ?? await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no shell integration in 20 s')), 20000);
    const d = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === term) { clearTimeout(timer); d.dispose(); resolve(e.shellIntegration); } });
  });
  const times = [];
  for (let i = 0; i < ${runs}; i++) {
    await new Promise((resolve) => setTimeout(resolve, ${PAUSE_MS}));
    const t0 = performance.now();
    let started = Number.NaN;
    const execution = si.executeCommand(${JSON.stringify(command)});
    const start = vscode.window.onDidStartTerminalShellExecution((e) => { if (e.execution === execution) { started = performance.now() - t0; start.dispose(); } });
    const ended = new Promise((resolve) => {
      const d = vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) { d.dispose(); resolve(); } });
    });
    ${drain ? 'let n = 0; for await (const chunk of execution.read()) n += chunk.length;' : ''}
    await ended;
    start.dispose();
    times.push([performance.now() - t0, started]);
  }
  return times;
`;

/** Runs per block when the floor and terminal_run alternate. */
const BLOCK = 5;

interface Timed {
  readonly times: number[];
  readonly timings: Record<string, number>[];
  readonly durations: number[];
}

async function timeRuns(client: UsersClient, command: string, runs: number, into: Timed): Promise<void> {
  for (let i = 0; i < runs; i++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const { ms, result, timings } = await client.run(command);
    if (result.status !== 'completed') throw new Error(`bench run of ${command} ended ${result.status}`);
    into.times.push(ms);
    into.timings.push(timings);
    into.durations.push(result.durationMs);
  }
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
  // Both terminals are on screen, as a person's is (terminal.revealOnCreate at its default): the
  // workbench renders every command's output in both.
  // The per-command check is on (its default; the e2e settings turn it off).
  const win = await openShepherdWindow({ label: 'bench', userLogLevel: true, settings: { 'terminalShepherd.safety.perCommandCheck': true } });
  const client = await connectUsersClient(win.workspace);
  try {
    const ev = <T>(code: string, timeoutMs = 300_000) => win.vscode.driver.evaluate<T>(code, { timeoutMs });
    // Warm both paths (first terminal creation, JIT, the check's first question per command) before measuring.
    for (const command of ['true', 'sleep 0.3']) await timeRuns(client, command, 3, { times: [], timings: [], durations: [] });
    await ev(FLOOR('true', 3, false));
    // The person's focus is elsewhere (an editor; the chat's input). VS Code's active terminal costs
    // it 20-50 ms more per command than one beside it, whoever types (floorBesideTrue shows it).
    await ev(`await vscode.window.showTextDocument(vscode.Uri.file(${JSON.stringify(`${win.workspace}/README.md`)}), { preserveFocus: false });`);

    // Floor and terminal_run alternate in small blocks, so a machine that slows down or speeds up
    // during the run (a shared VM does) weighs on both sides of the ratio alike.
    const interleaved = async (command: string): Promise<{ floor: number[]; floorTyping: number[]; beside: number[]; run: Timed }> => {
      const floor: number[] = [];
      const floorTyping: number[] = [];
      const beside: number[] = [];
      const run: Timed = { times: [], timings: [], durations: [] };
      for (let done = 0; done < runs; done += BLOCK) {
        const n = Math.min(BLOCK, runs - done);
        const own = await ev<number[][]>(FLOOR(command, n, false, 'own'));
        floor.push(...own.map(([end]) => end!));
        floorTyping.push(...own.map(([, started]) => started!).filter((t) => !Number.isNaN(t)));
        await timeRuns(client, command, n, run);
        beside.push(...(await ev<number[][]>(FLOOR(command, n, false, 'beside'))).map(([end]) => end!));
      }
      return { floor, floorTyping, beside, run };
    };
    const { floor: floorTrue, floorTyping: floorTypingTrue, beside: floorBesideTrue, run: quietTrue } = await interleaved('true');
    const { floor: floorSleep, run: { times: runSleep } } = await interleaved('sleep 0.3');
    const runTrue = quietTrue.times;
    const loaded = await underLoad(() => interleaved('true'));

    const bytes = megabytes * 1_000_000;
    // 100-character lines, so the rendering is like a real build log rather than one huge line.
    const big = `yes 'terminal shepherd throughput line 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUV' | head -c ${bytes}`;
    const baseline = await extensionHostMemory(win);
    const floorBig = (await ev<number[][]>(FLOOR(big, 1, true)))[0]![0]!;
    const before = await extensionHostMemory(win);
    const t0 = performance.now();
    const { result } = await client.run(big, { timeout: 600_000 });
    const runMs = performance.now() - t0;
    const after = await extensionHostMemory(win);

    const cold = await coldStarts(win.workspace, 10);
    // The ledger reminder every response carries comes with the answer (ledger/reminder); asked for alone, it is one process/summary round trip. And its rendering.
    const bridge = new BridgeClient({ workspaceFolder: win.workspace, logger: silentLogger, clientInfo: { name: 'bench', version: '1' } });
    const summaryRoundTrip = await measure(50, () => bridge.request('ledgerSummary', {}));
    bridge.dispose();
    const entry = (pid: number) => ({ pid, name: 'node', terminalName: 'dev', ports: [5173], startedAt: new Date().toISOString() });
    const fifty = toReminder({ running: Array.from({ length: 50 }, (_, i) => entry(i)), orphaned: [] });
    const reminderRender = await measure(200, () => renderReminder(fifty));
    return {
      runs,
      floorTrue: summarize(floorTrue),
      floorTypingTrue: summarize(floorTypingTrue),
      floorBesideTrue: summarize(floorBesideTrue),
      floorSleep: summarize(floorSleep),
      runTrue: summarize(runTrue),
      runSleep: summarize(runSleep),
      overheadTrue: summarize(runTrue),
      overheadSleep: summarize(runSleep.map((t) => t - 300)),
      floorOverheadSleep: summarize(floorSleep.map((t) => t - 300)),
      loaded: { floor: summarize(loaded.floor), run: summarize(loaded.run.times), durationMs: summarize(loaded.run.durations) },
      durationTrue: summarize(quietTrue.durations),
      spans: stageSpans(quietTrue.timings),
      questions: client.questions.length,
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
    await client.close().catch(() => undefined);
    await win.stop(false);
  }
}

