/** Reads terminalShepherd.* settings fresh on every use, so changes apply without a reload. */
import * as vscode from 'vscode';
import { defaultSettings, type ShepherdSettings } from '../core/settings';

const SECTION = 'terminalShepherd';

function clampNumber(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
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
  };
}

export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}
