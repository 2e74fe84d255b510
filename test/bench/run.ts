/**
 * `npm run bench`: every benchmark, figures printed (never asserted), ratios measured in one run.
 *   npm run bench                 all
 *   npm run bench -- chain        only the real-chain benchmark (also: strategies, copilot, harness, ready, long, servers, output, process, ledger, safety, stall, questions, sandbox)
 */
import { cpus, loadavg } from 'node:os';
import { runAgentHostBench } from './agentHostBench';
import { runChainBench } from './chainBench';
import { runCopilotBench, type SideBySideTool } from './copilotBench';
import { runDevServerLocalBench, runReadyChainBench } from './devServerBench';
import { runLedgerBench } from './ledgerBench';
import { runLongWorkBench } from './longWorkBench';
import { runOutputBench } from './outputBench';
import { runProcessBench } from './processBench';
import { AGENT_SESSION, runSafetyChatBench, runSafetyLocalBench, type QuestionCount } from './safetyBench';
import { runSafetyHostBench } from './safetyHostBench';
import { runSandboxBench, runSandboxSideBySide } from './sandboxBench';
import { runStrategyBench } from './strategyBench';
import { ms, type Stats } from './stats';

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const wants = (name: string): boolean => only.length === 0 || only.includes(name);
const line = (label: string, value: string): void => console.log(`  ${label.padEnd(58)} ${value}`);
const dist = (s: Pick<Stats, 'p50' | 'p95'>): string => `p50 ${ms(s.p50)}   p95 ${ms(s.p95)}`;
const returned = (t: SideBySideTool): string => {
  const exit = `exit code in ${t.exitCodes.present}/${t.calls}${t.exitCodes.present > 0 ? ` (right ${t.exitCodes.right})` : ''}`;
  const output = Object.entries(t.output).map(([shape, n]) => `${shape} ${n}`).join(', ');
  const file = t.fullOutputFiles > 0 ? `; whole output in a file ${t.fullOutputFiles}` : '';
  return `${exit}; output ${output || 'none'}${file}${t.failures.length > 0 ? `; ${t.failures.length} failed: ${t.failures[0]!.slice(0, 80)}` : ''}`;
};

async function main(): Promise<void> {
  console.log(`Terminal Shepherd benchmarks — ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}\n`);

  if (wants('strategies')) {
    const results = await runStrategyBench();
    console.log(`Execution strategies: terminal_run \`true\` against the floor of its own strategy, same window, ${results[0]?.run.runs ?? 0} runs each`);
    for (const r of results) {
      line(`${r.shell} / ${r.strategy}: floor`, `${dist(r.floor)}${r.floorEndsLost > 0 ? `   (${r.floorEndsLost} ends never reported by VS Code)` : ''}`);
      line(`${r.shell} / ${r.strategy}: terminal_run`, dist(r.run));
      const goal = r.strategy === 'vscode' ? 'goal <= 1.5' : 'goal <= 1.5 and p50 < 60 ms';
      line(`${r.shell} / ${r.strategy}: ratio terminal_run / floor (p50; ${goal})`, (r.run.p50 / r.floor.p50).toFixed(2));
    }
    console.log();
  }

  if (wants('chain')) {
    const c = await runChainBench();
    console.log(`Real chain: MCP SDK client -> MCP server -> bridge -> extension (code-server) -> bash, default settings, per-command check on, ${c.runs} runs each`);
    line('floor: bare executeCommand -> end event, `true`, same terminal', dist(c.floorTrue));
    line('  of it, executeCommand -> start event (the floor\'s `typing`)', dist(c.floorTypingTrue));
    line('  the same on a terminal beside it (not the active one)', dist(c.floorBesideTrue));
    line('terminal_run round trip, `true` (= its overhead)', dist(c.runTrue));
    line('ratio terminal_run / floor, `true` (p50; goal <= 1.3)', (c.overheadTrue.p50 / c.floorTrue.p50).toFixed(2));
    line('the result\'s durationMs, `true` (goal p50 <= 40)', dist(c.durationTrue));
    line('under load (busy loop on the other core): floor, `true`', dist(c.loaded.floor));
    line('under load: terminal_run round trip, `true`', dist(c.loaded.run));
    line('under load: ratio terminal_run / floor (p50; goal <= 1.5)', (c.loaded.run.p50 / c.loaded.floor.p50).toFixed(2));
    line('under load: the result\'s durationMs, `true`', dist(c.loaded.durationMs));
    console.log(`  where one \`true\` spends its time (p50 / p95 per stage, ${c.runs} runs; the check asked ${c.questions} questions, once per command):`);
    for (const s of c.spans) line(`  ${s.stage}`, `${ms(s.p50).padStart(9)} / ${ms(s.p95)}`);
    line('floor overhead, `sleep 0.3` (round trip - 300 ms)', dist(c.floorOverheadSleep));
    line('terminal_run overhead, `sleep 0.3` (round trip - 300 ms)', dist(c.overheadSleep));
    line('ratio terminal_run / floor overhead, `sleep 0.3` (p50)', (c.overheadSleep.p50 / c.floorOverheadSleep.p50).toFixed(2));
    const t = c.throughput;
    line(`throughput, ${t.megabytes} MB of 100-char lines, terminal_run`, `${ms(t.runMs)}  (${t.runMbPerSec.toFixed(1)} MB/s)`);
    line(`throughput, same output drained raw by the floor`, `${ms(t.floorMs)}  (${t.floorMbPerSec.toFixed(1)} MB/s)`);
    line('ratio terminal_run / floor, throughput time', (t.runMs / t.floorMs).toFixed(2));
    line('extension host RSS / heap growth, terminal_run (after GC)', `${t.extHostRssGrowthMb.toFixed(1)} MB / ${t.extHostHeapGrowthMb.toFixed(1)} MB`);
    line('extension host RSS / heap growth, floor drain (after GC)', `${t.floorRssGrowthMb.toFixed(1)} MB / ${t.floorHeapGrowthMb.toFixed(1)} MB`);
    line('result size (truncated head + tail)', `${t.outputChars} chars, truncated=${t.truncated}`);
    line('MCP server cold start to first tools/list (10 runs)', dist(c.coldStart));
    line('ledger summary asked alone: process/summary round trip', dist(c.summaryRoundTrip));
    line('per-response ledger reminder: rendering 50 entries (capped)', dist(c.reminderRender));
    console.log();
    // The stopped VS Code's processes take a few seconds to exit; the in-process figures below
    // should not share the CPUs with them.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }

  if (wants('copilot')) {
    const c = await runCopilotBench();
    console.log(`Copilot side by side: run_in_terminal (VS Code's own), terminal_run and a floor tool, all through vscode.lm.invokeTool from one chat request, interleaved, ${c.runs} runs each`);
    for (const [tool, k] of Object.entries(c.clicks)) {
      line(`confirmations clicked (primary button), ${tool}`, `${k.confirmations} in ${k.calls} calls${k.buttons.length ? ` (${k.buttons.map((b) => `"${b}"`).join(', ')})` : ''}`);
    }
    for (const command of c.commands) {
      const theirs = command.tools.run_in_terminal;
      const ours = command.tools.terminal_run;
      console.log(`  ${command.label}`);
      line('  run_in_terminal: round trip / after approval', `p50 ${ms(theirs.roundTrip.p50)} / ${ms(theirs.afterApproval.p50)}`);
      line('  terminal_run:    round trip / after approval', `p50 ${ms(ours.roundTrip.p50)} / ${ms(ours.afterApproval.p50)}`);
      line('  ratio terminal_run / run_in_terminal (p50 after approval)', (ours.afterApproval.p50 / theirs.afterApproval.p50).toFixed(2));
      line('  speed-up run_in_terminal / terminal_run (p50 after approval; goal 20x)', `${(theirs.afterApproval.p50 / ours.afterApproval.p50).toFixed(1)}x`);
      line('  floor tool: bare executeCommand on the same terminal, same path', dist(command.floor));
      line('  ratio terminal_run / floor tool (p50)', (ours.afterApproval.p50 / command.floor.p50).toFixed(2));
      if (ours.durationMs) line('  terminal_run\'s own durationMs', dist(ours.durationMs));
      line('  run_in_terminal returned', returned(theirs));
      line('  terminal_run returned', returned(ours));
    }
    line('a tool call that does nothing (floor tool, no command)', dist(c.toolCall));
    console.log('  row, p50 after approval     run_in_terminal  terminal_run  floor tool  speed-up (goal 20x)  20x needs');
    for (const { label, tools, floor } of c.commands) {
      const theirs = tools.run_in_terminal.afterApproval.p50;
      const ours = tools.terminal_run.afterApproval.p50;
      console.log(`  ${label.replace(/ \(.*/, '').padEnd(26)} ${ms(theirs).padStart(15)} ${ms(ours).padStart(13)} ${ms(floor.p50).padStart(11)} ${`${(theirs / ours).toFixed(1)}x`.padStart(20)} ${ms(theirs / 20).padStart(10)}`);
    }
    line('the whole chat request', ms(c.sessionMs));
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }

  if (wants('harness')) {
    const h = await runAgentHostBench();
    console.log(`VS Code agent host, Copilot harness: its own bash and terminal_run, one turn per round in one chat, interleaved, ${h.runs} runs each (timed at the model)`);
    line('harness confirmations clicked (primary button)', `${h.clicks.length}${h.clicks.length ? ` (${[...new Set(h.clicks)].map((t) => `"${t}"`).join(', ')})` : ''}`);
    if (h.lostTurns > 0) line("turns VS Code's window lost (shown again by a reload)", String(h.lostTurns));
    for (const command of h.commands) {
      const theirs = command.tools.bash;
      const ours = command.tools.terminal_run;
      console.log(`  ${command.label}`);
      line('  bash:         round trip / after approval', `p50 ${ms(theirs.roundTrip.p50)} / ${ms(theirs.afterApproval.p50)}   (p95 ${ms(theirs.afterApproval.p95)}; ${theirs.confirmations} confirmations)`);
      line('  terminal_run: round trip / after approval', `p50 ${ms(ours.roundTrip.p50)} / ${ms(ours.afterApproval.p50)}   (p95 ${ms(ours.afterApproval.p95)}; ${ours.confirmations} confirmations)`);
      line('  ratio terminal_run / bash (p50 after approval)', (ours.afterApproval.p50 / theirs.afterApproval.p50).toFixed(2));
      if (ours.durationMs) line('  terminal_run\'s own durationMs', dist(ours.durationMs));
      line('  bash returned', returned(theirs));
      line('  terminal_run returned', returned(ours));
    }
    line('all rounds', ms(h.sessionMs));
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }

  if (wants('ready')) {
    const r = await runReadyChainBench();
    console.log(`Dev servers, real chain: terminal_run waitMode "ready", ${r.runs} servers each (bind after 300-600 ms)`);
    line('port answering -> tool returned, URL printed (goal p50 <= 100)', dist(r.printsUrl));
    line('port answering -> tool returned, no URL printed (+catch-up)', dist(r.printsNoUrl));
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000)); // let the stopped VS Code exit first
  }

  if (wants('long')) {
    const l = await runLongWorkBench();
    console.log(`Long work, real chain: watchers, the deadline-aware path, MCP tasks, ${l.runs} runs each`);
    line('watcher: summary printed -> `watching` returned (goal p50 <= 200)', dist(l.watcherReturn));
    line('terminal_run `true`, deadline-aware call', dist(l.direct));
    line('terminal_run `true`, as an MCP task (done in its first reply)', dist(l.task));
    line('ratio deadline-aware / task (p50)', (l.direct.p50 / l.task.p50).toFixed(2));
    line(`client cuts at ${l.deadlineMs / 1000} s: budget ${l.budgetMs / 1000} s, running reached it after`, `budget + ${ms(l.overshoot.p50)} p50, + ${ms(l.overshoot.p95)} p95`);
    line(`calls for a ${l.build.seconds} s build, following nextCall (goal ${l.build.goal})`, `${l.build.calls} (exit code ${l.build.exitCode})`);
    const rule = (deadlineMs: number): number => Math.ceil(600_000 / (deadlineMs - Math.min(15_000, Math.max(1000, deadlineMs / 10))));
    line('10-minute build by the same rule: 60 s client / VS Code 5 min / task', `${rule(60_000)} / ${rule(300_000)} / 1 calls`);
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000)); // let the stopped VS Code exit first
  }

  if (wants('servers')) {
    const s = await runDevServerLocalBench();
    console.log('Dev servers and stacks, in process');
    line("one look at a run's tree, sockets unchanged (every 50 ms)", dist(s.treeLook));
    line("one look at a run's tree reading the TCP tables", dist(s.treeLookTables));
    line('one loopback HTTP probe', dist(s.httpProbe));
    line(`stack detection, ${s.files} files, cold (goal p50 <= 150)`, dist(s.detectCold));
    line('stack detection, cached (goal p50 <= 5)', dist(s.detectCached));
    line(`duplicate check per run (${s.sessions} terminals)`, dist(s.duplicateCheck));
    console.log();
  }

  if (wants('output')) {
    const o = await runOutputBench();
    console.log('Output pipeline alone (render + head/tail + log file), in process');
    line('throughput', `${o.mbPerSec.toFixed(1)} MB/s`);
    line('heap / RSS growth', `${o.heapGrowthMb.toFixed(1)} MB / ${o.rssGrowthMb.toFixed(1)} MB`);
    console.log();
  }

  if (wants('process')) {
    const p = await runProcessBench();
    console.log(`Process monitor (Linux /proc), ${p.processCount} processes on the machine`);
    line('full snapshot, listAll (goal p50 < 15 ms)', dist(p.listAll));
    line('full snapshot, cold cache', dist(p.listAllColdCache));
    line(`descendants of a shell (${p.descendants.found} found)`, dist(p.descendants));
    if (p.probeShellIdle) line('probeShell at the prompt', dist(p.probeShellIdle));
    if (p.probeShellJob) line('probeShell during a job', dist(p.probeShellJob));
    for (const note of p.notes) console.log(`  note: ${note}`);
    console.log();
  }

  if (wants('safety')) {
    const s = await runSafetyLocalBench();
    console.log(`Per-command safety check, in process: VS Code's default rules, the ${s.lines} corpus lines`);
    line('grammars loaded, first in the process (runtime, bash, PowerShell)', ms(s.firstLoadMs));
    line('grammars loaded again (bash, PowerShell; runtime up)', dist(s.reload));
    line('decision per line, grammars loaded (goal p50 <= 2 ms)', dist(s.decision));
    line('decision per line over 1,000 characters', dist(s.decisionLong));
    line('slowest warm decision', `${ms(s.worst.ms)} (${s.worst.line})`);
    console.log();
  }

  if (wants('stall')) {
    const h = await runSafetyHostBench();
    const phase = (p: { maxMs: number; p99Ms: number }): string => `longest ${ms(p.maxMs)}   p99 ${ms(p.p99Ms)}`;
    console.log(`Event loop of the real extension host (code-server), from activation through the first ${h.calls} terminal_run decisions`);
    line('activation (until the grammars are loaded and warm)', phase(h.activation));
    line(`  loading + warming the grammars (${ms(h.grammarLoad.loadMs)}): longest stall inside`, ms(h.grammarLoad.longestStallMs));
    line('idle window, no call (the machine\'s own share)', phase(h.idle));
    line(`the first ${h.calls} decisions (goal: longest <= 50 ms)`, phase(h.decisions));
    line('  round trip per call', dist(h.roundTrip));
    console.log(`  outcomes: ${Object.entries(h.outcomes).map(([o, n]) => `${o} ${n}`).join('; ')}`);
    console.log(`  longest stalls at activation: ${h.activationStalls.map((s) => ms(s.ms)).join(', ') || 'none over 10 ms'}`);
    for (const s of h.decisionStalls) console.log(`  stall ${ms(s.ms)} during \`${s.line}\``);
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000)); // let the stopped VS Code exit first
  }

  if (wants('questions')) {
    const q = await runSafetyChatBench();
    const count = (c: QuestionCount): string => `${c.confirmations + c.elicitations} (VS Code's confirmations ${c.confirmations}${c.buttons.length ? `: ${c.buttons.map((b) => `"${b}"`).join(', ')}` : ''}; ours ${c.elicitations}) in ${c.calls} calls`;
    console.log(`Questions of a scripted ${AGENT_SESSION.length}-command agent session through VS Code's chat, default rules, same window`);
    line('run_in_terminal (VS Code\'s own)', count(q.runInTerminal));
    line('terminal_run (per-command check on)', count(q.terminalRun));
    console.log(`  asked by run_in_terminal: ${q.runInTerminal.asked.map((c) => `\`${c}\``).join(', ') || 'none'}`);
    console.log(`  asked by terminal_run:    ${q.terminalRun.asked.map((c) => `\`${c}\``).join(', ') || 'none'}`);
    console.log(`  run_in_terminal's auto-approve opt-in: ${q.optIn}`);
    console.log();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }

  if (wants('ledger')) {
    const l = await runLedgerBench();
    console.log(`Process ledger, ${l.tracked} tracked processes`);
    line('summary() per tool response (cached)', dist(l.summaryCached));
    line('summary() recomputed after a change', dist(l.summaryRecomputed));
    line('list() (trees)', dist(l.list));
    line('one poll cycle of a terminal (walk + identity + diff)', dist(l.pollCycle));
    line('refresh() (adds liveness checks and ports)', dist(l.refresh));
    line('active-processes.json write (lock, merge, rename)', dist(l.activeFileWrite));
    line('one process-log.jsonl append', dist(l.logAppend));
    console.log();
  }

  if (wants('sandbox') && process.platform === 'linux') {
    const b = await runSandboxBench();
    console.log('Sandbox (the runtime, bubblewrap): `true` and a daily-work corpus, confined (confineAutoApproved\'s policy) and plain, in plain Node');
    line('`true` plain (bash -c)', dist(b.plainTrue));
    line('`true` in the sandbox (node launcher + runtime + bwrap)', dist(b.sandboxedTrue));
    for (const row of b.corpus) line(`  ${row.label}`, `plain exit ${row.plain.code}, confined exit ${row.confined.code}${row.confined.denied ? ` (denied ${row.confined.denied})` : ''}`);
    line('a dev server reached from outside: plain / confined / network off', `${b.devServer.plain} / ${b.devServer.confined} / ${b.devServer.confinedNoNetwork}`);
    const s = await runSandboxSideBySide();
    line('`echo` sandboxed in VS Code, after approval: run_in_terminal', dist(s.runInTerminal));
    line('  terminal_run', `${dist(s.terminalRun)} (ratio ${s.ratio.toFixed(2)}; confined ${s.confined.terminalRun}/${s.terminalRun.runs}, run_in_terminal ${s.confined.runInTerminal}/${s.runInTerminal.runs}${s.failures.length > 0 ? `; failed: ${s.failures.join('; ')}` : ''})`);
    console.log();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
