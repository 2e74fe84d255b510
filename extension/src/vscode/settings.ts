/**
 * Reads terminalShepherd.* settings fresh on every use (changes apply without a reload), held to
 * the ranges and values of the one settings table.
 */
import * as vscode from 'vscode';
import type { LogLevel } from '../../../common/src/logger';
import { SETTINGS_SECTION, clampSetting, enumSetting, settingsTable } from '../../../common/src/settings';
import type { ShepherdSettings } from '../core/settings';
import { readVsCodeSandboxSettings } from './sandboxSettings';

const configuration = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SETTINGS_SECTION);

/** terminalShepherd.log.level: the least severe message written to the log. */
export function readLogLevel(): LogLevel {
  return enumSetting(settingsTable['log.level'], configuration().get('log.level'));
}

export function readSettings(): ShepherdSettings {
  const config = configuration();
  const number = (key: 'run.gracePeriodMs' | 'run.defaultTimeoutMs' | 'run.clientTimeoutMs' | 'output.limitChars' | 'terminal.shellIntegrationTimeoutMs' | 'processes.pollIntervalMs' | 'processes.memoryLimitMb' | 'processes.cpuTimeLimitSeconds'): number =>
    clampSetting(settingsTable[key], config.get(key));
  const shellPath = config.get('terminal.shellPath');
  return {
    gracePeriodMs: number('run.gracePeriodMs'),
    defaultTimeoutMs: number('run.defaultTimeoutMs'),
    clientTimeoutMs: number('run.clientTimeoutMs'),
    cancelInterrupts: config.get('run.cancelInterrupts') === true,
    outputLimitChars: number('output.limitChars'),
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
