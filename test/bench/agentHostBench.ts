/**
 * Side by side in VS Code's agent host Copilot harness (the real VS Code 1.139, offline against the
 * scripted Copilot API): the harness's own shell tool `bash` (the Copilot SDK's, 1.139's default;
 * `chat.agentHost.customTerminalTool.enabled` is off) and terminal_run (the extension's provider,
 * through VS Code's MCP gateway), for the same commands (toolResults.ts), interleaved call by call,
 * one chat per round, which tool goes first alternating by round. The harness's confirmations are
 * clicked as a person clicks them (primary button: "Allow in this Session" covers the rest of the
 * chat for an MCP tool) and counted; `chat.tools.global.autoApprove` does not reach this agent host.
 * The round trip is timed at the model: from its reply with the call to the request carrying the
 * result, which is what an agent waits. What each returned is read from the text the model got.
 */
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { agentHostWindow, allowHarnessConfirmation, sendHarnessPrompt } from '../support/agentHostChat';
import { repoRoot } from '../support/mcpClient';
import { ClientHome } from '../support/realClients';
import { startScriptedCopilotApi } from '../support/scriptedCopilotApi';
import { startScriptedModel, type ScriptStep } from '../support/scriptedModel';
import { openShepherdWindow, waitFor } from '../support/shepherdE2e';
import type { SideBySideTool } from './copilotBench';
import { summarize } from './stats';
import { COPILOT_COMMANDS, readResult, type OutputShape } from './toolResults';

export type HarnessTool = 'bash' | 'terminal_run';

export interface AgentHostBenchResult {
  readonly runs: number;
  readonly commands: { readonly label: string; readonly tools: Record<HarnessTool, SideBySideTool> }[];
  /** The harness's confirmations, clicked (primary button). */
  readonly clicks: number;
  /** All rounds, their chats included (ms). */
  readonly sessionMs: number;
}

const input = (tool: HarnessTool, command: string): Record<string, unknown> =>
  tool === 'bash' ? { command, description: 'Benchmark', mode: 'sync', initial_wait: 60 } : { command, name: 'bench' };

/** The structured content the harness forwards after the text content (the text alone when there is none). */
const structuredPart = (text: string): string => text.slice(text.lastIndexOf('{"status"') >= 0 ? text.lastIndexOf('{"status"') : 0);

export async function runAgentHostBench(options: { runs?: number } = {}): Promise<AgentHostBenchResult> {
  const runs = options.runs ?? 5;
  await ensureVsCode();
  const home = new ClientHome();
  const api = await startScriptedCopilotApi();
  const win = await openShepherdWindow(
    agentHostWindow({ home: home.dir, api, label: 'bench-agent-host', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': false } }),
  );
  const done: { tool: HarnessTool; command: string; ms: number; text: string; isError: boolean }[] = [];
  let clicks = 0;
  try {
    const t0 = Date.now();
    for (let round = 0; round < runs; round++) {
      const order: HarnessTool[] = round % 2 === 0 ? ['bash', 'terminal_run'] : ['terminal_run', 'bash'];
      const steps: ScriptStep[] = COPILOT_COMMANDS.flatMap((c) => order.map((tool) => ({ call: { tool, input: input(tool, c.command) } })));
      const model = await startScriptedModel({ steps: [...steps, { text: 'Done.' }] });
      api.use(model);
      try {
        await sendHarnessPrompt(win.vscode, `Benchmark round ${round + 1}`);
        await waitFor(`benchmark round ${round + 1}`, 10 * 60_000, async () => {
          if ((await allowHarnessConfirmation(win.vscode.page)) !== undefined) clicks++;
          if (model.requests.length > 0 && model.requests.every((r) => !r.scripted)) throw new Error(`the harness did not offer the tools: ${model.requests.at(-1)?.tools.join(', ')}`);
          return model.exchanges().filter((e) => e.result).length >= steps.length ? true : undefined;
        }).catch(async (error: unknown) => {
          await win.vscode.screenshot(path.join(repoRoot, 'test-results', `bench-agent-host-round-${round + 1}.png`)).catch(() => undefined);
          throw error;
        });
        for (const e of model.exchanges()) {
          if (!e.result || e.answeredAt === undefined) continue;
          done.push({ tool: e.tool === 'bash' ? 'bash' : 'terminal_run', command: String(e.input.command), ms: e.answeredAt - e.calledAt, text: e.result.text, isError: e.result.isError });
        }
        await new Promise((resolve) => setTimeout(resolve, 500)); // the turn's closing answer goes out
      } finally {
        await model.close();
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
        for (const c of calls) {
          // bash answers prose, read as run_in_terminal's is; terminal_run's structured content follows its text.
          const read = tool === 'bash' ? readResult('run_in_terminal', c.text, expected) : readResult('terminal_run', structuredPart(c.text), expected);
          if (read.error || c.isError) failures.push(read.error ?? c.text.slice(0, 200));
          output[read.shape] = (output[read.shape] ?? 0) + 1;
          if (read.fullOutputFile) fullOutputFiles++;
          if (read.exitCode !== undefined) {
            present++;
            if (read.exitCode === expected.exitCode) right++;
          }
        }
        const roundTrip = summarize(calls.map((c) => c.ms));
        tools[tool] = { roundTrip, afterApproval: roundTrip, calls: calls.length, confirmations: 0, exitCodes: { present, right }, output, fullOutputFiles, failures };
      }
      return { label: expected.label, tools };
    });
    return { runs, commands, clicks, sessionMs };
  } finally {
    await win.stop(false);
    await api.close();
    home.remove();
  }
}
