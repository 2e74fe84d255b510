/**
 * Asks the person through the MCP client (elicitation), for the extension's per-command safety
 * check: a form with one choice, the ways to run the command plus "Do Not Run", tied to the tool
 * call that asks (VS Code shows it in the chat, under that call). Accepting a run choice approves;
 * "Do Not Run", Decline and Cancel decline; no answer within the extension's bound, or an error,
 * is unanswered. Nothing runs unless approved.
 */
import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAskParams, ApprovalAskResult } from '../../common/src/protocol';
import type { ToolExtra } from './toolSupport';

const DO_NOT_RUN = 'decline';

/** The elicitation/create params for a question: message and a one-field form. */
export function elicitationRequest(question: ApprovalAskParams): ElicitRequestFormParams {
  const where = [question.shell, `terminal "${question.terminal}"`, ...(question.cwd ? [`in ${question.cwd}`] : [])].join(', ');
  const message = [
    `Run \`${question.command}\`? (${where})`,
    `Asked because ${question.reasons.join('; ')}.`,
    ...(question.floor ? ['This command always asks: no setting or earlier answer lets it run unasked.'] : []),
  ].join('\n\n');
  const options = [...question.choices.map((c) => ({ const: c.id, title: c.label })), { const: DO_NOT_RUN, title: 'Do Not Run' }];
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: { decision: { type: 'string', title: 'Run this command?', description: 'How to answer: run it once, allow it from now on, or do not run it.', oneOf: options } },
      required: ['decision'],
    },
  };
}

export async function askThroughElicitation(extra: ToolExtra, question: ApprovalAskParams, signal: AbortSignal): Promise<ApprovalAskResult> {
  try {
    const result = await extra.sendRequest({ method: 'elicitation/create', params: elicitationRequest(question) }, ElicitResultSchema, { signal, timeout: question.timeoutMs });
    if (result.action !== 'accept') return { answer: 'declined' };
    const choice = result.content?.decision;
    if (typeof choice === 'string' && question.choices.some((c) => c.id === choice)) return { answer: 'approved', choice };
    return { answer: 'declined' };
  } catch {
    return { answer: 'unanswered' };
  }
}
