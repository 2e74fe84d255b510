/**
 * Long-work benchmarks through the real chain (MCP SDK client -> MCP server -> bridge -> extension
 * in code-server -> bash): how soon a watcher's summary reaches the model as `watching`; what the
 * deadline-aware path costs a fast call (against the same call as an MCP task) and how close to
 * its budget a long call returns; and how many calls a long build costs a model that follows
 * nextCall (goal: ceil(build / budget), never a polling loop).
 *
 * "Summary printed" is the watcher's own Date.now() just before it writes its summary and banner;
 * "returned" is the MCP client's Date.now() when the call resolves (one machine, one clock).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import type { TerminalRunResult } from '../../common/src/protocol';
import { deadlineBudget } from '../../extension/src/core/service/callDeadline';
import { connectMcpServer, repoRoot, type McpSession } from '../support/mcpClient';
import { openShepherdWindow } from '../support/shepherdE2e';
import { summarize, type Stats } from './stats';

export interface LongWorkResult {
  readonly runs: number;
  /** A watcher's summary printed -> terminal_run returned `watching`. */
  readonly watcherReturn: Stats;
  /** terminal_run `true`, the deadline-aware call (what every client without tasks gets). */
  readonly direct: Stats;
  /** The same as an MCP task (completed in the task's first reply). */
  readonly task: Stats;
  readonly deadlineMs: number;
  readonly budgetMs: number;
  /** How long after its budget a cut-short call reached the client. */
  readonly overshoot: Stats;
  readonly build: { readonly seconds: number; readonly calls: number; readonly goal: number; readonly exitCode: number | undefined };
}

const structured = (r: CallToolResult): TerminalRunResult => {
  if (r.isError) throw new Error(`bench call failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as unknown as TerminalRunResult;
};

/** A stand-in vitest: its recorded first cycle, the summary and banner written at once after a pause, the time noted first. */
function watcherScript(dir: string): string {
  const rendered = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'watchers', 'vitest-4-fail.txt'), 'utf8');
  const cut = rendered.lastIndexOf(' Test Files');
  writeFileSync(path.join(dir, 'head.txt'), rendered.slice(0, cut));
  writeFileSync(path.join(dir, 'tail.txt'), rendered.slice(cut));
  const script = path.join(dir, 'watcher.js');
  writeFileSync(
    script,
    `const fs = require('fs');
const [dir, stamp] = process.argv.slice(2);
const crlf = (f) => fs.readFileSync(dir + '/' + f, 'utf8').replace(/\\n/g, '\\r\\n');
process.stdout.write(crlf('head.txt'));
setTimeout(() => {
  fs.writeFileSync(stamp, String(Date.now()));
  process.stdout.write(crlf('tail.txt'));
}, 300);
setInterval(() => undefined, 1 << 30);
`,
  );
  return script;
}

export async function runLongWorkBench(options: { runs?: number; buildSeconds?: number; deadlineMs?: number } = {}): Promise<LongWorkResult> {
  const runs = options.runs ?? 15;
  const buildSeconds = options.buildSeconds ?? (Number(process.env.TS_BENCH_BUILD_S) || 30);
  const deadlineMs = options.deadlineMs ?? 5000;
  await ensureVsCode();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tshep-bench-long-'));
  const win = await openShepherdWindow({ label: 'bench-long', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': false } });
  let short: McpSession | undefined;
  try {
    // Watcher: summary printed -> `watching` in the client's hands.
    const script = watcherScript(dir);
    const watcherOnce = async (i: number): Promise<number> => {
      const stamp = path.join(dir, `stamp-${i}`);
      const r = await win.run('terminal_run', { command: `node ${JSON.stringify(script)} ${JSON.stringify(dir)} ${JSON.stringify(stamp)}`, name: 'bench-watch', timeout: 30_000 });
      const returnedAt = Date.now();
      if (r.status !== 'watching') throw new Error(`bench watcher: ${r.status} ${r.message ?? ''}`);
      const stopped = await win.run('terminal_input', { name: 'bench-watch', text: '\u0003' });
      if (stopped.status !== 'completed') throw new Error(`bench watcher did not stop: ${stopped.status}`);
      return returnedAt - Number(readFileSync(stamp, 'utf8'));
    };
    await watcherOnce(-1); // warm: the terminal, the JIT
    const watcher: number[] = [];
    for (let i = 0; i < runs; i++) watcher.push(await watcherOnce(i));

    // A fast call: the deadline-aware path against an MCP task, interleaved.
    const client = win.mcp.client;
    const directOnce = async (): Promise<number> => {
      const t0 = performance.now();
      structured((await client.callTool({ name: 'terminal_run', arguments: { command: 'true', name: 'bench-fast' } }, CallToolResultSchema)) as CallToolResult);
      return performance.now() - t0;
    };
    const taskOnce = async (): Promise<number> => {
      const t0 = performance.now();
      for await (const message of client.experimental.tasks.callToolStream({ name: 'terminal_run', arguments: { command: 'true', name: 'bench-fast' } })) {
        if (message.type === 'error') throw message.error;
        if (message.type === 'result') structured(message.result as CallToolResult);
      }
      return performance.now() - t0;
    };
    await directOnce();
    await taskOnce();
    const direct: number[] = [];
    const task: number[] = [];
    for (let i = 0; i < runs * 2; i++) {
      direct.push(await directOnce());
      task.push(await taskOnce());
    }

    // A long build through a client that cuts calls at deadlineMs, following nextCall.
    short = await connectMcpServer({ workspace: win.workspace, env: { TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS: String(deadlineMs) } });
    const budgetMs = deadlineBudget(deadlineMs);
    const overshoot: number[] = [];
    let call: { tool: string; arguments: Record<string, unknown> } = { tool: 'terminal_run', arguments: { command: `sleep ${buildSeconds}; (exit 3)`, name: 'bench-build', timeout: 3_600_000 } };
    let calls = 0;
    let result: TerminalRunResult;
    for (;;) {
      const t0 = performance.now();
      result = structured((await short.client.callTool({ name: call.tool, arguments: call.arguments }, CallToolResultSchema, { timeout: deadlineMs })) as CallToolResult);
      calls++;
      if (result.status !== 'running' || !result.nextCall) break;
      overshoot.push(performance.now() - t0 - budgetMs);
      call = result.nextCall;
    }
    return {
      runs,
      watcherReturn: summarize(watcher),
      direct: summarize(direct),
      task: summarize(task),
      deadlineMs,
      budgetMs,
      overshoot: summarize(overshoot),
      build: { seconds: buildSeconds, calls, goal: Math.ceil((buildSeconds * 1000) / budgetMs), exitCode: result.exitCode },
    };
  } finally {
    await short?.close().catch(() => undefined);
    await win.stop(false);
    rmSync(dir, { recursive: true, force: true });
  }
}
