/**
 * Feeds workspace file changes to the stack analysis cache: a watcher on the detection files
 * (package.json, lockfiles, manage.py, ...) and on deletions (of folders), and a refresh when
 * workspace folders are added or removed. The cache decides what matters and debounces.
 */
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../core/events';
import { DETECTION_FILE_NAMES } from '../core/stacks/stackTable';
import type { WorkspaceStacks } from '../core/stacks/workspaceStacks';

export function watchStacks(stacks: WorkspaceStacks): Disposable {
  const disposables = new DisposableStore();
  const files = vscode.workspace.createFileSystemWatcher(`**/{${[...DETECTION_FILE_NAMES].join(',')}}`);
  // A deleted folder takes its detection files along without an event of theirs: deletions only.
  const folders = vscode.workspace.createFileSystemWatcher('**/*', true, true, false);
  for (const watcher of [files, folders]) {
    disposables.add(watcher);
    disposables.add(watcher.onDidCreate((uri) => stacks.invalidate(uri.fsPath)));
    disposables.add(watcher.onDidChange((uri) => stacks.invalidate(uri.fsPath)));
    disposables.add(watcher.onDidDelete((uri) => stacks.invalidate(uri.fsPath)));
  }
  disposables.add(vscode.workspace.onDidChangeWorkspaceFolders(() => stacks.invalidate()));
  return disposables;
}

/** Every workspace folder on disk, in order. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
