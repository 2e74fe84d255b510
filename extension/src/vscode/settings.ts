/**
 * Reads terminalShepherd.* settings, held to the ranges and values of the one settings table; a
 * ConfigurationCache keeps what was read until VS Code reports a configuration change (changes
 * still apply without a reload).
 */
import * as vscode from 'vscode';
import type { LogLevel } from '../../../common/src/logger';
import { SETTINGS_SECTION, clampSetting, enumSetting, settingsTable } from '../../../common/src/settings';
import type { ShepherdSettings } from '../core/settings';
import { readVsCodeSandboxSettings } from './sandboxSettings';

/**
 * Reads kept until the configuration (or the workspace's folders) change. Reading the settings
 * through VS Code's API costs the extension host a fraction of a millisecond each time, and one
 * terminal_run read them about twenty times (the plan, the check, every log line's redactor, the
 * ledger's cadence), on the call's path before typing and after the end.
 */
export class ConfigurationCache implements vscode.Disposable {
  private readonly values = new Map<() => unknown, unknown>();
  private readonly listeners = [
    // VS Code updates the values it serves before it fires the event, so nothing reads a stale one after it.
    vscode.workspace.onDidChangeConfiguration(() => this.values.clear()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => this.values.clear()),
  ];

  /** `read`, called again only after a change. */
  of<T>(read: () => T): () => T {
    return () => {
      if (!this.values.has(read)) this.values.set(read, read());
      return this.values.get(read) as T;
    };
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    this.values.clear();
  }
}

const configuration = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SETTINGS_SECTION);

/** terminalShepherd.log.level: the least severe message written to the log. */
export function readLogLevel(): LogLevel {
  return enumSetting(settingsTable['log.level'], configuration().get('log.level'));
}

/**
 * terminalShepherd.output.limitChars where the person set it (user, workspace or folder), else
 * undefined: the default is not read as theirs, so each MCP client's own limit can apply.
 */
function personalOutputLimit(config: vscode.WorkspaceConfiguration): number | undefined {
  const set = config.inspect('output.limitChars');
  const value = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
  return value === undefined ? undefined : clampSetting(settingsTable['output.limitChars'], value);
}

export function readSettings(): ShepherdSettings {
  const config = configuration();
  const number = (key: 'run.gracePeriodMs' | 'run.defaultTimeoutMs' | 'run.clientTimeoutMs' | 'terminal.shellIntegrationTimeoutMs' | 'processes.pollIntervalMs' | 'processes.memoryLimitMb' | 'processes.cpuTimeLimitSeconds'): number =>
    clampSetting(settingsTable[key], config.get(key));
  const shellPath = config.get('terminal.shellPath');
  return {
    gracePeriodMs: number('run.gracePeriodMs'),
    defaultTimeoutMs: number('run.defaultTimeoutMs'),
    clientTimeoutMs: number('run.clientTimeoutMs'),
    cancelInterrupts: config.get('run.cancelInterrupts') === true,
    outputLimitChars: personalOutputLimit(config),
    shellPath: typeof shellPath === 'string' && shellPath.trim().length > 0 ? shellPath.trim() : undefined,
    shellIntegrationTimeoutMs: number('terminal.shellIntegrationTimeoutMs'),
    strategy: enumSetting(settingsTable['terminal.strategy'], config.get('terminal.strategy')),
    revealOnCreate: config.get('terminal.revealOnCreate') !== false,
    pollIntervalMs: number('processes.pollIntervalMs'),
    memoryLimitMb: number('processes.memoryLimitMb'),
    cpuTimeLimitSeconds: number('processes.cpuTimeLimitSeconds'),
    orphanPolicy: enumSetting(settingsTable['processes.orphanPolicy'], config.get('processes.orphanPolicy')),
    trackClientProcesses: config.get('processes.trackClientProcesses') !== false,
    redactSecrets: config.get('secrets.redact') !== false,
    redactPatterns: stringList(config.get('secrets.redactPatterns')),
    // VS Code's own settings for its agent terminals, honoured for ours (their defaults: true, false).
    preventShellHistory: vscode.workspace.getConfiguration('chat.tools.terminal').get('preventShellHistory') !== false,
    globalAutoApprove: vscode.workspace.getConfiguration('chat.tools.global').get('autoApprove') === true,
    vscodeSandbox: readVsCodeSandboxSettings(),
    confineAutoApproved: config.get('sandbox.confineAutoApproved') === true,
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.length > 0) : [];
}
