/**
 * "Terminal Shepherd: Show Processes": a QuickPick of every tracked process, a separator per
 * terminal and one for the orphans, children indented under their parents. Item buttons act in
 * place (kill the tree, reveal the terminal, copy the command line) and the list re-renders from
 * the ledger while it is open; accepting an item offers the same actions in a second step, with
 * Back to return to the list.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/events';
import type { ChangeFeed } from './changeFeed';
import type { ProcessUiDependencies } from './dependencies';
import { countProcesses, processDescription, processPhrase } from './format';
import type { ProcessActions } from './processActions';
import { pickRows, treeOf, type ProcessRow } from './processModel';
import { inBackground, userAction } from './userFeedback';

type ActionKind = 'kill' | 'reveal' | 'copy';
type UrlAction = 'browser' | 'simpleBrowser';

interface ActionButton extends vscode.QuickInputButton {
  readonly action: ActionKind;
}

const BUTTONS: Record<ActionKind, ActionButton> = {
  kill: { action: 'kill', iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Kill Process Tree' },
  reveal: { action: 'reveal', iconPath: new vscode.ThemeIcon('terminal'), tooltip: 'Reveal Terminal' },
  copy: { action: 'copy', iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy Command Line' },
};

interface UrlButton extends vscode.QuickInputButton {
  readonly urlAction: UrlAction;
}

const URL_BUTTONS: Record<UrlAction, UrlButton> = {
  browser: { urlAction: 'browser', iconPath: new vscode.ThemeIcon('link-external'), tooltip: 'Open in Browser' },
  simpleBrowser: { urlAction: 'simpleBrowser', iconPath: new vscode.ThemeIcon('preview'), tooltip: 'Open in Simple Browser' },
};

interface ProcessItem extends vscode.QuickPickItem {
  readonly row?: ProcessRow;
  /** A dev server's URL row. */
  readonly url?: string;
}

interface ActionItem extends vscode.QuickPickItem {
  readonly action: ActionKind;
}

const TITLE = 'Terminal Shepherd: Processes';
/** Em spaces: HTML collapses ASCII spaces at the start of a label, not these. */
const INDENT = '\u2003\u2003';

export function iconFor(row: ProcessRow): vscode.ThemeIcon {
  if (row.orphan) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  return new vscode.ThemeIcon(row.process.ports.length > 0 ? 'radio-tower' : 'server-process');
}

/** "python3" for a top-level process; "└ sleep" (indented per level) under its parent, which precedes it. */
function labelFor(row: ProcessRow): string {
  const name = row.process.name || 'process';
  return row.depth === 0 ? name : `${INDENT.repeat(row.depth - 1)}\u2514\u2002${name}`;
}

function itemFor(row: ProcessRow, now: number): ProcessItem {
  const buttons = [BUTTONS.kill, ...(row.terminal !== undefined ? [BUTTONS.reveal] : []), BUTTONS.copy];
  return {
    // An icon rather than a $(codicon) in the label: screen readers would read the icon's name.
    iconPath: iconFor(row),
    label: labelFor(row),
    description: processDescription(row.process, now),
    detail: row.process.commandLine,
    buttons,
    row,
  };
}

function itemsFor(actions: ProcessActions): ProcessItem[] {
  const now = Date.now();
  return pickRows(actions.overview()).map((r): ProcessItem => {
    switch (r.kind) {
      case 'separator':
        return { label: r.label, kind: vscode.QuickPickItemKind.Separator };
      case 'url':
        return { iconPath: new vscode.ThemeIcon('globe'), label: r.url, description: 'dev server: Enter opens it in the browser', url: r.url, buttons: [URL_BUTTONS.browser, URL_BUTTONS.simpleBrowser] };
      default:
        return itemFor(r, now);
    }
  });
}

/** Shows the pick; resolves when the user is done with it. */
export async function showProcessesPick(deps: ProcessUiDependencies, actions: ProcessActions, feed: ChangeFeed): Promise<void> {
  let focusPid: number | undefined;
  for (;;) {
    const chosen = await pickProcess(deps, actions, feed, focusPid);
    if (!chosen) return;
    focusPid = chosen.process.pid;
    const action = await pickAction(chosen);
    if (action === 'back') continue;
    if (action === undefined) return;
    await perform(actions, action, chosen);
    if (action !== 'kill') return; // after a kill, back to the (refreshed) list to go on cleaning up
  }
}

async function perform(actions: ProcessActions, action: ActionKind, row: ProcessRow): Promise<void> {
  switch (action) {
    case 'kill':
      await actions.killTree(row.process.pid);
      return;
    case 'reveal':
      if (row.terminal !== undefined) actions.revealTerminal(row.terminal);
      return;
    case 'copy':
      await actions.copyCommandLine(row.process);
      return;
  }
}

/** The list; resolves with the accepted row, or undefined when it was closed. */
function pickProcess(deps: ProcessUiDependencies, actions: ProcessActions, feed: ChangeFeed, focusPid: number | undefined): Promise<ProcessRow | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ProcessItem>();
    pick.title = TITLE;
    pick.matchOnDescription = true; // pids and ports
    pick.matchOnDetail = true; // command lines
    const disposables = new DisposableStore();
    disposables.add(pick);
    let accepted: ProcessRow | undefined;
    let closed = false;

    const render = (): void => {
      if (closed) return; // a refresh that finishes after the pick closed
      const keep = pick.activeItems[0]?.row?.process.pid ?? focusPid;
      const items = itemsFor(actions);
      pick.items = items;
      const count = items.filter((i) => i.row).length;
      pick.placeholder =
        count === 0
          ? 'No process is running in Terminal Shepherd terminals. Press Escape to close.'
          : `${countProcesses(count)}: filter by name, pid, port or command line; Enter for actions`;
      const again = keep === undefined ? undefined : items.find((i) => i.row?.process.pid === keep);
      if (again) pick.activeItems = [again];
    };

    const act = userAction(deps, 'act on the process', async (item: ProcessItem, button: ActionButton) => {
      const row = item.row;
      if (!row) return;
      if (button.action === 'kill') {
        pick.busy = true;
        pick.enabled = false; // one kill at a time; the list changes under the cursor
        try {
          await actions.killTree(row.process.pid);
        } finally {
          pick.busy = false;
          pick.enabled = true;
          render();
        }
        return;
      }
      await perform(actions, button.action, row);
    });

    disposables.add(feed.onDidChange(render));
    const openUrl = userAction(deps, 'open the dev server URL', async (url: string, how: UrlAction) => {
      pick.hide();
      await (how === 'browser' ? actions.openUrl(url) : actions.openUrlInSimpleBrowser(url));
    });
    disposables.add(
      pick.onDidTriggerItemButton((e) => {
        const button = e.button as Partial<UrlButton>;
        if (e.item.url !== undefined && button.urlAction) void openUrl(e.item.url, button.urlAction);
        else void act(e.item, e.button as ActionButton);
      }),
    );
    disposables.add(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.url !== undefined) {
          void openUrl(item.url, 'browser');
          return;
        }
        accepted = item?.row;
        if (accepted) pick.hide();
      }),
    );
    disposables.add(
      pick.onDidHide(() => {
        closed = true;
        disposables.dispose();
        resolve(accepted);
      }),
    );
    render();
    pick.show();
    // What is in memory shows at once; a fresh look at the OS (new processes, ports) follows.
    pick.busy = true;
    inBackground(deps, 'refreshing the process list', () =>
      actions.refresh().finally(() => {
        if (closed) return;
        pick.busy = false;
        render();
      }),
    );
  });
}

/** The second step for one process; 'back' returns to the list. */
function pickAction(row: ProcessRow): Promise<ActionKind | 'back' | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<ActionItem>();
    const p = row.process;
    const tree = treeOf(p);
    pick.title = processPhrase(p);
    pick.placeholder = row.orphan ? `Orphan, started in terminal "${p.terminalName}" by an earlier window` : `In terminal "${p.terminalName}"`;
    pick.buttons = [vscode.QuickInputButtons.Back];
    const items: ActionItem[] = [
      {
        action: 'kill',
        iconPath: new vscode.ThemeIcon('trash'),
        label: 'Kill Process Tree',
        description: tree.length > 1 ? `${p.name} and ${countProcesses(tree.length - 1, 'child')}` : p.name,
      },
      ...(row.terminal !== undefined ? [{ action: 'reveal' as const, iconPath: new vscode.ThemeIcon('terminal'), label: 'Reveal Terminal', description: row.terminal }] : []),
      { action: 'copy', iconPath: new vscode.ThemeIcon('copy'), label: 'Copy Command Line', detail: p.commandLine },
    ];
    pick.items = items;
    let result: ActionKind | 'back' | undefined;
    const disposables = new DisposableStore();
    disposables.add(pick);
    disposables.add(
      pick.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) {
          result = 'back';
          pick.hide();
        }
      }),
    );
    disposables.add(
      pick.onDidAccept(() => {
        result = pick.selectedItems[0]?.action;
        pick.hide();
      }),
    );
    disposables.add(
      pick.onDidHide(() => {
        disposables.dispose();
        resolve(result);
      }),
    );
    pick.show();
  });
}
