/**
 * How a managed terminal runs commands (the model: VS Code's chatAgentTools executeStrategy/):
 * one object per strategy with what differs between them, opening the terminal, the line typed
 * for a command, whether the output has prompt marks to cut at, and who owns the processes.
 * The registry picks one per terminal (strategyChain.ts) and never tests a strategy's name.
 */
import type { Logger } from '../../../../../common/src/logger';
import type { StrategyName } from '../../../../../common/src/protocol';
import { closedAtStartError } from '../../errors';
import type { ShellActivity } from '../../processes/types';
import type { ShepherdSettings } from '../../settings';
import type { AgentMarks } from '../agentMarks';
import type { PreparedCommand } from '../commandText';
import { RUNS_DIR_VARIABLE } from '../commandText';
import type { IntegrationFiles } from '../integration/integrationFiles';
import type { ShellInfo, ShellKind } from '../shellKind';
import type { CreateTerminalOptions, ExecutionEndEvent, ExecutionEvent, ShellTerminal, TerminalCloseEvent, TerminalHost } from '../terminalPort';

export interface OpenRequest {
  /** The managed terminal's name (its title in the editor is terminalTitle(name)). */
  readonly name: string;
  readonly shell: ShellInfo;
  /** Where the shell starts; undefined for the editor's default. */
  readonly cwd: string | undefined;
  readonly settings: ShepherdSettings;
  /** AI_AGENT and the history setting for its environment. */
  readonly marks: AgentMarks;
}

/** What opening a terminal may use. */
export interface StrategyContext {
  readonly host: TerminalHost;
  /** Terminal Shepherd's integration scripts and private folder (asked for once, when first needed). */
  readonly integrationFiles: () => Promise<IntegrationFiles>;
  readonly probeShell: (shellPid: number) => Promise<ShellActivity>;
  readonly descendants: (pid: number) => Promise<Array<{ readonly pid: number; readonly ppid: number }>>;
  readonly platform: NodeJS.Platform;
  readonly logger: Logger;
  /** The ledger session whose mark the terminal's environment carries (ledger/processMarks.ts). */
  readonly ledgerSession?: string;
  /** Where a terminal that reports its own executions (the extension-owned one) sends them. */
  readonly events: {
    readonly start: (event: ExecutionEvent) => void;
    readonly end: (event: ExecutionEndEvent) => void;
    readonly close: (event: TerminalCloseEvent) => void;
  };
}

const TERMINAL_TITLE_PREFIX = 'Shepherd: ';

export function terminalTitle(name: string): string {
  return `${TERMINAL_TITLE_PREFIX}${name}`;
}

/** A terminal running with the strategy, or why the strategy does not work here (nothing is left open then). */
export type OpenResult = { readonly terminal: ShellTerminal; readonly runsDir?: string } | { readonly failure: string };

export interface ExecutionStrategy {
  readonly name: StrategyName;
  /** The output carries VS Code's prompt marks, so the prompt and the echoed command line are cut out. */
  readonly stripsPromptAndEcho: boolean;
  /** The terminal's processes are the extension's own: they end when the registry is disposed. */
  readonly ownsProcesses: boolean;
  /**
   * Executions may be reported right behind a run's end (VS Code's scripts under prompt themes
   * report redrawn prompts as executions), so a run waits a short settle after the OS confirmed
   * the prompt. Our scripts mark only a line the shell read: nothing follows the run's own end.
   */
  readonly lateExecutions: boolean;
  open(request: OpenRequest, context: StrategyContext): Promise<OpenResult>;
  /** The line to send for `command` (a file under `runsDir` when the command needs one). */
  prepareCommand(command: string, kind: ShellKind, runsDir: string | undefined): Promise<PreparedCommand>;
}

/**
 * A terminal of the editor's, once shell integration activated in it within the setting's time.
 * A shell that exits at once fails the whole creation: every strategy needs it.
 */
export async function openIntegratedTerminal(options: CreateTerminalOptions, request: OpenRequest, context: StrategyContext): Promise<OpenResult> {
  const terminal = context.host.create(options);
  const timeoutMs = request.settings.shellIntegrationTimeoutMs;
  if (await context.host.waitForShellIntegration(terminal, timeoutMs)) {
    const runsDir = options.env?.[RUNS_DIR_VARIABLE];
    return runsDir !== undefined ? { terminal, runsDir } : { terminal };
  }
  if (terminal.closed) {
    throw closedAtStartError(request.name);
  }
  terminal.dispose();
  return { failure: `shell integration did not activate within ${timeoutMs} ms` };
}

/** The options every terminal of the editor's starts with: title, visibility, cwd, and the shell when it is not the default. */
export function baseTerminalOptions(request: OpenRequest, host: TerminalHost): CreateTerminalOptions {
  const { settings, shell } = request;
  return {
    name: terminalTitle(request.name),
    reveal: settings.revealOnCreate,
    ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
    ...(settings.shellPath ? { shellPath: settings.shellPath } : shell.path !== undefined && shell.path !== host.defaultShell() ? { shellPath: shell.path } : {}),
  };
}

/** The integration files, or the failure that rules the strategy out when they cannot be written: "<what> (<error>)". */
export async function filesOrFailure(context: StrategyContext, what: string): Promise<IntegrationFiles | { readonly failure: string }> {
  try {
    return await context.integrationFiles();
  } catch (error) {
    return { failure: `${what} (${error instanceof Error ? error.message : String(error)})` };
  }
}
