/**
 * VS Code's terminal rules for the per-command safety check: chat.tools.terminal.* and
 * chat.tools.global.autoApprove read for every command (kept until the configuration changes) (with every scope of autoApprove, so
 * `null` unsets and the default is VS Code's own), and an allow for the workspace or always stored
 * where VS Code stores its own: chat.tools.terminal.autoApprove in the workspace or user settings.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../../../common/src/settings';
import type { ConfigurationCache } from './settings';
import type { Grant } from '../core/checks/commandSafety/approvalChoices';
import type { BlockFileWrites } from '../core/checks/commandSafety/fileWrites';
import type { SafetySettings } from '../core/checks/commandSafety/decide';
import { workspaceFolderPaths } from './stackWatcher';

const BLOCK_WRITES: readonly BlockFileWrites[] = ['never', 'outsideWorkspace', 'all'];

/**
 * The person's own (local) user settings file, beside the extension's global storage
 * (<user data>/User/globalStorage/<extension>): VS Code's tool service reads
 * chat.tools.global.autoApprove from there (`userLocalValue`), while a remote extension host (code-
 * server, a remote window) is not given that application-scoped value.
 */
export function localUserSettingsFile(globalStorage: string): string {
  return path.resolve(globalStorage, '..', '..', 'settings.json');
}

/** chat.tools.global.autoApprove in the local user settings file, where VS Code's tool service reads it when the window has none (issue 24). */
function localGlobalAutoApprove(localUserSettings: string): boolean {
  try {
    const parsed = parseJsonc(readFileSync(localUserSettings, 'utf8')) as Record<string, unknown> | undefined;
    return parsed?.['chat.tools.global.autoApprove'] === true;
  } catch {
    return false;
  }
}

/** The window's own settings (chat.tools.global.autoApprove as the window has it). */
function readSafetySettings(): SafetySettings {
  const terminal = vscode.workspace.getConfiguration('chat.tools.terminal');
  const autoApprove = terminal.inspect('autoApprove');
  const blockWrites = terminal.get<string>('blockDetectedFileWrites');
  return {
    perCommandCheck: vscode.workspace.getConfiguration(SETTINGS_SECTION).get('safety.perCommandCheck') !== false,
    enableAutoApprove: terminal.get('enableAutoApprove') !== false,
    globalAutoApprove: vscode.workspace.getConfiguration('chat.tools.global').get('autoApprove') === true,
    autoApprove: {
      defaultValue: autoApprove?.defaultValue,
      userValue: autoApprove?.globalValue,
      workspaceValue: autoApprove?.workspaceValue,
      workspaceFolderValue: autoApprove?.workspaceFolderValue,
      deprecatedValue: vscode.workspace.getConfiguration('chat.agent.terminal').get('autoApprove'),
    },
    ignoreDefaultAutoApproveRules: terminal.get('ignoreDefaultAutoApproveRules') === true,
    autoApproveWorkspaceNpmScripts: terminal.get('autoApproveWorkspaceNpmScripts') !== false,
    blockDetectedFileWrites: BLOCK_WRITES.includes(blockWrites as BlockFileWrites) ? (blockWrites as BlockFileWrites) : 'outsideWorkspace',
    workspaceFolders: workspaceFolderPaths(),
  };
}

/**
 * The safety settings for every command: the window's kept until they change, the local user
 * settings file read fresh (nothing tells a remote extension host that it changed).
 */
export function cachedSafetySettings(cache: ConfigurationCache, localUserSettings: string): () => SafetySettings {
  const configured = cache.of(() => readSafetySettings());
  return () => {
    const settings = configured();
    return settings.globalAutoApprove ? settings : { ...settings, globalAutoApprove: localGlobalAutoApprove(localUserSettings) };
  };
}

/** Adds an allow to chat.tools.terminal.autoApprove in the workspace or user settings, keeping what is there. */
export async function keepAutoApproveRules(grant: Grant & { readonly scope: 'workspace' | 'user' }): Promise<void> {
  if (!('entries' in grant)) return;
  const terminal = vscode.workspace.getConfiguration('chat.tools.terminal');
  const inspected = terminal.inspect<Record<string, unknown>>('autoApprove');
  const current = (grant.scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue) ?? {};
  const target = grant.scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await terminal.update('autoApprove', { ...current, ...grant.entries }, target);
}
