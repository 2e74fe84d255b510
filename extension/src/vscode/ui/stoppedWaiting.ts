/**
 * What a person sees when an agent stops waiting for a command (the Stop button in Copilot's chat,
 * or a client giving up): the command keeps running, so a notification says so once per command,
 * with the two ways to act on it: Stop It (Ctrl+C to its terminal) and Show Terminal.
 */
import * as vscode from 'vscode';
import type { Disposable } from '../../core/events';
import type { AbandonedRun } from '../../core/service/terminalService';
import type { ProcessUiDependencies } from './dependencies';
import { RUN_COMMAND_CLIENT } from './ids';
import { guarded, inBackground } from './userFeedback';

const STOP = 'Stop It';
const SHOW = 'Show Terminal';

export function announceStoppedWaiting(deps: ProcessUiDependencies): Disposable {
  const told = new Set<number>();
  return deps.terminals.onDidAbandonRun(
    guarded(deps, 'telling about a command no call waits on', (run: AbandonedRun) => {
      // Run a Command stops what its person cancels: nobody is left to tell.
      if (told.has(run.runId) || run.client === RUN_COMMAND_CLIENT) return;
      told.add(run.runId);
      const message =
        `The agent stopped waiting for \`${run.command}\`, which keeps running in terminal "${run.terminal}" ` +
        '(a cancelled call never stops a command; the agent sees how it ends on its next call).';
      inBackground(deps, 'the stopped-waiting notification', async () => {
        const choice = await vscode.window.showInformationMessage(message, STOP, SHOW);
        if (choice === STOP && !deps.terminals.interrupt(run.terminal)) {
          deps.logger.info(`ui: \`${run.command}\` had already ended in terminal "${run.terminal}"`);
        }
        if (choice === SHOW) deps.terminals.reveal(run.terminal);
      });
    }),
  );
}
