/**
 * The person's answer in the VS Code window, for clients that cannot ask through MCP elicitation:
 * a modal naming the command, where it would run and why it is asked, with "Run Once" and, when
 * the rules offer more (VS Code's choices: this sub-command or this exact line for the session,
 * the workspace or always; all commands for the session), "Allow…", which lists them. Dismissed
 * means declined. The wait is bounded by the caller (checkCall): a modal cannot be closed from
 * here, so after the bound a late click changes nothing; the list is closed.
 */
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../core/checks/commandCheck';

const MORE = 'Allow…';

export function modalApprover(): ApprovalPort {
  return {
    via: 'modal',
    async ask(question, signal): Promise<ApprovalAnswer> {
      const [runOnce, ...allows] = question.choices;
      const buttons = [runOnce?.label ?? 'Run', ...(allows.length > 0 ? [MORE] : [])];
      const title = question.floor ? `Run \`${question.command}\`? It always asks.` : `Run \`${question.command}\`?`;
      const clicked = await vscode.window.showWarningMessage(title, { modal: true, detail: describe(question) }, ...buttons);
      if (signal.aborted || clicked === undefined) return { kind: signal.aborted ? 'unanswered' : 'declined' };
      if (clicked !== MORE) return { kind: 'approved', choice: runOnce?.id ?? 'once' };
      const picked = await pick(question, allows, signal);
      return picked === undefined ? { kind: signal.aborted ? 'unanswered' : 'declined' } : { kind: 'approved', choice: picked };
    },
  };
}

/** The allows in a list (closed when the answer is no longer waited for); undefined when dismissed. */
function pick(question: ApprovalQuestion, choices: ApprovalQuestion['choices'], signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    quickPick.title = `Run \`${question.command}\` and allow…`;
    quickPick.placeholder = 'Choose what to allow (Escape: do not run)';
    quickPick.ignoreFocusOut = true;
    quickPick.items = choices.map((c) => ({ label: c.label, id: c.id }));
    let chosen: string | undefined;
    const close = (): void => quickPick.hide();
    signal.addEventListener('abort', close, { once: true });
    quickPick.onDidAccept(() => {
      chosen = quickPick.selectedItems[0]?.id;
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      signal.removeEventListener('abort', close);
      quickPick.dispose();
      resolve(chosen);
    });
    quickPick.show();
  });
}

function describe(question: ApprovalQuestion): string {
  return [
    `An agent asks Terminal Shepherd to run this in terminal "${question.terminal}" (${question.shell}${question.cwd ? `, in ${question.cwd}` : ''}).`,
    ...question.reasons.map((reason) => `Asked because ${reason}.`),
  ].join('\n');
}
