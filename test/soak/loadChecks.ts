/**
 * Load on the real chain: long series of runs with the extension host's memory after GC,
 * concurrent calls over several terminals, many terminals open, huge outputs. Every output is
 * checked against what the command printed: "lost" counts outputs missing or wrong.
 */
import { statSync } from 'node:fs';
import type { ListResult, TerminalRunResult } from '../../common/src/protocol';
import { alive, extensionHostMemory, type HostMemory, type ShepherdWindow } from '../support/shepherdE2e';
import { callTool, type Outcome } from './calls';
import { latency, mb, signedMb, type Check } from './report';

const MEMORY_GOAL_BYTES = 5e6;

const runResultOf = (o: Outcome): TerminalRunResult | undefined => (o.kind === 'result' ? (o.result.structuredContent as unknown as TerminalRunResult) : undefined);

/** Bare shell-integration round trips in the same window (VS Code's own cost, no Terminal Shepherd). */
const FLOOR_RUNS = (runs: number): string => `
  const term = state.soakFloor ??= vscode.window.createTerminal({ name: 'soak floor', shellPath: '/bin/bash', isTransient: true });
  const si = term.shellIntegration ?? await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no shell integration in 20 s')), 20000);
    const d = vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === term) { clearTimeout(timer); d.dispose(); resolve(e.shellIntegration); } });
  });
  for (let i = 0; i < ${runs}; i++) {
    const execution = si.executeCommand('echo floor-' + i);
    const ended = new Promise((resolve) => {
      const d = vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) { d.dispose(); resolve(); } });
    });
    for await (const _ of execution.read()) { /* drained */ }
    await ended;
  }
`;

/**
 * `runs` sequential terminal_run calls on a fresh window, with the extension host's heap and RSS
 * after GC every tenth of the way (the goal compares the end with the end of the warm-up). Then as
 * many bare executeCommand round trips as ran after the warm-up, in the same window, to tell
 * VS Code's own growth from ours.
 */
export async function sequentialRuns(win: ShepherdWindow, runs: number, warmup: number, judgeMemory: boolean): Promise<Check> {
  // Each sample costs a second (a full GC and a pause): a short series samples only its two points.
  const step = runs >= 200 ? Math.floor(runs / 10) : runs;
  const samples: Array<{ at: number; memory: HostMemory }> = [{ at: 0, memory: await extensionHostMemory(win) }];
  let lost = 0;
  const wrong: string[] = [];
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const outcome = await callTool(win.mcp.client, 'terminal_run', { command: `printf 'seq-%d\\n' ${i}; echo done`, name: 'seq' }, 60_000);
    times.push(outcome.ms);
    const r = runResultOf(outcome);
    if (!r || r.status !== 'completed' || r.exitCode !== 0 || r.output !== `seq-${i}\ndone`) {
      lost++;
      if (wrong.length < 3) wrong.push(`run ${i}: ${r ? JSON.stringify({ status: r.status, exitCode: r.exitCode, output: r.output.slice(0, 80), message: r.message?.slice(0, 120) }) : outcome.kind === 'toolError' || outcome.kind === 'protocolError' || outcome.kind === 'crash' ? outcome.text.slice(0, 160) : outcome.kind}`);
    }
    if ((i + 1) % step === 0 || i + 1 === warmup) samples.push({ at: i + 1, memory: await extensionHostMemory(win) });
  }
  const floorRuns = runs - warmup;
  const end = samples.at(-1)!.memory;
  await win.vscode.driver.evaluate(FLOOR_RUNS(floorRuns), { timeoutMs: 600_000 });
  const floorEnd = await extensionHostMemory(win);
  const warm = samples.find((s) => s.at === warmup)?.memory ?? samples[0]!.memory;
  const heapGrowth = end.heap - warm.heap;
  const rssGrowth = end.rss - warm.rss;
  const met = lost === 0 && (!judgeMemory || (heapGrowth < MEMORY_GOAL_BYTES && rssGrowth < MEMORY_GOAL_BYTES));
  const series = (pick: (m: HostMemory) => number): string => samples.filter((s) => s.at % step === 0).map((s) => (pick(s.memory) / 1e6).toFixed(0)).join(' ');
  return {
    area: 'load',
    name: `sequential runs on a fresh window (warm-up: the first ${warmup})`,
    tried: runs,
    lost,
    goal: judgeMemory ? 'growth after warm-up < 5 MB' : 'memory figures only at this size (npm run soak judges them)',
    met,
    figures:
      `extension host after GC: heap ${mb(samples[0]!.memory.heap)} at the start, ${mb(warm.heap)} after warm-up, ${mb(end.heap)} at the end (${signedMb(heapGrowth)}); ` +
      `RSS ${mb(samples[0]!.memory.rss)}, ${mb(warm.rss)}, ${mb(end.rss)} (${signedMb(rssGrowth)}); of the heap's change, V8's compiled code ${signedMb(end.code - warm.code)}; ` +
      `every ${step} runs, heap MB: ${series((m) => m.heap)}; RSS MB: ${series((m) => m.rss)}; a regular full GC at the end left ${mb(end.pooled)} more resident (V8's pool of freed pages); ` +
      `then ${floorRuns} bare executeCommand runs (VS Code alone, as many as after the warm-up): heap ${signedMb(floorEnd.heap - end.heap)}, RSS ${signedMb(floorEnd.rss - end.rss)}; ${latency(times)}` +
      (wrong.length ? `; wrong: ${wrong.join(' | ')}` : ''),
  };
}

/** A single line of `megabytes` MB, then a million-ish escape sequences; memory bounded, the next run clean. */
export async function hugeOutputs(win: ShepherdWindow, megabytes: number, escapes: number): Promise<Check> {
  let lost = 0;
  const notes: string[] = [];
  const before = await extensionHostMemory(win);
  const bytes = megabytes * 1_000_000;
  const line = await callTool(win.mcp.client, 'terminal_run', { command: `head -c ${bytes} /dev/zero | tr '\\0' x; echo`, name: 'keep-big', timeout: 600_000 }, 700_000);
  const big = runResultOf(line);
  const fileSize = big?.outputFile ? statSync(big.outputFile).size : 0;
  if (!big || big.status !== 'completed' || big.truncated !== true || big.output.length > 16_000 || fileSize < bytes) {
    lost++;
    notes.push(`the ${megabytes} MB line: ${big ? `${big.status}, ${big.output.length} chars, log ${fileSize} bytes` : line.kind}`);
  }
  const afterLine = await extensionHostMemory(win);
  const sgr = await callTool(
    win.mcp.client,
    'terminal_run',
    { command: `awk 'BEGIN { for (i = 0; i < ${escapes}; i++) printf "\\033[3%dm", i % 8; printf "\\033[0m"; print "end" }'`, name: 'keep-big', timeout: 600_000 },
    700_000,
  );
  const esc = runResultOf(sgr);
  if (!esc || esc.status !== 'completed' || esc.output !== 'end') {
    lost++;
    notes.push(`the escape sequences: ${esc ? `${esc.status}: ${JSON.stringify(esc.output.slice(0, 80))}` : sgr.kind}`);
  }
  const clean = runResultOf(await callTool(win.mcp.client, 'terminal_run', { command: 'echo clean', name: 'keep-big' }, 60_000));
  if (clean?.output !== 'clean') {
    lost++;
    notes.push(`the next run: ${JSON.stringify(clean?.output)}`);
  }
  const after = await extensionHostMemory(win);
  return {
    area: 'load',
    name: `a ${megabytes} MB single line, ${escapes.toLocaleString('en-US')} escape sequences, then a clean run`,
    tried: 3,
    lost,
    met: lost === 0,
    figures:
      `line ${(line.ms / 1000).toFixed(1)} s (result ${big?.output.length ?? 0} chars, full text ${mb(fileSize)} in the log file), ` +
      `escapes ${(sgr.ms / 1000).toFixed(1)} s; extension host after GC: heap ${signedMb(afterLine.heap - before.heap)} after the line, ` +
      `${signedMb(after.heap - before.heap)} at the end; RSS ${signedMb(after.rss - before.rss)}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}

/**
 * Rounds of 20 concurrent calls over 5 terminals: per terminal two runs racing (exactly one may
 * run, the other is refused as busy), a terminal_state wait, and terminal_list / list_processes.
 */
export async function concurrentCalls(win: ShepherdWindow, rounds: number): Promise<Check> {
  let lost = 0;
  const times: number[] = [];
  const problems: string[] = [];
  const note = (what: string): void => {
    lost++;
    if (problems.length < 3) problems.push(what);
  };
  for (let round = 0; round < rounds; round++) {
    const calls: Array<Promise<Outcome>> = [];
    for (let t = 0; t < 5; t++) {
      const name = `cc${t}`;
      calls.push(callTool(win.mcp.client, 'terminal_run', { command: `for i in $(seq 1 20); do echo ${name}-${round}-$i; done`, name }, 60_000));
      calls.push(callTool(win.mcp.client, 'terminal_run', { command: `echo intruder-${round}`, name }, 60_000));
      calls.push(callTool(win.mcp.client, 'terminal_state', { name, wait: true, timeout: 10_000 }, 60_000));
      calls.push(callTool(win.mcp.client, t % 2 === 0 ? 'terminal_list' : 'list_processes', {}, 60_000));
    }
    const outcomes = await Promise.all(calls);
    outcomes.forEach((o) => times.push(o.ms));
    for (let t = 0; t < 5; t++) {
      const name = `cc${t}`;
      const [a, b, state, listing] = outcomes.slice(t * 4, t * 4 + 4) as [Outcome, Outcome, Outcome, Outcome];
      const ran = [a, b].filter((o) => o.kind === 'result');
      const busy = [a, b].filter((o) => o.kind === 'toolError' && /^TerminalBusy: /.test(o.text));
      if (ran.length !== 1 || busy.length !== 1) {
        note(`${name} round ${round}: ${[a, b].map((o) => (o.kind === 'toolError' ? o.text.slice(0, 60) : o.kind)).join(' / ')}`);
      } else {
        const r = runResultOf(ran[0]!)!;
        const expected = ran[0] === a ? Array.from({ length: 20 }, (_, i) => `${name}-${round}-${i + 1}`).join('\n') : `intruder-${round}`;
        if (r.status !== 'completed' || r.output !== expected) note(`${name} round ${round}: output ${JSON.stringify(r.output.slice(0, 60))}`);
      }
      const stateOk = state.kind === 'result' || (state.kind === 'toolError' && /^(TerminalNotFound|NoActiveRun): /.test(state.text));
      if (!stateOk) note(`${name} state: ${state.kind}`);
      if (listing.kind !== 'result') note(`${name} listing: ${listing.kind}`);
    }
  }
  return {
    area: 'load',
    name: '20 concurrent calls over 5 terminals (racing runs, waits, listings)',
    tried: rounds * 20,
    lost,
    met: lost === 0,
    figures: `${rounds} rounds; per terminal exactly one racing run ran (output exact), the other refused TerminalBusy; ${latency(times)}${problems.length ? `; ${problems.join('; ')}` : ''}`,
  };
}

/** `count` terminals open at once, each running twice; the shells are checked in /proc. */
export async function manyTerminals(win: ShepherdWindow, count: number): Promise<Check> {
  let lost = 0;
  const creation: number[] = [];
  for (let i = 0; i < count; i++) {
    const o = await callTool(win.mcp.client, 'terminal_run', { command: `echo t${i}`, name: `many-${i}` }, 60_000);
    creation.push(o.ms);
    if (runResultOf(o)?.output !== `t${i}`) lost++;
  }
  const listed = await callTool(win.mcp.client, 'terminal_list', {}, 60_000);
  const terminals = listed.kind === 'result' ? (listed.result.structuredContent as unknown as ListResult).terminals.filter((t) => t.name.startsWith('many-')) : [];
  const shells = new Set(terminals.map((t) => t.pid).filter((pid): pid is number => pid !== undefined && alive(pid)));
  if (terminals.length !== count || shells.size !== count) lost += Math.max(1, count - shells.size);
  const again: number[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, k) => callTool(win.mcp.client, 'terminal_run', { command: `echo again-${i + k}`, name: `many-${i + k}` }, 60_000)),
    );
    batch.forEach((o, k) => {
      again.push(o.ms);
      if (runResultOf(o)?.output !== `again-${i + k}`) lost++;
    });
  }
  await win.vscode.driver.evaluate(`for (const t of vscode.window.terminals) if (t.name.startsWith('Shepherd: many-')) t.dispose();`);
  return {
    area: 'load',
    name: `${count} terminals open at once`,
    tried: count * 2,
    lost,
    met: lost === 0,
    figures: `${terminals.length} listed, ${shells.size} distinct live shells in /proc; first run (creates the terminal) ${latency(creation)}; second run, 10 at a time, ${latency(again)}`,
  };
}
