/**
 * Running a Terminal Shepherd command in the real window the way a person answers it: the command
 * runs in the extension host while its modal dialog is answered in the page with the button a
 * person would click (Connect an MCP Client's "Write" for a file outside the workspace).
 */
import type { ShepherdWindow } from './shepherdE2e';

export interface CommandRun {
  /** The buttons clicked, in order. */
  readonly clicked: string[];
}

/** executeCommand(id, args) in the extension host; each modal dialog is answered with the first button matching `answer`. */
export async function runAnsweringDialogs(win: ShepherdWindow, id: string, args: unknown, answer: RegExp, timeoutMs = 60_000): Promise<CommandRun> {
  let settled = false;
  const done = win.vscode.driver
    .evaluate(`await vscode.commands.executeCommand(${JSON.stringify(id)}, ${JSON.stringify(args)})`, { timeoutMs })
    .finally(() => (settled = true));
  const clicked: string[] = [];
  const button = win.vscode.page.locator('.monaco-dialog-box .monaco-button', { hasText: answer }).first();
  while (!settled) {
    let label: string;
    try {
      label = (await button.innerText({ timeout: 200 })).trim();
    } catch {
      continue; // no dialog right now
    }
    try {
      await button.click({ timeout: 10_000 });
      clicked.push(label);
    } catch {
      // On a busy machine the click can land and the dialog close before the click call returns:
      // then it was answered (the caller checks what the answer did).
      if ((await button.count()) === 0) clicked.push(label);
    }
  }
  await done;
  return { clicked };
}
