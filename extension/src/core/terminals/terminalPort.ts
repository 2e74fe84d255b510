/**
 * What the terminal registry needs from the editor's terminals, so the core stays free of the
 * vscode module (the vscode/ adapter implements this with the Shell Integration API).
 */
import type { Event } from '../events';
import type { ShellActivity } from '../processes/types';

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
  /** What the terminal is doing, where the terminal knows better than an OS probe of its pid (the extension-owned terminal). */
  probeActivity?(): Promise<ShellActivity>;
  sendText(text: string, addNewLine: boolean): void;
  show(preserveFocus: boolean): void;
  dispose(): void;
}

/** What the editor does with an extension-owned terminal (VS Code: window.createTerminal({ pty })). */
export interface PseudoterminalBehaviour {
  readonly onDidWrite: Event<string>;
  readonly onDidClose: Event<number | void>;
  open(columns: number | undefined, rows: number | undefined): void;
  close(): void;
  handleInput(data: string): void;
  setDimensions(columns: number, rows: number): void;
}

export interface PseudoterminalHandle {
  show(preserveFocus: boolean): void;
  dispose(): void;
}

export interface CreateTerminalOptions {
  readonly name: string;
  readonly cwd?: string;
  readonly shellPath?: string;
  /** Arguments for the shell (Terminal Shepherd's integration: --init-file and the like). */
  readonly shellArgs?: readonly string[];
  /** Variables added to the shell's environment. */
  readonly env?: Readonly<Record<string, string>>;
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
  /** The shell of the editor's default terminal profile, when known. */
  defaultShell(): string | undefined;
  /** Whether the editor injects its own shell integration (terminal.integrated.shellIntegration.enabled). */
  vscodeInjectionEnabled(): boolean;
  /** An extension-owned terminal whose content and input `behaviour` handles (VS Code: createTerminal({ pty })). */
  createPseudoterminal(name: string, behaviour: PseudoterminalBehaviour, reveal: boolean): PseudoterminalHandle;
  /** Resolves true once shell integration is active in the terminal, false after timeoutMs. */
  waitForShellIntegration(terminal: ShellTerminal, timeoutMs: number): Promise<boolean>;
  readonly onDidStartExecution: Event<ExecutionEvent>;
  readonly onDidEndExecution: Event<ExecutionEndEvent>;
  readonly onDidCloseTerminal: Event<TerminalCloseEvent>;
}
