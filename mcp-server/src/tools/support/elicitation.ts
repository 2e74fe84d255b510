/**
 * Asks the person through the MCP client (elicitation), for the extension's per-command safety
 * check: a form with one choice, the ways to run the command plus "Do Not Run" (the default, so an
 * answer given without looking runs nothing), tied to the tool call that asks (VS Code shows it in
 * the chat, under that call). The choices are their labels (a client shows an enum's values as
 * they are). Accepting a run choice approves; "Do Not Run", Decline and Cancel decline; no answer
 * within the extension's bound, or an error, is unanswered. Nothing runs unless approved.
 * A question of its own kind: a run waits for a secret, and the same form offers to focus its
 * terminal or cancel the command (sent beside the result, so the call does not wait for it).
 */
import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAskParams, ApprovalAskResult } from '../../../../common/src/protocol';
import type { ToolExtra } from './toolContext';

export const DO_NOT_RUN = 'Do Not Run';

/** The elicitation/create params for a question: message and a one-field form. */
export function elicitationRequest(question: ApprovalAskParams): ElicitRequestFormParams {
  return question.kind === 'secretPrompt' ? secretPromptRequest(question) : commandRequest(question);
}

function commandRequest(question: Exclude<ApprovalAskParams, { kind: 'secretPrompt' }>): ElicitRequestFormParams {
  const where = [question.shell, `terminal "${question.terminal}"`, ...(question.cwd ? [`in ${question.cwd}`] : [])].join(', ');
  const message = [
    `Run \`${question.command}\`? (${where})`,
    `Asked because ${question.reasons.join('; ')}.`,
    ...(question.floor ? ['This command always asks: no setting or earlier answer lets it run unasked.'] : []),
  ].join('\n\n');
  return oneChoiceForm(message, 'Run this command?', 'Run it once, allow it from now on, or do not run it.', [...question.choices.map((c) => c.label), DO_NOT_RUN], DO_NOT_RUN);
}

/** A prompt for a secret: the person types it in the terminal (never here); the form only focuses the terminal or cancels the command. */
function secretPromptRequest(question: Extract<ApprovalAskParams, { kind: 'secretPrompt' }>): ElicitRequestFormParams {
  const message = [
    `Terminal "${question.terminal}" is waiting for sensitive input (${question.prompt.trim()}) for \`${question.command}\`.`,
    'Type it in the terminal yourself: secrets must not be sent through chat, so the agent will not type it.',
  ].join('\n\n');
  const labels = question.choices.map((c) => c.label);
  return oneChoiceForm(message, 'The command waits for a secret', 'Do not type the secret here.', labels, labels[0]!);
}

function oneChoiceForm(message: string, title: string, description: string, labels: string[], defaultLabel: string): ElicitRequestFormParams {
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: { decision: { type: 'string', title, description, enum: labels, default: defaultLabel } },
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
