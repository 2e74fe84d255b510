/**
 * Asks the person through the MCP client that made the call, when it declared elicitation: the
 * question goes to the MCP server over the bridge (approval/ask), which asks its client (VS Code
 * shows it in the chat). A question that cannot be sent, or an answer that never comes, counts as
 * unanswered: nothing runs. The same way, a question of its own kind: what to do about a run
 * waiting for a secret (focus the terminal, cancel the command).
 */
import type { ApprovalAnswer, ApprovalPort } from '../core/checks/commandCheck';
import { SECRET_CHOICES, type SecretAnswer, type SecretAsker } from '../core/service/secretQuestion';
import type { RequestContext } from './bridgeServer';

export function elicitationApprover(elicit: NonNullable<RequestContext['elicit']>, timeoutMs: number): ApprovalPort {
  return {
    via: 'elicitation',
    async ask(question, signal): Promise<ApprovalAnswer> {
      const { command, terminal, shell, cwd, reasons, choices, floor } = question;
      const result = await elicit({ command, terminal, shell, ...(cwd !== undefined ? { cwd } : {}), reasons: [...reasons], choices: [...choices], floor, timeoutMs }, signal);
      if (result.answer === 'approved' && result.choice !== undefined && choices.some((c) => c.id === result.choice)) return { kind: 'approved', choice: result.choice };
      return { kind: result.answer === 'declined' ? 'declined' : 'unanswered' };
    },
  };
}

export function elicitationSecretAsker(elicit: NonNullable<RequestContext['elicit']>, timeoutMs: number): SecretAsker {
  return {
    async ask({ command, terminal, prompt }, signal): Promise<SecretAnswer> {
      const result = await elicit({ kind: 'secretPrompt', command, terminal, prompt, choices: SECRET_CHOICES.map((c) => ({ ...c })), timeoutMs }, signal);
      if (result.answer === 'approved') return SECRET_CHOICES.find((c) => c.id === result.choice)?.id ?? 'declined';
      return result.answer;
    },
  };
}
