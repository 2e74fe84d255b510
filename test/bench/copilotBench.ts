/**
 * Side by side in one window, the way Copilot agent mode calls them: VS Code's own run_in_terminal
 * and terminal_run, both invoked through vscode.lm.invokeTool from the same chat request (the
 * scripted agent of test/support/scriptedChat), interleaved call by call, for the same commands.
 * Confirmations are clicked the same way for both (their primary button, as a new user would: on a
 * fresh profile run_in_terminal offers "Allow" for each command, an MCP tool "Allow in this
 * Session") and counted. Round trips are measured in the extension host around invokeTool; the
 * time "after approval" starts at the click, so neither VS Code's confirmation nor a robot's
 * reaction weighs on the ratio. What each returned is read from its result (toolResults.ts).
 * A third tool is called the same way in the same rounds: the scripted chat's floor tool
 * (test/support/scriptedChat/floorTool.js), a bare `executeCommand` on terminal_run's own terminal
 * to VS Code's end event, in the extension host, nothing else: what the shell integration API
 * gives any tool through this path. Called without a command it answers at once: the cost of a
 * tool call itself, which no tool here can go under.
 */
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { ChatSession, scriptedChatLaunch, type ToolCall } from '../support/chatSession';
import { repoRoot } from '../support/mcpClient';
import { E2E_SETTINGS, makeWorkspace } from '../support/shepherdE2e';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';
import { summarize, type Stats } from './stats';
import { COPILOT_COMMANDS, readResult, type OutputShape, type ToolName } from './toolResults';

export interface SideBySideTool {
  /** Round trip as the user waits, confirmations included (ms). */
  readonly roundTrip: Stats;
  /** From the approval to the result: the round trip without the confirmation (ms). */
  readonly afterApproval: Stats;
  readonly calls: number;
  readonly confirmations: number;
  /** Results that carry the exit code, and that it is the right one. */
  readonly exitCodes: { readonly present: number; readonly right: number };
  /** Output shapes seen, with counts. */
  readonly output: Partial<Record<OutputShape, number>>;
  /** Results that point to a file with the whole output. */
  readonly fullOutputFiles: number;
  /** Calls that failed outright (the tool threw or answered an error). */
  readonly failures: string[];
  /** terminal_run: the result's own durationMs (typed to completed). */
  readonly durationMs?: Stats;
}

/** The floor tool's name (test/support/scriptedChat/floorTool.js). */
const FLOOR_TOOL = 'bench_terminal_floor';

export interface CopilotBenchResult {
  readonly runs: number;
  readonly commands: {
    readonly label: string;
    readonly tools: Record<ToolName, SideBySideTool>;
    /** The floor tool's round trips (nothing asks for it). */
    readonly floor: Stats;
  }[];
  /** A tool call that does nothing (the floor tool without a command), round trips. */
  readonly toolCall: Stats;
  readonly clicks: Record<ToolName, { readonly confirmations: number; readonly calls: number; readonly buttons: string[] }>;
  /** The chat request's own duration (ms). */
  readonly sessionMs: number;
}

/** Answers every question of the per-command check, while one chat request runs each command once, with its session choice. */
async function primeAllows(vsc: VsCode, chat: ChatSession): Promise<void> {
  let done = false;
  const answering = (async () => {
    const session = vsc.page.locator('.interactive-session');
    while (!done) {
      try {
        await session.getByText('Ctrl+Enter to submit').last().waitFor({ state: 'visible', timeout: 500 });
        await session.getByText(/^Allow `.+` in this Session$/).last().click({ timeout: 5000 });
        await vsc.page.keyboard.press('Control+Enter');
      } catch {
        // none showing right now
      }
    }
  })();
  try {
    await chat.play('Benchmark: first run of each command.', [...COPILOT_COMMANDS.map((c) => ({ calls: [{ tool: 'terminal_run', input: { command: c.command, name: 'bench' } }] })), { text: 'Done.' }], { timeoutMs: 300_000 });
  } finally {
    done = true;
    await answering;
  }
}

/** From the approval (the click on the call's confirmation; the call itself when nothing was asked) to the result (ms). */
export function afterApproval(call: ToolCall): number {
  const approval = call.confirmations.find((c) => c.kind === 'approve' && c.clickedAt !== undefined);
  return approval ? call.startedAt + call.ms - approval.clickedAt! : call.ms;
}

export async function runCopilotBench(options: { runs?: number } = {}): Promise<CopilotBenchResult> {
  const runs = options.runs ?? 10;
  await ensureVsCode();
  // Both tools' terminals stay hidden (run_in_terminal shows its output in the chat): a visible
  // terminal costs the workbench's rendering on every command.
  const vsc = await launchVsCode({
    workspace: makeWorkspace(),
    // The per-command check on (its default); VS Code's own tool decides by its default rules too.
    settings: { ...E2E_SETTINGS, 'terminalShepherd.safety.perCommandCheck': true, 'terminalShepherd.log.level': 'info', 'terminalShepherd.terminal.revealOnCreate': false },
    label: 'bench-copilot',
    ...scriptedChatLaunch([repoRoot]),
  });
  try {
    const chat = new ChatSession(vsc);
    await chat.ready();
    const call = (tool: ToolName, command: string) => ({
      calls: [{ tool, input: tool === 'terminal_run' ? { command, name: 'bench' } : { command, explanation: 'Benchmark', goal: 'Benchmark', mode: 'sync' } }],
    });
    const floorCall = (command?: string) => ({ calls: [{ tool: FLOOR_TOOL, input: command === undefined ? {} : { command, terminal: 'bench' } }] });
    // Interleaved call by call; which tool goes first turns by round.
    const tools = ['run_in_terminal', 'terminal_run', FLOOR_TOOL] as const;
    const turns = [];
    for (let round = 0; round < runs; round++) {
      const order = tools.map((_, i) => tools[(i + round) % tools.length]!);
      for (const c of COPILOT_COMMANDS) {
        turns.push(floorCall());
        for (const tool of order) turns.push(tool === FLOOR_TOOL ? floorCall(c.command) : call(tool, c.command));
      }
    }
    // A first request asks the check's question once per command (`true`, `seq` are in no default
    // rule) and answers it as a person would, "Allow `true …` in this Session": the measured calls pass on it.
    await primeAllows(vsc, chat);
    const t0 = Date.now();
    const played = await chat.play(
      'Benchmark: run these commands with both terminal tools.',
      [...turns.map(({ calls }) => ({ calls })), { text: 'Done.' }],
      { timeoutMs: 60 * 60_000, pollMs: 50 },
    );
    const sessionMs = Date.now() - t0;
    if (played.notOffered.length > 0) throw new Error(`the model was not offered: ${played.notOffered.join(', ')}`);
    if (played.calls.length !== turns.length) throw new Error(`${played.calls.length} calls made, ${turns.length} scripted`);

    const byTool = (tool: ToolName | typeof FLOOR_TOOL) => played.calls.filter((c) => (tool === 'terminal_run' ? c.tool.endsWith('_terminal_run') : c.tool === tool));
    const commands = COPILOT_COMMANDS.map((expected) => {
      const tools = {} as Record<ToolName, SideBySideTool>;
      for (const tool of ['run_in_terminal', 'terminal_run'] as const) {
        const calls = byTool(tool).filter((c) => c.input.command === expected.command);
        const output: Partial<Record<OutputShape, number>> = {};
        const failures: string[] = [];
        let present = 0;
        let right = 0;
        let fullOutputFiles = 0;
        const durations: number[] = [];
        for (const c of calls) {
          if (c.error !== undefined) {
            failures.push(c.error);
            continue;
          }
          const read = readResult(tool, c.text ?? '', expected);
          if (read.error) failures.push(read.error);
          output[read.shape] = (output[read.shape] ?? 0) + 1;
          if (read.fullOutputFile) fullOutputFiles++;
          if (read.durationMs !== undefined) durations.push(read.durationMs);
          if (read.exitCode !== undefined) {
            present++;
            if (read.exitCode === expected.exitCode) right++;
          }
        }
        tools[tool] = {
          roundTrip: summarize(calls.map((c) => c.ms)),
          afterApproval: summarize(calls.map(afterApproval)),
          calls: calls.length,
          confirmations: calls.reduce((n, c) => n + c.confirmations.length, 0),
          exitCodes: { present, right },
          output,
          fullOutputFiles,
          failures,
          ...(durations.length > 0 ? { durationMs: summarize(durations) } : {}),
        };
      }
      const floorCalls = byTool(FLOOR_TOOL).filter((c) => c.input.command === expected.command);
      const floorFailed = floorCalls.find((c) => c.error !== undefined || !c.text?.startsWith(`exit code ${expected.exitCode};`));
      if (floorFailed) throw new Error(`the floor tool's run of ${expected.command} failed: ${floorFailed.error ?? floorFailed.text}`);
      return { label: expected.label, tools, floor: summarize(floorCalls.map(afterApproval)) };
    });
    const clicks = {} as CopilotBenchResult['clicks'];
    for (const tool of ['run_in_terminal', 'terminal_run'] as const) {
      const calls = byTool(tool);
      const confirmations = calls.flatMap((c) => c.confirmations);
      clicks[tool] = { confirmations: confirmations.length, calls: calls.length, buttons: [...new Set(confirmations.flatMap((c) => (c.clicked ? [c.clicked] : [])))] };
    }
    const toolCall = summarize(byTool(FLOOR_TOOL).filter((c) => c.input.command === undefined).map(afterApproval));
    return { runs, commands, clicks, toolCall, sessionMs };
  } finally {
    await vsc.stop();
  }
}
