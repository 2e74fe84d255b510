/**
 * A TerminalHost the tests script, so TerminalService and its registry run without VS Code.
 *
 * It behaves like the real host (extension/src/vscode/terminalHost.ts) where the service can
 * tell: an execution's stream carries raw terminal data (OSC 633 markers included) to a single
 * reader, start and end events reach the service through the host's emitters and never
 * synchronously inside executeCommand, and closing a terminal fires onDidCloseTerminal with the
 * shell's exit code. What a terminal does with a command or with typed text is up to each test
 * (`onExecute`, `onSendText`).
 */
import path from 'node:path';
import { Emitter } from '../../../extension/src/core/events';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
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
} from '../../../extension/src/core/terminals/terminalPort';


/** The repository's shell integration scripts (shipped at the package's top as shell/). */
export const SHELL_SCRIPTS = path.join(__dirname, '..', '..', '..', 'shell');
const osc = (body: string): string => `\x1b]${body}\x07`;

/** VS Code's shell integration markers, as they appear in an execution's raw stream. */
export const marks = {
  /** Prompt start, prompt text, command start: what the output must not show. */
  prompt: `${osc('633;A')}user@host:~$ ${osc('633;B')}`,
  /** Command executed: the command's own output follows. */
  executed: osc('633;C'),
  /** Command finished, with its exit code when the shell reports one. */
  finished: (exitCode: number | undefined): string => osc(exitCode === undefined ? '633;D' : `633;D;${exitCode}`),
} as const;

export class FakeExecution implements ShellExecution {
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private streamEnded = false;
  private reading = false;

  constructor(
    readonly commandLine: string,
    private readonly terminal: FakeTerminal,
    private readonly host: FakeTerminalHost,
  ) {}

  /** Raw terminal data, read once (the real stream has one reader too). */
  async *read(): AsyncIterable<string> {
    if (this.reading) throw new Error(`execution "${this.commandLine}" is read twice`);
    this.reading = true;
    for (;;) {
      while (this.chunks.length > 0) yield this.chunks.shift()!;
      if (this.streamEnded) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Writes raw data to the terminal as this execution's output. */
  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  /** Shell integration reports the start (the C marker opens the stream, as in VS Code). */
  start(): void {
    this.push(marks.executed);
    this.host.fireStart({ terminal: this.terminal, execution: this });
  }

  /** The command exits: the stream ends with the D marker, then the end event fires. */
  end(exitCode: number | undefined): void {
    this.push(marks.finished(exitCode));
    this.streamEnded = true;
    this.wake?.();
    this.host.fireEnd({ terminal: this.terminal, execution: this, exitCode });
  }

  /** start, output, end: a command that runs to completion at once. */
  complete(output: string, exitCode: number): void {
    this.start();
    if (output) this.push(output);
    this.end(exitCode);
  }
}

export class FakeTerminal implements ShellTerminal {
  hasShellIntegration = false;
  cwd: string | undefined;
  shellType: string | undefined = 'bash';
  closed = false;
  disposed = false;
  /** Executions in the order they were created: by executeCommand, or typed by the "user". */
  readonly executions: FakeExecution[] = [];
  readonly sentText: Array<{ readonly text: string; readonly addNewLine: boolean }> = [];
  readonly shown: boolean[] = [];
  /** Scripted reaction to typed text (an answer, Ctrl+C). */
  onSendText: ((text: string, terminal: FakeTerminal) => void) | undefined;

  constructor(
    readonly name: string,
    readonly pid: number,
    readonly options: CreateTerminalOptions,
    private readonly host: FakeTerminalHost,
  ) {
    this.cwd = options.cwd;
  }

  processId(): Promise<number | undefined> {
    return Promise.resolve(this.pid);
  }

  /** The last execution, the one a test usually drives. */
  get current(): FakeExecution {
    const execution = this.executions.at(-1);
    if (!execution) throw new Error(`no execution in terminal "${this.name}"`);
    return execution;
  }

  executeCommand(commandLine: string): ShellExecution {
    if (!this.hasShellIntegration || this.closed) {
      throw new Error(`shell integration is not active in terminal "${this.name}"`);
    }
    const execution = this.typed(commandLine);
    // VS Code reports the start later, never inside executeCommand.
    queueMicrotask(() => this.host.onExecute?.(execution, this));
    return execution;
  }

  /** An execution the service did not start (typed by the user, or the next line of a cascade); not yet started. */
  typed(commandLine: string): FakeExecution {
    const execution = new FakeExecution(commandLine, this, this.host);
    this.executions.push(execution);
    return execution;
  }

  sendText(text: string, addNewLine: boolean): void {
    this.sentText.push({ text, addNewLine });
    this.onSendText?.(text, this);
  }

  show(preserveFocus: boolean): void {
    this.shown.push(preserveFocus);
  }

  /** The shell exited (with an exit code), or the user closed the terminal (without), unless `reason` says otherwise. */
  close(exitCode: number | undefined, reason: TerminalCloseReason = exitCode === undefined ? 'user' : 'shell'): void {
    if (this.closed) return;
    this.closed = true;
    this.host.fireClose({ terminal: this, exitCode, reason });
  }

  dispose(): void {
    this.disposed = true;
    this.close(undefined, 'extension');
  }
}

/** The editor's side of an extension-owned terminal: opens it at once and keeps what it was shown. */
export class FakePseudoterminal implements PseudoterminalHandle {
  shown = '';
  disposed = false;

  constructor(
    readonly name: string,
    readonly behaviour: PseudoterminalBehaviour,
    readonly reveal: boolean,
  ) {
    behaviour.onDidWrite((data) => (this.shown += data));
    queueMicrotask(() => behaviour.open(100, 30));
  }

  show(): void {}

  dispose(): void {
    this.disposed = true;
  }
}

export class FakeTerminalHost implements TerminalHost {
  private readonly startEmitter = new Emitter<ExecutionEvent>();
  private readonly endEmitter = new Emitter<ExecutionEndEvent>();
  private readonly closeEmitter = new Emitter<TerminalCloseEvent>();
  readonly onDidStartExecution = this.startEmitter.event;
  readonly onDidEndExecution = this.endEmitter.event;
  readonly onDidCloseTerminal = this.closeEmitter.event;

  readonly terminals: FakeTerminal[] = [];
  /** The timeoutMs of every waitForShellIntegration call. */
  readonly integrationWaits: number[] = [];
  /** What waitForShellIntegration answers: true, false (never activated), or a promise the test settles; per terminal when a function. */
  shellIntegration: boolean | Promise<boolean> | ((terminal: FakeTerminal) => boolean | Promise<boolean>) = true;
  /** The editor's default shell (vscode.env.shell). */
  defaultShellPath: string | undefined = '/bin/bash';
  /** terminal.integrated.shellIntegration.enabled */
  injection = true;
  /** Scripted reaction to every executeCommand, called after it returned. */
  onExecute: ((execution: FakeExecution, terminal: FakeTerminal) => void) | undefined;
  /** The pid the next terminal's shell gets (a test may point it at a real process). */
  nextPid = 1001;

  create(options: CreateTerminalOptions): FakeTerminal {
    const terminal = new FakeTerminal(options.name, this.nextPid++, options, this);
    this.terminals.push(terminal);
    return terminal;
  }

  /** Extension-owned terminals created, with the behaviour the editor would drive and what they showed. */
  readonly pseudoterminals: FakePseudoterminal[] = [];

  createPseudoterminal(name: string, behaviour: PseudoterminalBehaviour, reveal: boolean): PseudoterminalHandle {
    const pty = new FakePseudoterminal(name, behaviour, reveal);
    this.pseudoterminals.push(pty);
    return pty;
  }

  defaultShell(): string | undefined {
    return this.defaultShellPath;
  }

  vscodeInjectionEnabled(): boolean {
    return this.injection;
  }

  async waitForShellIntegration(terminal: ShellTerminal, timeoutMs: number): Promise<boolean> {
    this.integrationWaits.push(timeoutMs);
    const answer = this.shellIntegration;
    const ready = await (typeof answer === 'function' ? answer(terminal as FakeTerminal) : answer);
    (terminal as FakeTerminal).hasShellIntegration = ready;
    return ready;
  }

  /** The terminal created last. */
  get last(): FakeTerminal {
    const terminal = this.terminals.at(-1);
    if (!terminal) throw new Error('no terminal was created');
    return terminal;
  }

  fireStart(event: ExecutionEvent): void {
    this.startEmitter.fire(event);
  }

  fireEnd(event: ExecutionEndEvent): void {
    this.endEmitter.fire(event);
  }

  fireClose(event: TerminalCloseEvent): void {
    this.closeEmitter.fire(event);
  }

  dispose(): void {
    this.startEmitter.dispose();
    this.endEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

export const idleShell: ShellActivity = Object.freeze({ foreground: 'shell', readingTerminal: false });

export const goneShell: ShellActivity = Object.freeze({ foreground: 'gone', readingTerminal: false });

/**
 * The OS probe of a shell: answers `activity` (idle at its prompt unless a test says otherwise),
 * or `gone` for the pids in `gone`, and records each pid asked about.
 */
export class ScriptedProbe {
  activity: ShellActivity = idleShell;
  /** Shells the OS says no longer exist. */
  readonly gone = new Set<number>();
  readonly probed: number[] = [];
  readonly probeShell = (shellPid: number): Promise<ShellActivity> => {
    this.probed.push(shellPid);
    return Promise.resolve(this.gone.has(shellPid) ? goneShell : this.activity);
  };
}

/** Every command completes at once, printing what it was typed as. */
export function completeEveryCommand(host: FakeTerminalHost): void {
  host.onExecute = (execution) => execution.complete(`ran: ${execution.commandLine}\r\n`, 0);
}

/** Everything the host's terminals were asked to do: executions and typed text, per terminal. */
export function typedAnywhere(host: FakeTerminalHost): string[] {
  return host.terminals.flatMap((t) => [...t.executions.map((e) => e.commandLine), ...t.sentText.map((s) => s.text)]);
}
