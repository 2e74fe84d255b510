/**
 * What the terminal registry needs from the editor's terminals, so the core stays free of the
 * vscode module (the vscode/ adapter implements this with the Shell Integration API).
 */
import type { Event } from '../events';

/** One command execution reported by shell integration. Identity is stable per execution. */
export interface ShellExecution {
  readonly commandLine: string;
  /** Raw data written to the terminal by this execution; only data after the first call. */
  read(): AsyncIterable<string>;
}

export interface ShellTerminal {
  readonly name: string;
  /** The shell's pid, once the terminal process is up. */
  processId(): Promise<number | undefined>;
  readonly hasShellIntegration: boolean;
  /** The shell's working directory as reported by shell integration. */
  readonly cwd: string | undefined;
  /** The shell kind VS Code detected ('bash', 'zsh', 'pwsh', ...), when known. */
  readonly shellType: string | undefined;
  readonly closed: boolean;
  /** Runs a command through shell integration; throws when integration is not active. */
  executeCommand(commandLine: string): ShellExecution;
  sendText(text: string, addNewLine: boolean): void;
  show(preserveFocus: boolean): void;
  dispose(): void;
}

export interface CreateTerminalOptions {
  readonly name: string;
  readonly cwd?: string;
  readonly shellPath?: string;
  /** Show the terminal in the panel, without taking focus. */
  readonly reveal: boolean;
}

export interface ExecutionEvent {
  readonly terminal: ShellTerminal;
  readonly execution: ShellExecution;
}

export interface ExecutionEndEvent extends ExecutionEvent {
  readonly exitCode: number | undefined;
}

/** Who ended a terminal, as VS Code says (TerminalExitReason). */
export type TerminalCloseReason = 'shell' | 'user' | 'window' | 'extension' | 'unknown';

export interface TerminalCloseEvent {
  readonly terminal: ShellTerminal;
  /** The shell's exit code, when the terminal closed because its shell exited. */
  readonly exitCode: number | undefined;
  /** `shell`: its process exited; `user`: closed in the UI; `window`: the window closed or reloaded. */
  readonly reason: TerminalCloseReason;
}

export interface TerminalHost {
  create(options: CreateTerminalOptions): ShellTerminal;
  /** Resolves true once shell integration is active in the terminal, false after timeoutMs. */
  waitForShellIntegration(terminal: ShellTerminal, timeoutMs: number): Promise<boolean>;
  readonly onDidStartExecution: Event<ExecutionEvent>;
  readonly onDidEndExecution: Event<ExecutionEndEvent>;
  readonly onDidCloseTerminal: Event<TerminalCloseEvent>;
}
