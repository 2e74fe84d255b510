/**
 * The per-command check in the real extension host (code-server): the driver extension
 * (test/support/driverExtension, TS_TEST_DRIVER_LOOP=1) measures the event loop from its own
 * activation, before Terminal Shepherd's, through the first 200 decisions of the window, made by
 * terminal_run through an MCP SDK client over stdio. The lines: the pathological ones first (a
 * megabyte line, 10,000 nested parentheses, `$( )` 99 deep, 1,600 chained commands), then the
 * corpora's asked lines (each question declined: nothing runs) with a benign approved line every
 * fifth call (it runs). Phases: activation (until the grammars are loaded), idle (the window open,
 * no call: the machine's own share), decisions. Figures only.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { HARDENING_CORPUS } from '../fixtures/safety/hardeningCorpus';
import { connectMcpServer, toolText } from '../support/mcpClient';
import { makeWorkspace, openShepherdWindow, waitFor } from '../support/shepherdE2e';
import { CORPUS } from '../unit/checks/commandSafety/corpus';
import { summarize, type Stats } from './stats';

const DECISIONS = 200;
/** How long the window stays open with no call, to see what the machine alone costs the loop. */
const IDLE_MS = 3000;

export interface LoopPhase {
  readonly name: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly maxMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** A heartbeat gap of the extension host's loop, its end as Date.now(). */
export interface LoopStall {
  readonly endedAt: number;
  readonly ms: number;
  readonly phase: string;
}

export interface SafetyHostResult {
  readonly activation: LoopPhase;
  readonly idle: LoopPhase;
  readonly decisions: LoopPhase;
  /** The longest stalls during the decisions, each with the call that was under way. */
  readonly decisionStalls: readonly (LoopStall & { readonly line: string })[];
  /** Loading and warming the grammars, by Terminal Shepherd's log, and the longest stall inside it. */
  readonly grammarLoad: { readonly loadMs: number; readonly longestStallMs: number };
  readonly activationStalls: readonly LoopStall[];
  readonly calls: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly roundTrip: Stats;
}

const short = (line: string): string => (line.length > 50 ? `${JSON.stringify(line.slice(0, 40)).slice(1, -1)}... (${line.length} chars)` : JSON.stringify(line).slice(1, -1));

/** The calls, in order: pathological lines, then asked corpus lines with an approved one every fifth. */
function benchLines(workspace: string): string[] {
  const pathological = [
    `echo ${'a'.repeat(1_000_000)}`, // over the protocol's 100,000: refused before any decision
    `echo ${'a'.repeat(99_000)}`,
    `${'('.repeat(10_000)}ls${')'.repeat(10_000)}`,
    `${'('.repeat(4_900)}ls${')'.repeat(4_900)}`,
    `echo ${'$('.repeat(99)}ls${')'.repeat(99)}`,
    `ls ${'&& ls '.repeat(1_600)}`,
    `rm "${'a b '.repeat(2_400)}"`, // read in full, then asked (declined: a 9,600-character line is never typed)
  ];
  const benign = ['ls -la', 'cat package.json', 'echo done', 'pwd', 'head -5 package.json', 'wc -l package.json', 'git status', 'date'];
  const asked = [...CORPUS, ...HARDENING_CORPUS].filter((e) => e.expected !== 'run' && e.shell !== 'pwsh').map((e) => e.line.replaceAll('/ws', workspace));
  const lines = [...pathological];
  for (let i = 0; lines.length < DECISIONS; i++) lines.push(i % 5 === 4 ? benign[(i / 5) % benign.length | 0]! : asked[i % asked.length]!);
  return lines;
}

/** A line of Terminal Shepherd's log: its time (VS Code writes local time) and message. */
function logTimes(logs: string[], pattern: RegExp): { at: number; match: RegExpMatchArray }[] {
  const out: { at: number; match: RegExpMatchArray }[] = [];
  for (const text of logs) {
    for (const line of text.split('\n')) {
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$/.exec(line);
      const match = m ? pattern.exec(m[3]!) : null;
      if (m && match) out.push({ at: new Date(`${m[1]}T${m[2]}`).getTime(), match });
    }
  }
  return out;
}

export async function runSafetyHostBench(): Promise<SafetyHostResult> {
  await ensureVsCode();
  const workspace = makeWorkspace();
  writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ name: 'bench', scripts: { build: 'tsc', test: 'mocha' } }));
  const win = await openShepherdWindow({ workspace, label: 'bench-safety-host', userLogLevel: true, settings: { 'terminalShepherd.safety.perCommandCheck': true, 'terminalShepherd.terminal.revealOnCreate': false }, launch: { env: { TS_TEST_DRIVER_LOOP: '1' } } });
  const declining = await connectMcpServer({ workspace, elicit: () => Promise.resolve({ action: 'decline' }) });
  try {
    const ev = <T>(code: string): Promise<T> => win.vscode.driver.evaluate<T>(code, { timeoutMs: 60_000 });
    const loaded = await waitFor('the shell grammars to be loaded (Terminal Shepherd log)', 120_000, () => {
      const found = logTimes(win.vscode.extensionLogs(), /shell grammars loaded in ([\d.]+) ms/);
      return found[0];
    });
    const activating = logTimes(win.vscode.extensionLogs(), /Terminal Shepherd .* activating/)[0];
    await ev(`state.loop.phase('idle')`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    await ev(`state.loop.phase('decisions')`);
    const calls: { line: string; startedAt: number; endedAt: number }[] = [];
    const outcomes: Record<string, number> = {};
    const times: number[] = [];
    for (const line of benchLines(workspace)) {
      const startedAt = Date.now();
      const t0 = performance.now();
      const result = (await declining.client.callTool({ name: 'terminal_run', arguments: { command: line, name: 'bench', timeout: 20_000 } }, CallToolResultSchema, { timeout: 120_000 })) as CallToolResult;
      times.push(performance.now() - t0);
      calls.push({ line, startedAt, endedAt: Date.now() });
      const content = result.structuredContent as { status?: string; safety?: { decision?: string } } | undefined;
      const outcome = result.isError === true ? `refused (${toolText(result).slice(0, 60)})` : `${content?.safety?.decision ?? 'unchecked'}, ${content?.status ?? '?'}`;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    const report = await ev<{ phases: LoopPhase[]; stalls: LoopStall[] }>(`return state.loop.report()`);
    const phase = (name: string): LoopPhase => report.phases.find((p) => p.name === name)!;
    const during = (s: LoopStall): string => short(calls.find((c) => s.endedAt >= c.startedAt && s.endedAt <= c.endedAt + 5)?.line ?? '(between calls)');
    const byLength = (a: LoopStall, b: LoopStall): number => b.ms - a.ms;
    const grammarStart = activating?.at ?? phase('activation').startedAt;
    const inGrammarLoad = report.stalls.filter((s) => s.endedAt >= grammarStart && s.endedAt <= loaded.at + 5);
    return {
      activation: phase('activation'),
      idle: phase('idle'),
      decisions: phase('decisions'),
      decisionStalls: report.stalls.filter((s) => s.phase === 'decisions').sort(byLength).slice(0, 5).map((s) => ({ ...s, line: during(s) })),
      grammarLoad: { loadMs: Number(loaded.match[1]), longestStallMs: Math.max(0, ...inGrammarLoad.map((s) => s.ms)) },
      activationStalls: report.stalls.filter((s) => s.phase === 'activation').sort(byLength).slice(0, 5),
      calls: calls.length,
      outcomes,
      roundTrip: summarize(times),
    };
  } finally {
    await declining.close().catch(() => undefined);
    await win.stop(false);
  }
}
