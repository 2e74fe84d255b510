/**
 * What a VS Code user sees of the process ledger: the Show Processes pick, the Processes view,
 * the status bar item, the commands (Kill Orphans, Show Log, Open Ledger, and the view's row
 * actions), the orphan notification at startup, and the notice that an agent stopped waiting for
 * a command that keeps running. extension.ts wires it:
 *
 *   context.subscriptions.push(registerProcessUi(deps));
 *   void announceOrphans(deps, (await ledger.start()).orphans);
 */
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/events';
import { ChangeFeed } from './changeFeed';
import type { ProcessUiDependencies } from './dependencies';
import { CONTEXT_KEYS, COMMANDS } from './ids';
import { ProcessActions } from './processActions';
import { showProcessesPick } from './processesPick';
import { createProcessesView, type ProcessNode } from './processesView';
import { createStatusBar } from './statusBar';
import { announceSecretPrompts } from './secretPrompt';
import { announceStoppedWaiting } from './stoppedWaiting';
import { guarded, inBackground, userAction } from './userFeedback';

export type { ProcessUiDependencies } from './dependencies';
export { announceOrphans } from './orphanAnnouncement';

export function registerProcessUi(deps: ProcessUiDependencies): Disposable {
  const feed = new ChangeFeed({ sources: [deps.ledger.onDidChange, deps.terminals.onDidChange] });
  const actions = new ProcessActions(deps, () => feed.signal());
  const view = createProcessesView(deps, actions, feed);

  // Kill Orphans shows in the view title only while there are orphans.
  let hadOrphans: boolean | undefined;
  const updateContext = guarded(deps, 'updating the orphans context key', (): void => {
    const hasOrphans = deps.ledger.summary().orphaned.length > 0;
    if (hasOrphans === hadOrphans) return;
    hadOrphans = hasOrphans;
    inBackground(deps, 'setting the orphans context key', async () => {
      await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasOrphans, hasOrphans);
    });
  });

  /** The process a row action is for: the clicked row, else the selected one. */
  const processOf = (arg: unknown): Extract<ProcessNode, { kind: 'process' }> | undefined => {
    const node = isNode(arg) ? arg : view.treeView.selection[0];
    return node?.kind === 'process' ? node : undefined;
  };

  const register = (id: string, what: string, handler: (arg?: unknown) => unknown): Disposable =>
    vscode.commands.registerCommand(id, userAction(deps, what, handler));

  const disposables = new DisposableStore();
  for (const disposable of [
    feed,
    view,
    createStatusBar(deps, feed),
    announceStoppedWaiting(deps),
    announceSecretPrompts(deps),
    feed.onDidChange(updateContext),
    register(COMMANDS.showProcesses, 'show the processes', () => showProcessesPick(deps, actions, feed)),
    register(COMMANDS.killOrphans, 'kill the orphaned processes', () => actions.killOrphans({ confirm: true })),
    register(COMMANDS.showLog, 'show the log', () => deps.logger.show()),
    register(COMMANDS.openLedger, 'open the process ledger', () => actions.openLedger()),
    register(COMMANDS.refreshProcesses, 'refresh the processes', () => actions.refresh()),
    register(COMMANDS.killProcessTree, 'kill the process tree', async (arg) => {
      const pid = typeof arg === 'number' ? arg : processOf(arg)?.process.pid;
      if (pid === undefined) return showProcessesPick(deps, actions, feed);
      return actions.killTree(pid);
    }),
    register(COMMANDS.revealTerminal, 'reveal the terminal', (arg) => {
      const node = isNode(arg) ? arg : view.treeView.selection[0];
      const name = typeof arg === 'string' ? arg : node?.kind === 'terminal' ? node.group.name : node?.kind === 'process' ? node.terminal : undefined;
      if (name !== undefined) actions.revealTerminal(name);
    }),
    register(COMMANDS.openUrl, 'open the dev server URL', (arg) => {
      const url = urlOf(arg);
      if (url !== undefined) return actions.openUrl(url);
    }),
    register(COMMANDS.openUrlInSimpleBrowser, 'open the dev server URL in the Simple Browser', (arg) => {
      const url = urlOf(arg);
      if (url !== undefined) return actions.openUrlInSimpleBrowser(url);
    }),
    register(COMMANDS.copyCommandLine, 'copy the command line', async (arg) => {
      const node = processOf(arg);
      if (node) await actions.copyCommandLine(node.process);
    }),
  ]) {
    disposables.add(disposable);
  }
  updateContext();
  return disposables;
}

function isNode(value: unknown): value is ProcessNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === 'terminal' || kind === 'orphans' || kind === 'process' || kind === 'url';
}

/** A URL row's URL (menus pass the row, the row's click passes the URL). */
function urlOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return isNode(arg) && arg.kind === 'url' ? arg.url : undefined;
}
