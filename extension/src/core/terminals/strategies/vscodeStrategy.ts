/**
 * VS Code's own shell integration (bash, zsh, fish, pwsh where VS Code injects it): VS Code
 * reports every execution with its command line, so a line of any length is typed as is; only a
 * command with line breaks (or any PowerShell command) goes through a file. VS Code's PowerShell
 * end carries `$?` only (D;0 or D;1): the file reports the real exit code itself.
 */
import { hasLineBreaks, plainSourceLine, prepareCommand, pwshReportingFileText, type CommandLines } from '../commandText';
import { managedEnv } from '../integration/integrationLaunch';
import { baseTerminalOptions, openIntegratedTerminal, type ExecutionStrategy } from './executionStrategy';

export const vscodeCommandLines: CommandLines = {
  needsScriptFile: (command) => hasLineBreaks(command),
  typedLine: (_kind, command) => command,
  // PowerShell: `exit N` ends the file before its own report, not the line: the report then comes after it.
  sourceLine: (kind, name) => (kind === 'pwsh' ? `${plainSourceLine(kind, name)}; __TshepAfterFile $? $global:LASTEXITCODE` : plainSourceLine(kind, name)),
  // The file reports the screen too (no C of ours to report it with): see outputStart.ts.
  fileText: (kind, command) => (kind === 'pwsh' ? pwshReportingFileText(command, { reportScreen: true }) : `${command}\n`),
};

export const vscodeStrategy: ExecutionStrategy = {
  name: 'vscode',
  stripsPromptAndEcho: true,
  ownsProcesses: false,
  lateExecutions: true,
  async open(request, context) {
    // The private folder is a convenience here (multi-line commands): without it they are typed as is.
    const files = await context.integrationFiles().catch(() => undefined);
    return openIntegratedTerminal({ ...baseTerminalOptions(request, context.host), env: managedEnv(request.shell.kind, files, request.marks) }, request, context);
  },
  prepareCommand: (command, kind, runsDir) => prepareCommand(vscodeCommandLines, command, kind, runsDir),
};
