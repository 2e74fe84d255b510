/**
 * TerminalHost over VS Code's terminals and the Shell Integration API (stable API only). Adapters
 * are cached per vscode object so the core can compare terminals and executions by identity.
 */
import * as vscode from 'vscode';
import type {
  CreateTerminalOptions,
  Disposable,
  ShellExecution,
  ShellTerminal,
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

export class VsCodeTerminalHost implements TerminalHost {
  private readonly adapters = new WeakMap<vscode.Terminal, TerminalAdapter>();

  create(options: CreateTerminalOptions): ShellTerminal {
    const terminal = vscode.window.createTerminal({
      name: options.name,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.shellPath !== undefined ? { shellPath: options.shellPath } : {}),
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

  onDidStartExecution(listener: (terminal: ShellTerminal, execution: ShellExecution) => void): Disposable {
    return vscode.window.onDidStartTerminalShellExecution((e) => {
      const adapter = this.adapters.get(e.terminal);
      if (adapter) listener(adapter, executionAdapter(e.execution));
    });
  }

  onDidEndExecution(listener: (terminal: ShellTerminal, execution: ShellExecution, exitCode: number | undefined) => void): Disposable {
    return vscode.window.onDidEndTerminalShellExecution((e) => {
      const adapter = this.adapters.get(e.terminal);
      if (adapter) listener(adapter, executionAdapter(e.execution), e.exitCode);
    });
  }

  onDidCloseTerminal(listener: (terminal: ShellTerminal, exitCode: number | undefined) => void): Disposable {
    return vscode.window.onDidCloseTerminal((terminal) => {
      const adapter = this.adapters.get(terminal);
      if (adapter) listener(adapter, terminal.exitStatus?.code);
    });
  }
}
