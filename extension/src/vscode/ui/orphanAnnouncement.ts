/**
 * What the user hears at startup about processes an earlier window left running, per the
 * setting terminalShepherd.processes.orphanPolicy: report (a notification that names them, with
 * Show Processes and Kill Orphans), ask (a warning asking to kill them) or kill (killed at once,
 * then reported).
 */
import * as vscode from 'vscode';
import type { TrackedProcess } from '../../../../common/src/protocol';
import type { ProcessUiDependencies } from './dependencies';
import { countProcesses, flattenProcesses, listPhrases } from './format';
import { COMMANDS } from './ids';
import { ProcessActions } from './processActions';
import { errorText, showFailure } from './userFeedback';

const SHOW = 'Show Processes';
const KILL_ORPHANS = 'Kill Orphans';
const KILL = 'Kill';
const KEEP = 'Keep';

/**
 * Applies the policy. Resolves once the notification is up (report, ask) or the kill is done and
 * reported (kill); the buttons are handled after that, so activation never waits for a click.
 * Never rejects: a failure is logged and shown with "Show Log".
 */
export async function announceOrphans(deps: ProcessUiDependencies, orphans: TrackedProcess[]): Promise<void> {
  const all = flattenProcesses(orphans);
  if (all.length === 0) return;
  const actions = new ProcessActions(deps);
  const found = `${countProcesses(all.length)} that an earlier window left running ${all.length === 1 ? 'is' : 'are'} still alive: ${listPhrases(all)}.`;
  try {
    const policy = deps.orphanPolicy();
    deps.logger.info(`ui: ${all.length} orphan(s) found at startup, policy "${policy}"`);
    switch (policy) {
      case 'kill':
        await actions.killOrphans({ confirm: false });
        return;
      case 'ask':
        follow(deps, vscode.window.showWarningMessage(`${found} Kill them?`, KILL, KEEP), async (choice) => {
          if (choice === KILL) await actions.killOrphans({ confirm: false }); // the question was the confirmation
          else deps.logger.info('ui: the user kept the orphans');
        });
        return;
      case 'report':
      default:
        follow(deps, vscode.window.showInformationMessage(found, SHOW, KILL_ORPHANS), async (choice) => {
          // A report is no question: Kill Orphans still confirms, listing everything.
          if (choice === SHOW) await vscode.commands.executeCommand(COMMANDS.showProcesses);
          else if (choice === KILL_ORPHANS) await actions.killOrphans({ confirm: true });
        });
        return;
    }
  } catch (error) {
    deps.logger.error('ui: handling the orphans found at startup failed', error);
    void showFailure(deps, `Could not handle the orphaned processes: ${errorText(error)}`);
  }
}

/** Handles a notification's button when it is clicked, without holding up the caller. */
function follow(deps: ProcessUiDependencies, shown: Thenable<string | undefined>, onChoice: (choice: string | undefined) => Promise<void>): void {
  Promise.resolve(shown)
    .then(onChoice)
    .catch((error: unknown) => {
      deps.logger.error('ui: acting on the orphan notification failed', error);
      void showFailure(deps, `Could not act on the orphaned processes: ${errorText(error)}`);
    });
}
