/**
 * Asks the person through the MCP client (elicitation), for the extension's per-command safety
 * check: a form with one choice, the ways to run the command plus "Do Not Run" (the default, so an
 * answer given without looking runs nothing), tied to the tool call that asks (VS Code shows it in
 * the chat, under that call). The choices are their labels (a client shows an enum's values as
 * they are). Accepting a run choice approves; "Do Not Run", Decline and Cancel decline; no answer
 * within the extension's bound, or an error, is unanswered. Nothing runs unless approved.
 */
import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAskParams, ApprovalAskResult } from '../../../../common/src/protocol';
import type { ToolExtra } from './toolContext';

export const DO_NOT_RUN = 'Do Not Run';

/** The elicitation/create params for a question: message and a one-field form. */
export function elicitationRequest(question: ApprovalAskParams): ElicitRequestFormParams {
  const where = [question.shell, `terminal "${question.terminal}"`, ...(question.cwd ? [`in ${question.cwd}`] : [])].join(', ');
  const message = [
    `Run \`${question.command}\`? (${where})`,
    `Asked because ${question.reasons.join('; ')}.`,
    ...(question.floor ? ['This command always asks: no setting or earlier answer lets it run unasked.'] : []),
  ].join('\n\n');
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Run this command?',
          description: 'Run it once, allow it from now on, or do not run it.',
          enum: [...question.choices.map((c) => c.label), DO_NOT_RUN],
          default: DO_NOT_RUN,
        },
      },
      required: ['decision'],
    },
  };
}

export async function askThroughElicitation(extra: ToolExtra, question: ApprovalAskParams, signal: AbortSignal): Promise<ApprovalAskResult> {
  try {
    const result = await extra.sendRequest({ method: 'elicitation/create', params: elicitationRequest(question) }, ElicitResultSchema, { signal, timeout: question.timeoutMs });
    if (result.action !== 'accept') return { answer: 'declined' };
    const choice = question.choices.find((c) => c.label === result.content?.decision);
    if (choice) return { answer: 'approved', choice: choice.id };
    return { answer: 'declined' };
  } catch {
    return { answer: 'unanswered' };
  }
}
