/**
 * Asks the person through the MCP client that made the call, when it declared elicitation: the
 * question goes to the MCP server over the bridge (approval/ask), which asks its client (VS Code
 * shows it in the chat). A question that cannot be sent, or an answer that never comes, counts as
 * unanswered: nothing runs.
 */
import type { ApprovalAnswer, ApprovalPort } from '../core/checks/commandCheck';
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
