/**
 * The status bar item: running and orphaned counts, a tooltip listing the processes, a click for
 * Show Processes, warning colours while orphans are alive. Hidden while nothing is tracked (why:
 * statusBarModel.ts). Follows the change feed, and a slow tick keeps the tooltip's ages current;
 * only a model that differs from the one shown reaches the workbench.
 */
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/events';
import type { ChangeFeed } from './changeFeed';
import type { ProcessUiDependencies } from './dependencies';
import { COMMANDS, STATUS_BAR_ID } from './ids';
import { sameModel, statusBarModel, type StatusBarModel } from './statusBarModel';
import { guarded } from './userFeedback';

const AGE_TICK_MS = 30_000;
/** Left side, after VS Code's own remote/problems items. */
const PRIORITY = 10;

export function createStatusBar(deps: ProcessUiDependencies, feed: ChangeFeed): Disposable {
  const item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, PRIORITY);
  item.name = 'Terminal Shepherd';
  item.command = { command: COMMANDS.showProcesses, title: 'Show Processes' };
  const warningBackground = new vscode.ThemeColor('statusBarItem.warningBackground');
  const warningForeground = new vscode.ThemeColor('statusBarItem.warningForeground');

  // Every property set is a message to the workbench, whose renderer also parses the terminals'
  // output: a run must not pay for re-sending an unchanged item (the feed fires on every run).
  let shown: StatusBarModel | undefined;
  const render = guarded(deps, 'rendering the status bar item', (): void => {
    const model = statusBarModel(deps.ledger.summary(), Date.now(), deps.servers.list());
    if (shown && sameModel(shown, model)) return;
    shown = model;
    item.text = model.text;
    item.tooltip = new vscode.MarkdownString(model.tooltip);
    item.accessibilityInformation = { label: model.accessibilityLabel, role: 'button' };
    item.backgroundColor = model.warning ? warningBackground : undefined;
    item.color = model.warning ? warningForeground : undefined;
    if (model.visible) item.show();
    else item.hide();
  });

  const disposables = new DisposableStore();
  disposables.add(item);
  disposables.add(feed.onDidChange(render));
  const tick = setInterval(render, AGE_TICK_MS);
  disposables.add({ dispose: () => clearInterval(tick) });
  render();
  return disposables;
}
