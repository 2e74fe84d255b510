/**
 * What a person sees when a command an agent runs asks for a secret (a sudo password, an ssh
 * passphrase, a token): the agent may not type it (terminal_input refuses), so the person is told
 * to type it in the terminal, with Focus Terminal and Cancel Command (Ctrl+C), once per prompt of
 * a run, as VS Code's own terminal tool does ("secrets must not be sent through chat"). A client
 * that declared elicitation asks in its own UI instead (core/service/secretQuestion.ts); this
 * notification is for every other client, and for a question that client could not take.
 */
import * as vscode from 'vscode';
import type { Disposable } from '../../core/events';
import type { SecretPrompt } from '../../core/service/secretQuestion';
import type { ProcessUiDependencies } from './dependencies';
import { guarded, inBackground } from './userFeedback';

const FOCUS = 'Focus Terminal';
const CANCEL = 'Cancel Command';

export function announceSecretPrompts(deps: ProcessUiDependencies): Disposable {
  const told = new Set<string>();
  return deps.terminals.onDidAskForSecret(
    guarded(deps, 'telling about a prompt for a secret', (asked: SecretPrompt) => {
      // The agent's calls may report the same prompt again while it waits: one notification.
      const key = `${asked.runId}\n${asked.prompt}`;
      if (told.has(key)) return;
      told.add(key);
      const message =
        `Terminal "${asked.terminal}" is waiting for sensitive input (${asked.prompt.trim()}) for \`${asked.command}\`. ` +
        'Focus the terminal to type it directly: secrets must not be sent through chat, so the agent will not type it.';
      inBackground(deps, 'the sensitive-input notification', async () => {
        const choice = await vscode.window.showWarningMessage(message, FOCUS, CANCEL);
        if (choice === FOCUS) deps.terminals.reveal(asked.terminal);
        if (choice === CANCEL && !deps.terminals.interrupt(asked.terminal)) {
          deps.logger.info(`ui: \`${asked.command}\` had already ended in terminal "${asked.terminal}"`);
        }
      });
    }),
  );
}
