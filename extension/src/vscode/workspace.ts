import * as vscode from 'vscode';

/** The first workspace folder on disk (ledger and bridge live there), if any. */
export function firstWorkspaceFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder?.uri.fsPath;
}

export function isWorkspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}
