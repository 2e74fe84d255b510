/**
 * The Processes view (Terminal Shepherd's activity bar container): managed terminals with the
 * process trees they spawned, and an Orphans group for what an earlier window left running.
 * Re-renders on every coalesced change while visible, looks at the OS afresh whenever it becomes
 * visible, and keeps its ages current with a slow tick while visible. An empty tree shows the welcome content.
 */
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/events';
import { ownerLabel } from '../../../../common/src/format';
import type { TrackedProcess } from '../../../../common/src/protocol';
import type { ChangeFeed } from './changeFeed';
import type { ProcessUiDependencies } from './dependencies';
import { countProcesses, escapeMarkdown, formatAge, formatPorts, formatStartTime, markdownCodeBlock, processDescription } from './format';
import { COMMANDS, CONTEXT_VALUES, PROCESSES_VIEW_ID } from './ids';
import type { ProcessActions } from './processActions';
import { isEmptyOverview, type ProcessOverview, type ProcessRow, type TerminalGroup } from './processModel';
import { guarded, inBackground } from './userFeedback';

export type ProcessNode =
  | { readonly kind: 'terminal'; readonly group: TerminalGroup }
  | { readonly kind: 'url'; readonly url: string; readonly terminal: string }
  | { readonly kind: 'orphans'; readonly orphans: readonly TrackedProcess[] }
  | ({ readonly kind: 'process' } & ProcessRow);

/** Ages in descriptions move on; re-render this often while the view is visible. */
const AGE_TICK_MS = 30_000;

class ProcessTreeProvider implements vscode.TreeDataProvider<ProcessNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The overview the roots were last built from. */
  overview: ProcessOverview;

  constructor(private readonly actions: ProcessActions) {
    this.overview = actions.overview();
  }

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: ProcessNode): ProcessNode[] {
    if (!node) {
      // Built when the workbench asks, so a view shown again never starts from a stale overview.
      const overview = (this.overview = this.actions.overview());
      if (isEmptyOverview(overview)) return []; // the welcome content shows instead
      const roots: ProcessNode[] = overview.terminals.map((group) => ({ kind: 'terminal', group }));
      if (overview.orphans.length > 0) roots.push({ kind: 'orphans', orphans: overview.orphans });
      return roots;
    }
    switch (node.kind) {
      case 'terminal':
        return [
          ...node.group.urls.map((url): ProcessNode => ({ kind: 'url', url, terminal: node.group.name })),
          ...node.group.processes.map((process) => processNode(process, 0, false, node.group.open ? node.group.name : undefined)),
        ];
      case 'url':
        return [];
      case 'orphans':
        return node.orphans.map((process) => processNode(process, 0, true, undefined));
      case 'process':
        return (node.process.children ?? []).map((child) => processNode(child, node.depth + 1, node.orphan, node.terminal));
    }
  }

  getTreeItem(node: ProcessNode): vscode.TreeItem {
    switch (node.kind) {
      case 'terminal':
        return terminalItem(node.group);
      case 'url':
        return urlItem(node.url, node.terminal);
      case 'orphans':
        return orphansItem(node.orphans);
      case 'process':
        return processItem(node, Date.now());
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function processNode(process: TrackedProcess, depth: number, orphan: boolean, terminal: string | undefined): ProcessNode {
  return { kind: 'process', process, depth, orphan, terminal };
}

const expandedIf = (has: boolean): vscode.TreeItemCollapsibleState =>
  has ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;

function terminalItem(group: TerminalGroup): vscode.TreeItem {
  const hasChildren = group.processes.length + group.urls.length > 0;
  const item = new vscode.TreeItem(group.name, expandedIf(hasChildren));
  // Stable ids keep expansion and selection across re-renders. A row that gains its first child
  // gets a new id: VS Code keeps a known row's collapsible state, so a leaf would turn collapsed.
  item.id = `terminal:${group.name}${hasChildren ? '' : ':empty'}`;
  const parts: string[] = [];
  const client = group.processes[0]?.clientTools;
  // A client's own processes (its shell tool's), grouped under the client: no terminal to be open or closed.
  if (client) parts.push(`outside managed terminals · client pid ${client.pid}`);
  else if (!group.open) parts.push('closed');
  else if (group.shellPid !== undefined) parts.push(`shell pid ${group.shellPid}`);
  if (group.urls.length > 0) parts.push(group.urls[0]!);
  if (group.busy && group.command) parts.push(group.command);
  else if (group.open && group.processes.length === 0) parts.push('idle');
  item.description = parts.join(' · ');
  item.accessibilityInformation = { label: `Terminal ${group.name}${item.description ? `, ${item.description}` : ''}` };
  item.iconPath = new vscode.ThemeIcon(group.open ? 'terminal' : 'terminal-kill');
  item.contextValue = group.open ? CONTEXT_VALUES.terminal : `${CONTEXT_VALUES.terminal}.closed`;
  const tooltip = new vscode.MarkdownString(`**Terminal ${escapeMarkdown(group.name)}**${group.open ? '' : ' \\(closed\\)'}\n\n`);
  if (group.shellPid !== undefined) tooltip.appendMarkdown(`Shell pid ${group.shellPid}\n\n`);
  if (group.command) tooltip.appendMarkdown(`${group.busy ? 'Running' : 'Last command'}:\n\n${markdownCodeBlock(group.command)}\n\n`);
  if (group.urls.length > 0) tooltip.appendMarkdown(`Serving ${group.urls.map((u) => `[${escapeMarkdown(u)}](${u})`).join(', ')}\n\n`);
  tooltip.appendMarkdown(`${escapeMarkdown(countProcesses(countTree(group.processes)))} tracked`);
  item.tooltip = tooltip;
  return item;
}

/** A dev server's URL: a click opens it in the browser; the row's buttons offer the Simple Browser too. */
function urlItem(url: string, terminal: string): vscode.TreeItem {
  const item = new vscode.TreeItem(url, vscode.TreeItemCollapsibleState.None);
  item.id = `url:${terminal}:${url}`;
  item.description = 'dev server';
  item.iconPath = new vscode.ThemeIcon('globe');
  item.contextValue = CONTEXT_VALUES.url;
  item.command = { command: COMMANDS.openUrl, title: 'Open in Browser', arguments: [url] };
  item.tooltip = new vscode.MarkdownString(`Dev server in terminal ${escapeMarkdown(terminal)}: click to open ${escapeMarkdown(url)} in the browser`);
  item.accessibilityInformation = { label: `Dev server URL ${url}, in terminal ${terminal}` };
  return item;
}

function orphansItem(orphans: readonly TrackedProcess[]): vscode.TreeItem {
  const item = new vscode.TreeItem('Orphans', vscode.TreeItemCollapsibleState.Expanded);
  item.id = 'orphans';
  item.description = countProcesses(countTree(orphans));
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  item.contextValue = CONTEXT_VALUES.orphanGroup;
  item.tooltip = new vscode.MarkdownString(
    "Processes that an earlier window's terminals left running (found again after a reload or restart). " +
      'Nothing else watches them: kill them with **Kill Orphans** when you no longer need them.',
  );
  return item;
}

export function processItem(row: ProcessRow, now: number): vscode.TreeItem {
  const p = row.process;
  const hasChildren = (p.children?.length ?? 0) > 0;
  const item = new vscode.TreeItem(p.name || 'process', expandedIf(hasChildren));
  item.id = `process:${p.pid}:${p.startedAt}${hasChildren ? '' : ':leaf'}`; // see terminalItem
  item.description = processDescription(p, now);
  item.iconPath = row.orphan
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
    : new vscode.ThemeIcon(p.ports.length > 0 ? 'radio-tower' : 'server-process', new vscode.ThemeColor('charts.green'));
  item.contextValue = row.orphan ? CONTEXT_VALUES.orphan : CONTEXT_VALUES.process;
  const age = formatAge(p.startedAt, now);
  const lines = [
    `**${escapeMarkdown(p.name || 'process')}** · pid ${p.pid}${row.orphan ? ' · orphaned' : ''}`,
    '',
    markdownCodeBlock(p.commandLine),
    '',
    `Started ${escapeMarkdown(formatStartTime(p.startedAt))}${age ? ` \\(${age} ago\\)` : ''} in terminal ${escapeMarkdown(p.terminalName)}`,
  ];
  if (p.ports.length > 0) lines.push('', `Listening on ${escapeMarkdown(formatPorts(p.ports))}`);
  const owner = ownerLabel(p);
  if (owner) lines.push('', `Started by ${escapeMarkdown(owner)}`);
  if (row.orphan) lines.push('', p.clientTools ? 'Left running by a client that is gone or no longer connected.' : 'Left running by an earlier window.');
  item.tooltip = new vscode.MarkdownString(lines.join('\n'));
  item.accessibilityInformation = { label: `${p.name}, ${processDescription(p, now)}${row.orphan ? ', orphaned' : ''}` };
  return item;
}

function countTree(roots: readonly TrackedProcess[]): number {
  return roots.reduce((n, p) => n + 1 + countTree(p.children ?? []), 0);
}

export interface ProcessesView extends Disposable {
  readonly treeView: vscode.TreeView<ProcessNode>;
}

export function createProcessesView(deps: ProcessUiDependencies, actions: ProcessActions, feed: ChangeFeed): ProcessesView {
  const provider = new ProcessTreeProvider(actions);
  const treeView = vscode.window.createTreeView(PROCESSES_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  let tick: ReturnType<typeof setInterval> | undefined;

  // A hidden view is not re-rendered (each refresh is a round trip to the workbench, whose renderer
  // also parses the terminals' output, and the feed fires on every run); becoming visible renders.
  // The activity bar badge counts only what asks for action, orphans, and is sent when it changes.
  let badgeCount = 0;
  const render = guarded(deps, 'rendering the Processes view', (): void => {
    if (treeView.visible) provider.refresh();
    const orphans = deps.ledger.summary().orphaned.length;
    if (orphans === badgeCount) return;
    badgeCount = orphans;
    treeView.badge = orphans > 0 ? { value: orphans, tooltip: countProcesses(orphans, 'orphaned') } : undefined;
  });
  const followVisibility = guarded(deps, 'following the Processes view visibility', (visible: boolean): void => {
    if (tick !== undefined) clearInterval(tick);
    tick = undefined;
    if (!visible) return;
    // Shown again: what is in memory at once, then a fresh look at the OS.
    render();
    inBackground(deps, 'refreshing processes for the view', () => actions.refresh());
    tick = setInterval(
      guarded(deps, 'updating ages in the Processes view', () => {
        if (!isEmptyOverview(provider.overview)) provider.refresh();
      }),
      AGE_TICK_MS,
    );
  });

  const disposables = new DisposableStore();
  disposables.add(provider);
  disposables.add(treeView);
  disposables.add({ dispose: () => clearInterval(tick) });
  disposables.add(feed.onDidChange(render));
  disposables.add(treeView.onDidChangeVisibility((e) => followVisibility(e.visible)));
  render();
  followVisibility(treeView.visible);
  return { treeView, dispose: () => disposables.dispose() };
}
