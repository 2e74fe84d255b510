/**
 * Side by side in VS Code's agent host Copilot harness (the real VS Code 1.139, offline against the
 * scripted Copilot API): the harness's own shell tool `bash` (the Copilot SDK's, 1.139's default;
 * `chat.agentHost.customTerminalTool.enabled` is off) and terminal_run (the extension's provider,
 * through VS Code's MCP gateway), for the same commands (toolResults.ts), interleaved call by call,
 * one turn per round in one chat, which tool goes first alternating by round; each turn is played
 * by test/support/agentHostChat.ts's playHarnessTurn, as the e2e suite's (agentHostHarness.test.ts).
 * One chat, not one per round: VS Code 1.139 can lose a new chat's first turn (see playHarnessTurn),
 * and a person keeps working in one chat. The harness's confirmations are clicked as a person
 * clicks them (primary button: "Allow in this Session" covers the rest of the chat for an MCP
 * tool) and counted; `chat.tools.global.autoApprove` does not reach this agent host. The round
 * trip is timed at the model: from its reply with the call to the request carrying the result,
 * which is what an agent waits; "after approval" starts as the click on the call's confirmation
 * begins instead, when one was shown. What each returned is read from the text the model got.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { agentHostWindow, playHarnessTurn, PROVIDER_TOOL_PREFIX } from '../support/agentHostChat';
import { repoRoot } from '../support/mcpClient';
import { ClientHome } from '../support/realClients';
import { startScriptedCopilotApi } from '../support/scriptedCopilotApi';
import type { ScriptStep } from '../support/scriptedModel';
import { openShepherdWindow } from '../support/shepherdE2e';
import type { SideBySideTool } from './copilotBench';
import { summarize } from './stats';
import { COPILOT_COMMANDS, readResult, type OutputShape } from './toolResults';

export type HarnessTool = 'bash' | 'terminal_run';

export interface AgentHostBenchResult {
  readonly runs: number;
  readonly commands: { readonly label: string; readonly tools: Record<HarnessTool, SideBySideTool> }[];
  /** The harness's confirmations, clicked (primary button), by title. */
  readonly clicks: readonly string[];
  /** Window reloads the rounds took because VS Code's window lost a turn (playHarnessTurn). */
  readonly lostTurns: number;
  /** All rounds, their chats included (ms). */
  readonly sessionMs: number;
}

/** Each tool as the harness offers it, and its input for `command`. */
const CALLS: Record<HarnessTool, { name: string; input: (command: string) => Record<string, unknown> }> = {
  bash: { name: 'bash', input: (command) => ({ command, description: 'Benchmark', mode: 'sync', initial_wait: 60 }) },
  terminal_run: { name: `${PROVIDER_TOOL_PREFIX}terminal_run`, input: (command) => ({ command, name: 'bench' }) },
};

/** The structured content the harness forwards after the text content (the text alone when there is none). */
const structuredPart = (text: string): string => text.slice(text.lastIndexOf('{"status"') >= 0 ? text.lastIndexOf('{"status"') : 0);

/** A round's bound: ten calls, two of them 4 s, and the confirmations of a new session. */
const ROUND_TIMEOUT_MS = 120_000;

export async function runAgentHostBench(options: { runs?: number } = {}): Promise<AgentHostBenchResult> {
  const runs = options.runs ?? 4;
  await ensureVsCode();
  const records = path.join(repoRoot, 'test-results', 'bench-agent-host');
  mkdirSync(records, { recursive: true });
  const home = new ClientHome();
  const api = await startScriptedCopilotApi();
  const win = await openShepherdWindow(
    agentHostWindow({ home: home.dir, api, label: 'bench-agent-host', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': false } }),
  );
  const done: { tool: HarnessTool; command: string; ms: number; afterApproval: number; confirmations: number; text: string; isError: boolean }[] = [];
  const clicks: string[] = [];
  let lostTurns = 0;
  let failed = true;
  try {
    const t0 = Date.now();
    for (let round = 0; round < runs; round++) {
      const order: HarnessTool[] = round % 2 === 0 ? ['bash', 'terminal_run'] : ['terminal_run', 'bash'];
      const steps: ScriptStep[] = COPILOT_COMMANDS.flatMap((c) => order.map((tool) => ({ call: { tool: CALLS[tool].name, input: CALLS[tool].input(c.command) } })));
      const turn = await playHarnessTurn(win, api, {
        prompt: `Benchmark round ${round + 1}`,
        steps: [...steps, { text: 'Done.' }],
        timeoutMs: ROUND_TIMEOUT_MS,
        record: path.join(records, `round-${round + 1}`),
        newSession: round === 0,
      });
      if (turn.model.exchanges().length < steps.length) throw new Error(`round ${round + 1}: the harness did not offer the tools: ${turn.offered.join(', ')}`);
      clicks.push(...turn.confirmations);
      lostTurns += turn.lost;
      for (const e of turn.model.exchanges()) {
        if (!e.result || e.answeredAt === undefined) continue;
        // A click between the call and its result was this call's confirmation (calls run one at a time).
        const approvals = turn.clickedAt.filter((at) => at >= e.calledAt && at <= e.answeredAt!);
        const approvedAt = Math.max(e.calledAt, ...approvals);
        done.push({ tool: e.tool === 'bash' ? 'bash' : 'terminal_run', command: String(e.input.command), ms: e.answeredAt - e.calledAt, afterApproval: e.answeredAt - approvedAt, confirmations: approvals.length, text: e.result.text, isError: e.result.isError });
      }
    }
    const sessionMs = Date.now() - t0;
    const commands = COPILOT_COMMANDS.map((expected) => {
      const tools = {} as Record<HarnessTool, SideBySideTool>;
      for (const tool of ['bash', 'terminal_run'] as const) {
        const calls = done.filter((c) => c.tool === tool && c.command === expected.command);
        const output: Partial<Record<OutputShape, number>> = {};
        const failures: string[] = [];
        let present = 0;
        let right = 0;
        let fullOutputFiles = 0;
        const durations: number[] = [];
        for (const c of calls) {
          // bash answers prose, read as run_in_terminal's is; terminal_run's structured content follows
          // its text, unless the harness moved the result to a file (over 8 KiB) and gave the model
          // a 500-character preview of it: read as prose then, as the model reads it.
          const prose = tool === 'bash' || !c.text.includes('{"status"');
          const read = prose ? readResult('run_in_terminal', c.text, expected) : readResult('terminal_run', structuredPart(c.text), expected);
          if (read.durationMs !== undefined) durations.push(read.durationMs);
          if (read.error || c.isError) failures.push(read.error ?? c.text.slice(0, 200));
          output[read.shape] = (output[read.shape] ?? 0) + 1;
          if (read.fullOutputFile) fullOutputFiles++;
          if (read.exitCode !== undefined) {
            present++;
            if (read.exitCode === expected.exitCode) right++;
          }
        }
        tools[tool] = {
          roundTrip: summarize(calls.map((c) => c.ms)),
          afterApproval: summarize(calls.map((c) => c.afterApproval)),
          calls: calls.length,
          confirmations: calls.reduce((n, c) => n + c.confirmations, 0),
          exitCodes: { present, right },
          output,
          fullOutputFiles,
          failures,
          ...(durations.length > 0 ? { durationMs: summarize(durations) } : {}),
        };
      }
      return { label: expected.label, tools };
    });
    failed = false;
    return { runs, commands, clicks, lostTurns, sessionMs };
  } finally {
    await win.stop(failed);
    await api.close();
    home.remove();
  }
}
