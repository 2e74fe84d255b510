/**
 * Reads VS Code's terminal sandbox settings (`chat.agent.sandbox.*`, with the network domain
 * lists of `chat.agent.*`) as VS Code's own terminal tool reads them: user, workspace and managed
 * policy values alike, `true`/`false` taken as `on`/`off` (VS Code's migration), its defaults
 * where unset. Fresh on every read, like the rest of the settings. And the window's sandbox built
 * from what only VS Code knows (its app root, the workspace folders).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';
import { CommandSandbox } from '../core/sandbox/commandSandbox';
import { defaultVsCodeSandboxSettings, noFileSystemRules, type SandboxFileSystemRules, type VsCodeSandboxSettings } from '../core/sandboxSettings';

export function readVsCodeSandboxSettings(platform: NodeJS.Platform = process.platform): VsCodeSandboxSettings {
  const agent = vscode.workspace.getConfiguration('chat.agent');
  const flag = (key: keyof typeof defaultVsCodeSandboxSettings & string, value: unknown): boolean =>
    typeof value === 'boolean' ? value : (defaultVsCodeSandboxSettings[key] as boolean);
  const runtime = agent.get('sandbox.advanced.runtime');
  return {
    enabled: isOn(agent.get('sandbox.enabled')),
    enabledWindows: isOn(agent.get('sandbox.enabledWindows')),
    allowNetwork: flag('allowNetwork', agent.get('sandbox.allowNetwork')),
    allowUnsandboxedCommands: flag('allowUnsandboxedCommands', agent.get('sandbox.allowUnsandboxedCommands')),
    retryWithAllowNetworkRequests: flag('retryWithAllowNetworkRequests', agent.get('sandbox.retryWithAllowNetworkRequests')),
    allowAutoApprove: flag('allowAutoApprove', agent.get('sandbox.allowAutoApprove')),
    fileSystem: fileSystemRules(agent.get(platform === 'darwin' ? 'sandbox.fileSystem.mac' : 'sandbox.fileSystem.linux')),
    allowedDomains: strings(agent.get('allowedNetworkDomains')),
    deniedDomains: strings(agent.get('deniedNetworkDomains')),
    runtime: runtime !== null && typeof runtime === 'object' && !Array.isArray(runtime) ? (runtime as Record<string, unknown>) : {},
  };
}

function isOn(value: unknown): boolean {
  return value === 'on' || value === true;
}

function fileSystemRules(value: unknown): SandboxFileSystemRules {
  if (value === null || typeof value !== 'object') return noFileSystemRules;
  const rules = value as Record<string, unknown>;
  return { denyRead: strings(rules.denyRead), allowRead: strings(rules.allowRead), allowWrite: strings(rules.allowWrite), denyWrite: strings(rules.denyWrite) };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.length > 0) : [];
}

/**
 * The window's sandbox: the runtime's launcher run by this extension host's own executable (as VS
 * Code runs its copy), the workspace folders as they are now, VS Code's own ripgrep for the
 * runtime, and read access to the executable and the launcher when they live under the home folder.
 */
export function windowSandbox(extensionPath: string, logger: Logger): CommandSandbox {
  const home = os.homedir();
  const runner = { execPath: process.execPath, runnerPath: path.join(extensionPath, 'dist', 'sandboxRunner.mjs') };
  const underHome = (p: string): boolean => p.startsWith(`${home}${path.sep}`);
  const ripgrep = path.join(vscode.env.appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`);
  return new CommandSandbox({
    runner,
    platform: process.platform,
    place: () => ({
      home,
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
      runtimeReadPaths: [path.dirname(runner.execPath), extensionPath].filter(underHome),
    }),
    extraPath: existsSync(ripgrep) ? [ripgrep] : [],
    env: () => process.env,
    logger,
  });
}
