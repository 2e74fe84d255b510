/**
 * TerminalHost over VS Code's terminals and the Shell Integration API (stable API only). Adapters
 * are cached per vscode object so the core can compare terminals and executions by identity.
 */
import * as vscode from 'vscode';
import { DisposableStore, Emitter, type Disposable } from '../core/events';
import type {
  CreateTerminalOptions,
  ExecutionEndEvent,
  ExecutionEvent,
  PseudoterminalBehaviour,
  PseudoterminalHandle,
  ShellExecution,
  ShellTerminal,
  TerminalCloseEvent,
  TerminalCloseReason,
  TerminalHost,
} from '../core/terminals/terminalPort';

class TerminalAdapter implements ShellTerminal {
  constructor(readonly terminal: vscode.Terminal) {}

  get name(): string {
    return this.terminal.name;
  }
  processId(): Promise<number | undefined> {
    return Promise.resolve(this.terminal.processId);
  }
  get hasShellIntegration(): boolean {
    return this.terminal.shellIntegration !== undefined;
  }
  get cwd(): string | undefined {
    const uri = this.terminal.shellIntegration?.cwd;
    return uri?.scheme === 'file' ? uri.fsPath : undefined;
  }
  get shellType(): string | undefined {
    return this.terminal.state.shell;
  }
  get closed(): boolean {
    return this.terminal.exitStatus !== undefined;
  }
  executeCommand(commandLine: string): ShellExecution {
    const integration = this.terminal.shellIntegration;
    if (!integration) {
      throw new Error(`shell integration is not active in terminal "${this.terminal.name}"`);
    }
    return executionAdapter(integration.executeCommand(commandLine));
  }
  sendText(text: string, addNewLine: boolean): void {
    this.terminal.sendText(text, addNewLine);
  }
  show(preserveFocus: boolean): void {
    this.terminal.show(preserveFocus);
  }
  dispose(): void {
    this.terminal.dispose();
  }
}

function closeReason(reason: vscode.TerminalExitReason | undefined): TerminalCloseReason {
  switch (reason) {
    case vscode.TerminalExitReason.Process:
      return 'shell';
    case vscode.TerminalExitReason.User:
      return 'user';
    case vscode.TerminalExitReason.Shutdown:
      return 'window';
    case vscode.TerminalExitReason.Extension:
      return 'extension';
    default:
      return 'unknown';
  }
}

const executions = new WeakMap<vscode.TerminalShellExecution, ShellExecution>();

function executionAdapter(execution: vscode.TerminalShellExecution): ShellExecution {
  let adapter = executions.get(execution);
  if (!adapter) {
    adapter = {
      get commandLine() {
        return execution.commandLine.value;
      },
      read: () => execution.read(),
    };
    executions.set(execution, adapter);
  }
  return adapter;
}

/** Forwards VS Code's terminal events for managed terminals only; listener failures go to the log (core/events). */
export class VsCodeTerminalHost implements TerminalHost, Disposable {
  private readonly adapters = new WeakMap<vscode.Terminal, TerminalAdapter>();
  private readonly disposables = new DisposableStore();
  private readonly startEmitter = this.disposables.add(new Emitter<ExecutionEvent>());
  private readonly endEmitter = this.disposables.add(new Emitter<ExecutionEndEvent>());
  private readonly closeEmitter = this.disposables.add(new Emitter<TerminalCloseEvent>());
  readonly onDidStartExecution = this.startEmitter.event;
  readonly onDidEndExecution = this.endEmitter.event;
  readonly onDidCloseTerminal = this.closeEmitter.event;

  constructor() {
    this.disposables.add(
      vscode.window.onDidStartTerminalShellExecution((e) => {
        const terminal = this.adapters.get(e.terminal);
        if (terminal) this.startEmitter.fire({ terminal, execution: executionAdapter(e.execution) });
      }),
    );
    this.disposables.add(
      vscode.window.onDidEndTerminalShellExecution((e) => {
        const terminal = this.adapters.get(e.terminal);
        if (terminal) this.endEmitter.fire({ terminal, execution: executionAdapter(e.execution), exitCode: e.exitCode });
      }),
    );
    this.disposables.add(
      vscode.window.onDidCloseTerminal((t) => {
        const terminal = this.adapters.get(t);
        if (terminal) this.closeEmitter.fire({ terminal, exitCode: t.exitStatus?.code, reason: closeReason(t.exitStatus?.reason) });
      }),
    );
  }

  create(options: CreateTerminalOptions): ShellTerminal {
    const terminal = vscode.window.createTerminal({
      name: options.name,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.shellPath !== undefined ? { shellPath: options.shellPath } : {}),
      ...(options.shellArgs !== undefined ? { shellArgs: [...options.shellArgs] } : {}),
      ...(options.env !== undefined ? { env: { ...options.env } } : {}),
      iconPath: new vscode.ThemeIcon('terminal-bash'),
      // Managed terminals end with the window: a revived shell would hold processes nobody tracks.
      isTransient: true,
    });
    const adapter = new TerminalAdapter(terminal);
    this.adapters.set(terminal, adapter);
    if (options.reveal) {
      terminal.show(true);
    }
    return adapter;
  }

  createPseudoterminal(name: string, behaviour: PseudoterminalBehaviour, reveal: boolean): PseudoterminalHandle {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: behaviour.onDidWrite,
      onDidClose: behaviour.onDidClose,
      open: (dimensions) => behaviour.open(dimensions?.columns, dimensions?.rows),
      close: () => behaviour.close(),
      handleInput: (data) => behaviour.handleInput(data),
      setDimensions: (dimensions) => behaviour.setDimensions(dimensions.columns, dimensions.rows),
    };
    const terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon('terminal'), isTransient: true });
    if (reveal) terminal.show(true);
    return { show: (preserveFocus) => terminal.show(preserveFocus), dispose: () => terminal.dispose() };
  }

  defaultShell(): string | undefined {
    return vscode.env.shell || undefined;
  }

  vscodeInjectionEnabled(): boolean {
    return vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled') !== false;
  }

  waitForShellIntegration(terminal: ShellTerminal, timeoutMs: number): Promise<boolean> {
    if (terminal.hasShellIntegration) {
      return Promise.resolve(true);
    }
    const target = (terminal as TerminalAdapter).terminal;
    return new Promise((resolve) => {
      const done = (value: boolean): void => {
        clearTimeout(timer);
        changed.dispose();
        closed.dispose();
        resolve(value);
      };
      const timer = setTimeout(() => done(target.shellIntegration !== undefined), timeoutMs);
      const changed = vscode.window.onDidChangeTerminalShellIntegration((e) => {
        if (e.terminal === target) done(true);
      });
      const closed = vscode.window.onDidCloseTerminal((t) => {
        if (t === target) done(false);
      });
    });
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
