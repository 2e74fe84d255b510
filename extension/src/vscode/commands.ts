import * as vscode from 'vscode';

export interface CommandDependencies {
  readonly showLog: () => void;
}

/** The command palette entries (category "Terminal Shepherd" in package.json). */
export function registerCommands(deps: CommandDependencies): vscode.Disposable {
  return vscode.Disposable.from(vscode.commands.registerCommand('terminalShepherd.showLog', () => deps.showLog()));
}
