/** Reads terminalShepherd.* settings fresh on every use, so changes apply without a reload. */
import * as vscode from 'vscode';
import type { LogLevel } from '../../../common/src/logger';
import { defaultSettings, type ShepherdSettings } from '../core/settings';

const SECTION = 'terminalShepherd';

function clampNumber(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** terminalShepherd.log.level: the least severe message written to the log. */
export function readLogLevel(): LogLevel {
  return oneOf(vscode.workspace.getConfiguration(SECTION).get('log.level'), ['trace', 'debug', 'info', 'warn', 'error'] as const, 'info');
}

export function readSettings(): ShepherdSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const shellPath = config.get<string>('terminal.shellPath', '').trim();
  return {
    gracePeriodMs: clampNumber(config.get('run.gracePeriodMs'), defaultSettings.gracePeriodMs, 0, 60_000),
    defaultTimeoutMs: clampNumber(config.get('run.defaultTimeoutMs'), defaultSettings.defaultTimeoutMs, 100, 3_600_000),
    outputLimitChars: clampNumber(config.get('output.limitChars'), defaultSettings.outputLimitChars, 1000, 1_000_000),
    shellPath: shellPath.length > 0 ? shellPath : undefined,
    shellIntegrationTimeoutMs: clampNumber(config.get('terminal.shellIntegrationTimeoutMs'), defaultSettings.shellIntegrationTimeoutMs, 1000, 120_000),
    revealOnCreate: config.get<boolean>('terminal.revealOnCreate', defaultSettings.revealOnCreate) !== false,
    pollIntervalMs: clampNumber(config.get('processes.pollIntervalMs'), defaultSettings.pollIntervalMs, 200, 60_000),
    orphanPolicy: oneOf(config.get('processes.orphanPolicy'), ['report', 'ask', 'kill'] as const, defaultSettings.orphanPolicy),
  };
}

export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}
