/**
 * Identifiers shared by the manifest (package.json contributes) and the code. Plain constants, no
 * vscode import, so a unit test can check the manifest against them.
 */

export const COMMANDS = {
  showProcesses: 'terminalShepherd.showProcesses',
  killOrphans: 'terminalShepherd.killOrphans',
  showLog: 'terminalShepherd.showLog',
  openLedger: 'terminalShepherd.openLedger',
  /** View title only. */
  refreshProcesses: 'terminalShepherd.refreshProcesses',
  /** Context menus only (they need a process or terminal as argument). */
  killProcessTree: 'terminalShepherd.killProcessTree',
  revealTerminal: 'terminalShepherd.revealTerminal',
  copyCommandLine: 'terminalShepherd.copyCommandLine',
  /** A dev server's URL row: in the default browser, or in VS Code's Simple Browser. */
  openUrl: 'terminalShepherd.openUrl',
  openUrlInSimpleBrowser: 'terminalShepherd.openUrlInSimpleBrowser',
  /** Writes an MCP client's configuration so it starts Terminal Shepherd's server. */
  connectClient: 'terminalShepherd.connectClient',
  /** Runs a command the way terminal_run does and shows what a model gets. */
  runCommand: 'terminalShepherd.runCommand',
} as const;

/** Commands hidden from the command palette: they act on a row of the view. */
export const MENU_ONLY_COMMANDS: readonly string[] = [
  COMMANDS.refreshProcesses,
  COMMANDS.killProcessTree,
  COMMANDS.revealTerminal,
  COMMANDS.copyCommandLine,
  COMMANDS.openUrl,
  COMMANDS.openUrlInSimpleBrowser,
];

/** The MCP clientInfo name of Run a Command's in-process client: its cancels are the person's own. */
export const RUN_COMMAND_CLIENT = 'terminal-shepherd-run-command';

export const VIEW_CONTAINER_ID = 'terminalShepherd';
export const PROCESSES_VIEW_ID = 'terminalShepherd.processes';

/** Context keys set with setContext (menus' `when` clauses read them). */
export const CONTEXT_KEYS = {
  hasOrphans: 'terminalShepherd.hasOrphans',
} as const;

/** TreeItem.contextValue of each kind of row (menus' `viewItem` clauses read them). */
export const CONTEXT_VALUES = {
  terminal: 'terminal',
  process: 'process',
  orphan: 'orphan',
  orphanGroup: 'orphans',
  url: 'url',
} as const;

export const STATUS_BAR_ID = 'terminalShepherd.processes';
