/** The env VS Code adds to every terminal on this platform (terminal.integrated.env.<platform>), for redaction. */
import * as vscode from 'vscode';

const PLATFORM_KEY: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'osx', win32: 'windows' };

export function configuredTerminalEnv(): Readonly<Record<string, string | undefined>> {
  const key = PLATFORM_KEY[process.platform];
  const env = key ? vscode.workspace.getConfiguration('terminal.integrated.env').get<Record<string, string | null>>(key) : undefined;
  return Object.fromEntries(Object.entries(env ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
