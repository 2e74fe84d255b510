import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';

/** The extension's Logger: a LogOutputChannel (its level follows "Developer: Set Log Level"). */
export function createLogChannel(): Logger & vscode.Disposable & { show(): void } {
  return vscode.window.createOutputChannel('Terminal Shepherd', { log: true });
}
