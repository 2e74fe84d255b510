/**
 * The reliability suite: the real chain (MCP client -> dist/mcp-server.js -> bridge -> extension
 * in a real VS Code -> bash) under hostile input, load and faults, and its isolation from other
 * users and the network. One code path at two sizes: `full` for `npm run soak` (the figures the
 * docs/reliability.md quotes), `short` inside `npm test`. Seeded: the seed is printed and can be given again.
 */
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { openShepherdWindow, type ShepherdWindow } from '../support/shepherdE2e';
import { listProcesses } from '../support/vscodeProcesses';
import { bridgeFileFaults, dataDirFaults, reloadMidCall, terminalEndsMidRun, twoWindows } from './faultChecks';
import { hostileToolCalls, malformedBridgeFrames, startBystanders } from './hostileChecks';
import { anotherUser, noTcpPort } from './isolationChecks';
import { concurrentCalls, hugeOutputs, manyTerminals, sequentialRuns } from './loadChecks';
import { Random } from './random';
import { header, renderTable, type Area, type Check } from './report';

export interface SoakScale {
  readonly name: 'full' | 'short';
  readonly sequentialRuns: number;
  readonly warmupRuns: number;
  readonly bigLineMb: number;
  readonly escapeSequences: number;
  readonly concurrentRounds: number;
  readonly openTerminals: number;
  readonly hostileCalls: number;
  readonly bridgeFrames: number;
  readonly terminalEnds: number;
  readonly bridgeFileRounds: number;
  readonly dataDirRuns: number;
  readonly reloads: number;
}

export const SCALES: Record<SoakScale['name'], SoakScale> = {
  full: {
    name: 'full',
    sequentialRuns: 1000,
    warmupRuns: 500,
    bigLineMb: 50,
    escapeSequences: 1_000_000,
    concurrentRounds: 10,
    openTerminals: 50,
    hostileCalls: 2000,
    bridgeFrames: 2000,
    terminalEnds: 5,
    bridgeFileRounds: 3,
    dataDirRuns: 3,
    reloads: 3,
  },
  short: {
    name: 'short',
    sequentialRuns: 40,
    warmupRuns: 20,
    bigLineMb: 5,
    escapeSequences: 100_000,
    concurrentRounds: 1,
    openTerminals: 8,
    hostileCalls: 120,
    bridgeFrames: 300,
    terminalEnds: 1,
    bridgeFileRounds: 1,
    dataDirRuns: 1,
    reloads: 1,
  },
};

export interface SoakResult {
  readonly header: string;
  readonly checks: readonly Check[];
  readonly table: string;
  /** Every goal of every check that ran was met. */
  readonly passed: boolean;
}

/** A check that threw is a row that lost something, with the error as its figures. */
async function guarded(area: Area, name: string, work: () => Promise<Check | Check[]>): Promise<Check[]> {
  try {
    const result = await work();
    return Array.isArray(result) ? result : [result];
  } catch (error) {
    return [{ area, name, tried: 1, lost: 1, met: false, figures: `FAILED: ${(error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error)}` }];
  }
}

export async function runSoak(options: { seed: number; scale: SoakScale; log: (line: string) => void; only?: readonly string[] }): Promise<SoakResult> {
  const { scale, log } = options;
  const wants = (part: string): boolean => !options.only || options.only.length === 0 || options.only.includes(part);
  const random = new Random(options.seed);
  await ensureVsCode();
  // Terminals stay hidden: 50 visible terminals cost the headless workbench's rendering, not ours.
  const win: ShepherdWindow = await openShepherdWindow({ label: `soak-${scale.name}`, settings: { 'terminalShepherd.terminal.revealOnCreate': false } });
  const title = header(options.seed, scale.name, win.vscode.driver.hello?.vscodeVersion ?? '?');
  log(title);
  const checks: Check[] = [];
  const run = async (area: Area, name: string, part: string, work: () => Promise<Check | Check[]>): Promise<void> => {
    if (!wants(part)) return;
    const t0 = Date.now();
    log(`  ... ${name}`);
    const rows = await guarded(area, name, work);
    checks.push(...rows);
    for (const row of rows) log(`      ${row.skipped ? 'SKIPPED' : row.met ? 'ok' : 'NOT MET'} (${((Date.now() - t0) / 1000).toFixed(0)} s): ${row.skipped ?? row.figures}`);
  };
  let failed = false;
  try {
    const mcpServer = listProcesses().find((p) => p.ppid === process.pid && p.cmdline.includes('mcp-server.js'))?.pid;
    const bystanders = startBystanders(win, mcpServer);
    try {
      await run('load', 'sequential runs', 'load', () => sequentialRuns(win, scale.sequentialRuns, scale.warmupRuns, scale.name === 'full'));
      await run('load', 'huge outputs', 'load', () => hugeOutputs(win, scale.bigLineMb, scale.escapeSequences));
      await run('load', 'concurrent calls', 'load', () => concurrentCalls(win, scale.concurrentRounds));
      await run('load', 'many terminals', 'load', () => manyTerminals(win, scale.openTerminals));
      await run('hostile input', 'hostile tool calls', 'hostile', () => hostileToolCalls(win, random.fork('calls'), scale.hostileCalls, bystanders));
      await run('hostile input', 'malformed bridge frames', 'hostile', () => malformedBridgeFrames(win, random.fork('frames'), scale.bridgeFrames));
    } finally {
      bystanders.stop();
    }
    await run('faults', 'terminal closed mid-run', 'faults', () => terminalEndsMidRun(win, 'close', scale.terminalEnds));
    await run('faults', 'shell SIGKILLed mid-run', 'faults', () => terminalEndsMidRun(win, 'sigkill', scale.terminalEnds));
    await run('faults', 'bridge.json damaged', 'faults', () => bridgeFileFaults(win, scale.bridgeFileRounds));
    await run('faults', '.devtools full or read-only', 'faults', () => dataDirFaults(win, scale.dataDirRuns));
    await run('isolation', 'another Unix user', 'isolation', () => anotherUser(win));
    await run('faults', 'two windows on one folder', 'faults', () => twoWindows(win));
    await run('isolation', 'no TCP port', 'isolation', () => noTcpPort(win));
    await run('faults', 'window reloaded mid-call', 'faults', () => reloadMidCall(win, scale.reloads));
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    failed ||= checks.some((c) => !c.met);
    await win.stop(failed);
  }
  const table = renderTable(checks);
  return { header: title, checks, table, passed: checks.every((c) => c.met) };
}
