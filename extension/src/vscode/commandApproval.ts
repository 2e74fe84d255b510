/**
 * The person's answer when a check asks whether a command may run: a modal in the window, naming
 * the command, where it would run and why it is asked. Dismissed means declined. A modal cannot be
 * closed from here, so the wait for it is bounded: after the bound the question counts as
 * unanswered (nothing runs) and a late click changes nothing.
 */
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../core/checks/commandCheck';

const RUN = 'Run';
/** How long a question waits for the person before the command is refused as unanswered. */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

export function modalApprover(timeoutMs = ANSWER_TIMEOUT_MS): ApprovalPort {
  return {
    async ask(question: ApprovalQuestion): Promise<ApprovalAnswer> {
      let timer: NodeJS.Timeout | undefined;
      const unanswered = new Promise<ApprovalAnswer>((resolve) => {
        timer = setTimeout(() => resolve('unanswered'), timeoutMs);
      });
      const answered = Promise.resolve(
        vscode.window.showWarningMessage(`Run \`${question.command}\`?`, { modal: true, detail: describe(question) }, RUN),
      ).then(
        (choice): ApprovalAnswer => (choice === RUN ? 'approved' : 'declined'),
        (): ApprovalAnswer => 'unanswered',
      );
      try {
        return await Promise.race([answered, unanswered]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function describe(question: ApprovalQuestion): string {
  return [
    `An agent asks Terminal Shepherd to run this in terminal "${question.terminal}" (${question.shell}${question.cwd ? `, in ${question.cwd}` : ''}).`,
    ...question.reasons.map((reason) => `Asked because: ${reason}`),
  ].join('\n');
}
