/**
 * A tool's CallToolResult: its result as structured content plus a text rendering, or an expected
 * failure as an isError result that says what to do next; either way with the ledger reminder.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BridgeErrorCode } from '../../../../common/src/protocol';
import { BridgeError } from '../../bridge/bridgeClient';
import { renderReminder, toReminder, type LedgerReminder } from './ledgerReminder';
import type { ResultBudget } from '../../bridge/clientResultBudgets';
import { forwardedBytes } from './resultBudget';
import type { ToolContext } from './toolContext';

/** The ledger as it stands (as of the call's answer, or asked now), or undefined when the window cannot be asked (never fails a tool). */
async function currentReminder(context: ToolContext, since: number): Promise<LedgerReminder | undefined> {
  try {
    return toReminder(await context.bridge.ledgerSummary(since));
  } catch (error) {
    context.logger.debug('no ledger summary for this response', error);
    return undefined;
  }
}

function withReminderText(text: string, reminder: LedgerReminder | undefined): string {
  const rendered = reminder ? renderReminder(reminder) : '';
  return rendered ? `${text}\n\n${rendered}` : text;
}

/**
 * Runs a tool's work: its result as structured content plus text, or its failure as isError;
 * either way followed by the ledger reminder, so the agent sees what it left running. `fit`, when
 * given, cuts a result whose whole is past its client's byte budget, for a client that has one
 * (resultBudget.ts).
 */
export async function toolResult<T extends Record<string, unknown>>(
  context: ToolContext,
  work: () => Promise<T>,
  render: (result: T) => string,
  fit?: (result: T, excessBytes: number, budget: ResultBudget) => T,
): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const result = await work();
    const worked = performance.now();
    const reminder = await currentReminder(context, started);
    const reminded = performance.now();
    const build = (r: T): CallToolResult => {
      // A call that asked for its stage timings (a benchmark) gets this server's share too.
      const timings = isTimings(r.timings) ? { timings: { ...r.timings, bridge: worked - started - (r.timings.total ?? 0), ledgerReminder: reminded - worked, mcpServer: performance.now() - reminded } } : {};
      return {
        content: [{ type: 'text', text: withReminderText(render(r), reminder) }],
        structuredContent: { ...r, ...(reminder ? { ledger: reminder } : {}), ...timings },
      };
    };
    const built = build(result);
    const budget = fit && context.client().resultBudget;
    const excess = budget ? forwardedBytes(built) - budget.resultBytes : 0;
    return fit && budget && excess > 0 ? build(fit(result, excess, budget)) : built;
  } catch (error) {
    const message = failureMessage(error, context);
    // Without a window there is no ledger to ask.
    const reachable = !(error instanceof BridgeError && (error.code === BridgeErrorCode.Unreachable || error.code === BridgeErrorCode.ConnectionLost));
    const reminder = reachable ? await currentReminder(context, started) : undefined;
    return { isError: true, content: [{ type: 'text', text: withReminderText(message, reminder) }] };
  }
}

const isTimings = (value: unknown): value is Record<string, number> => typeof value === 'object' && value !== null;

/** Expected failures say what happened and what to do; anything else is logged and reported plainly. */
function failureMessage(error: unknown, context: ToolContext): string {
  if (error instanceof BridgeError) {
    return `${error.codeName}: ${error.message}`;
  }
  context.logger.error('tool failed unexpectedly', error);
  return `Internal error in the Terminal Shepherd MCP server: ${error instanceof Error ? error.message : String(error)}`;
}
