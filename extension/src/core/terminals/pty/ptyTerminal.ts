/**
 * The extension-owned terminal (strategy `pseudoterminal`): a terminal panel whose content we
 * write ourselves, for shells where no shell integration can be had (cmd.exe, a shell that fails
 * both VS Code's and ours). It runs each command itself (ptyCommand.ts): output is shown live and
 * streamed to the run exactly as read() streams it for the other strategies, keystrokes and
 * terminal_input go to the running program (Ctrl+C interrupts it), and the exit status ends the
 * execution through the same start/end events, so the run logic is shared.
 *
 * On Unix one keeper process per terminal starts every command: its pid is the terminal's pid,
 * so the ledger tracks what the commands spawn like under any shell.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../../../../../common/src/logger';
import { Emitter } from '../../events';
import type { ShellActivity } from '../../processes/types';
import { findOnPath, type ShellInfo } from '../shellKind';
import type { PseudoterminalBehaviour, PseudoterminalHandle, ShellExecution, ShellTerminal, TerminalCloseReason } from '../terminalPort';
import { commandFileExtension, commandFileText, KEEPER_SCRIPT, keeperRequest, shellFileArgs } from './ptyCommand';

export interface PtyTerminalOptions {
  readonly name: string;
  readonly shell: ShellInfo;
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string>>;
  /** Private folder for command files. */
  readonly runsDir: string;
  readonly platform: NodeJS.Platform;
  readonly hasScript: boolean;
}

export interface PtyTerminalDependencies {
  /** Shows the terminal in the editor, driven by `behaviour`. */
  readonly createPseudoterminal: (name: string, behaviour: PseudoterminalBehaviour) => PseudoterminalHandle;
  readonly probeShell: (pid: number) => Promise<ShellActivity>;
  /** Descendants of a pid (the keeper's), to find the program a command runs. */
  readonly descendants: (pid: number) => Promise<Array<{ readonly pid: number; readonly ppid: number }>>;
  readonly onDidStart: (terminal: PtyTerminal, execution: ShellExecution) => void;
  readonly onDidEnd: (terminal: PtyTerminal, execution: ShellExecution, exitCode: number | undefined) => void;
  readonly onDidClose: (terminal: PtyTerminal, exitCode: number | undefined, reason: TerminalCloseReason) => void;
  readonly logger: Logger;
}

const IDLE: ShellActivity = Object.freeze({ foreground: 'shell', readingTerminal: false });
const DIM = (text: string): string => `\x1b[2m${text}\x1b[0m`;
const DEFAULT_COLUMNS = 120;
const DEFAULT_ROWS = 30;

/** One command's raw output as an async stream, read once (like VS Code's execution.read()). */
class PtyExecution implements ShellExecution {
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(readonly commandLine: string) {}

  async *read(): AsyncIterable<string> {
    for (;;) {
      while (this.chunks.length > 0) yield this.chunks.shift()!;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }
}

interface Running {
  readonly execution: PtyExecution;
  readonly file: string;
  readonly cwdFile: string;
  /** Windows: the command's own process (no keeper there). */
  readonly child?: ChildProcess;
}

/** Whether `script` is on PATH (util-linux on Linux, BSD script on macOS). */
export function hasScriptCommand(platform: NodeJS.Platform = process.platform, pathValue = process.env.PATH ?? ''): boolean {
  return platform !== 'win32' && findOnPath(['script'], platform, pathValue) !== undefined;
}

export class PtyTerminal implements ShellTerminal {
  readonly hasShellIntegration = false;
  readonly shellType: string | undefined;
  private readonly writeEmitter = new Emitter<string>();
  private readonly closeEmitter = new Emitter<number | void>();
  private readonly handle: PseudoterminalHandle;
  private keeper: ChildProcess | undefined;
  private readonly decoder = new StringDecoder('utf8');
  private statusBuffer = '';
  private running: Running | undefined;
  private currentCwd: string | undefined;
  private columns = DEFAULT_COLUMNS;
  private rows = DEFAULT_ROWS;
  private isClosed = false;
  private hinted = false;
  private readonly ready: Promise<void>;
  private markReady!: () => void;

  constructor(
    private readonly options: PtyTerminalOptions,
    private readonly deps: PtyTerminalDependencies,
  ) {
    this.shellType = options.shell.kind;
    this.currentCwd = options.cwd;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    const behaviour: PseudoterminalBehaviour = {
      onDidWrite: this.writeEmitter.event,
      onDidClose: this.closeEmitter.event,
      open: (columns, rows) => {
        if (columns && rows) this.setSize(columns, rows);
        this.write(DIM(`Terminal Shepherd runs commands here with ${options.shell.path ?? options.shell.name} (no shell integration available).\r\n`));
        this.markReady();
      },
      // VS Code closes a pseudoterminal when the user closes it (or the window goes).
      close: () => this.shutdown(undefined, 'user'),
      handleInput: (data) => this.input(data),
      setDimensions: (columns, rows) => this.setSize(columns, rows),
    };
    this.handle = deps.createPseudoterminal(options.name, behaviour);
    // The editor opens the terminal when it is shown; commands must not wait for that forever.
    setTimeout(() => this.markReady(), 1000).unref?.();
    if (options.platform !== 'win32') this.startKeeper();
  }

  get name(): string {
    return this.options.name;
  }

  get cwd(): string | undefined {
    return this.currentCwd;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The keeper's pid: the root of every process the commands start (Unix). */
  processId(): Promise<number | undefined> {
    return Promise.resolve(this.keeper?.pid);
  }

  /** What the terminal does: idle between commands; during one, the OS's view of the program it runs. */
  async probeActivity(): Promise<ShellActivity> {
    if (!this.running) return IDLE;
    const keeperPid = this.keeper?.pid;
    if (keeperPid === undefined) return { foreground: 'job', readingTerminal: 'unknown' };
    // keeper -> script -> the shell running the command file (its session owns the pty).
    const tree = await this.deps.descendants(keeperPid).catch(() => []);
    const script = tree.find((p) => p.ppid === keeperPid);
    const inner = script && tree.find((p) => p.ppid === script.pid);
    if (!inner || !this.options.hasScript) return { foreground: 'job', readingTerminal: 'unknown' };
    const activity = await this.deps.probeShell(inner.pid);
    // The inner shell at "its prompt" means it waits for its child: a job either way.
    return activity.foreground === 'unknown' ? activity : { ...activity, foreground: 'job' };
  }

  executeCommand(commandLine: string): ShellExecution {
    if (this.isClosed) throw new Error(`terminal "${this.name}" is closed`);
    if (this.running) throw new Error(`terminal "${this.name}" is running a command`);
    const execution = new PtyExecution(commandLine);
    const id = randomBytes(6).toString('hex');
    const kind = this.options.shell.kind;
    const file = path.join(this.options.runsDir, `pty-${id}${commandFileExtension(kind)}`);
    const cwdFile = path.join(this.options.runsDir, `pty-${id}.cwd`);
    this.running = { execution, file, cwdFile };
    void this.launch(execution, commandLine, file, cwdFile).catch((error: unknown) => {
      this.deps.logger.warn(`terminal "${this.name}": could not start the command`, error);
      this.push(`${error instanceof Error ? error.message : String(error)}\r\n`);
      this.finish(127);
    });
    return execution;
  }

  sendText(text: string, addNewLine: boolean): void {
    this.input(addNewLine ? `${text}\r` : text);
  }

  show(preserveFocus: boolean): void {
    this.handle.show(preserveFocus);
  }

  dispose(): void {
    this.shutdown(undefined, 'extension');
    this.handle.dispose();
  }

  // -------------------------------------------------------------------------------------------

  private async launch(execution: PtyExecution, commandLine: string, file: string, cwdFile: string): Promise<void> {
    const input = {
      command: commandLine,
      kind: this.options.shell.kind,
      shellPath: this.options.shell.path ?? this.options.shell.name,
      file,
      cwdFile,
      cwd: this.currentCwd,
      columns: this.columns,
      rows: this.rows,
      platform: this.options.platform,
      hasScript: this.options.hasScript,
    };
    await fs.writeFile(file, commandFileText(input), { mode: 0o600 });
    await this.ready;
    if (this.running?.execution !== execution) return;
    this.write(`${DIM('$')} ${commandLine.replace(/\r?\n/g, '\r\n')}\r\n`);
    if (this.keeper) {
      (this.keeper.stdio[3] as NodeJS.WritableStream | null)?.write(`${keeperRequest(input)}\n`);
    } else {
      this.spawnDirect(input.shellPath, file);
    }
    // Reported after executeCommand returned, as VS Code does.
    this.deps.onDidStart(this, execution);
  }

  private startKeeper(): void {
    const keeper = spawn('/bin/sh', ['-c', KEEPER_SCRIPT], {
      cwd: this.options.cwd,
      env: { ...process.env, TERM: process.env.TERM ?? 'xterm-256color', ...this.options.env },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.keeper = keeper;
    keeper.stdout?.on('data', (data: Buffer) => this.push(this.decoder.write(data)));
    keeper.stderr?.on('data', (data: Buffer) => this.push(data.toString('utf8').replace(/\r?\n/g, '\r\n')));
    (keeper.stdio[4] as NodeJS.ReadableStream | null)?.on('data', (data: Buffer) => this.onStatus(data.toString('utf8')));
    keeper.stdin?.on('error', () => undefined);
    (keeper.stdio[3] as NodeJS.WritableStream | null)?.on('error', () => undefined);
    keeper.on('error', (error) => this.deps.logger.warn(`terminal "${this.name}": its process failed`, error));
    keeper.on('exit', (code) => {
      if (this.running) this.finish(undefined);
      this.shutdown(code ?? undefined, 'shell');
    });
  }

  /** Windows: no keeper and no `script`; the command runs on pipes. */
  private spawnDirect(shellPath: string, file: string): void {
    const child = spawn(shellPath, shellFileArgs(this.options.shell.kind, file), {
      cwd: this.currentCwd,
      env: { ...process.env, ...this.options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (this.running) this.running = { ...this.running, child };
    const decoder = new StringDecoder('utf8');
    child.stdout?.on('data', (data: Buffer) => this.push(decoder.write(data).replace(/\r?\n/g, '\r\n')));
    child.stderr?.on('data', (data: Buffer) => this.push(data.toString('utf8').replace(/\r?\n/g, '\r\n')));
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => {
      this.push(`${error.message}\r\n`);
      this.finish(127);
    });
    child.on('close', (code, signal) => this.finish(code ?? (signal ? 130 : undefined)));
  }

  private onStatus(text: string): void {
    this.statusBuffer += text;
    let nl = this.statusBuffer.indexOf('\n');
    while (nl >= 0) {
      const line = this.statusBuffer.slice(0, nl).trim();
      this.statusBuffer = this.statusBuffer.slice(nl + 1);
      const code = /^\d+$/.test(line) ? Number(line) : undefined;
      this.finish(code);
      nl = this.statusBuffer.indexOf('\n');
    }
  }

  private finish(exitCode: number | undefined): void {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    void this.afterCommand(running, exitCode);
  }

  private async afterCommand(running: Running, exitCode: number | undefined): Promise<void> {
    const cwd = (await fs.readFile(running.cwdFile, 'utf8').catch(() => '')).trim();
    if (cwd) this.currentCwd = cwd;
    void fs.rm(running.file, { force: true }).catch(() => undefined);
    void fs.rm(running.cwdFile, { force: true }).catch(() => undefined);
    if (exitCode !== undefined && exitCode !== 0) this.write(DIM(`[exit code ${exitCode}]\r\n`));
    running.execution.end();
    this.deps.onDidEnd(this, running.execution, exitCode);
  }

  private push(chunk: string): void {
    if (chunk.length === 0) return;
    this.write(chunk);
    this.running?.execution.push(chunk);
  }

  private write(data: string): void {
    if (!this.isClosed) this.writeEmitter.fire(data);
  }

  private input(data: string): void {
    if (this.isClosed) return;
    if (!this.running) {
      if (!this.hinted) {
        this.hinted = true;
        this.write(DIM('\r\nNothing is running: commands come from Terminal Shepherd (terminal_run).\r\n'));
      }
      return;
    }
    const target = this.running.child?.stdin ?? this.keeper?.stdin;
    target?.write(data);
  }

  private setSize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
  }

  private shutdown(exitCode: number | undefined, reason: TerminalCloseReason): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.running) {
      const running = this.running;
      this.running = undefined;
      running.execution.end();
      running.child?.kill();
    }
    const keeper = this.keeper;
    if (keeper?.pid !== undefined && keeper.exitCode === null) {
      // Like closing a real terminal: SIGHUP to what runs there (found through the keeper before
      // it goes, as its children are reparented then), then the keeper.
      const keeperPid = keeper.pid;
      void this.deps
        .descendants(keeperPid)
        .catch(() => [])
        .then((tree) => {
          for (const p of [...tree].reverse()) signal(p.pid, 'SIGHUP');
          (keeper.stdio[3] as NodeJS.WritableStream | null)?.end();
          keeper.stdin?.end();
          signal(keeperPid, 'SIGHUP');
        });
    }
    this.closeEmitter.fire(exitCode);
    this.deps.onDidClose(this, exitCode, reason);
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}
