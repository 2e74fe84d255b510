/**
 * The output of one run: raw terminal data in, "what the terminal shows" out, bounded. It
 * composes the stages, one file each:
 *
 *   write(raw) -> OscParser (markers out) -> PromptEchoFilter -> TerminalRenderer
 *              -> BoundedOutput (head/tail text) -> OutputSpill (log file, past the limit)
 *   snapshot() -> the whole output, or truncatedText() once it exceeds the limit
 *
 * The renderer emits finished lines as a stream; the current screen is read from it on demand.
 * A shell that reports its screen when the command starts (PowerShell, SCREEN_PROPERTY) gets a
 * renderer of that size, its output rendered from that cursor: the one made up front is replaced
 * when its size differs (the factory remembers each terminal's size, so that is the first run's).
 * When the output first exceeds the limit, the log file receives the whole stream: what was seen
 * so far (still fully in memory until then, as it is under the limit), everything after, and the
 * final screen at close. A run that lasts longer than persistAfterMs writes its stream there as it
 * goes, whatever its size, so a window that dies mid-run leaves its output readable; if it then
 * ends within the limit the file is removed (the result holds it all). Memory is bounded by the
 * limit, the renderer's fixed buffers and the file's write batch, whatever the output size.
 */
import type { Logger } from '../../../../common/src/logger';
import type { ExitCodeSource } from '../../../../common/src/protocol';
import { clampSetting, settingsTable } from '../../../../common/src/settings';
import { Emitter } from '../events';
import { BoundedOutput } from './boundedOutput';
import { OscParser } from './oscParser';
import { OutputSpill, type OutputSpillOptions } from './outputSpill';
import { PromptEchoFilter } from './promptEchoFilter';
import type { RunOutput, RunOutputSnapshot } from './runOutput';
import type { ScreenOrigin, ScreenReport } from './outputStart';
import { TerminalRenderer } from './terminalRenderer';
import { truncatedText } from './truncatedText';

export interface OutputCaptureOptions extends OutputSpillOptions {
  /** Most characters a snapshot carries: the output.limitChars setting's default and range apply. */
  readonly limitChars?: number;
  /**
   * Drop what the shell prints between VS Code's prompt-start/command-finished and
   * command-executed markers (the prompt and the echoed command line), default true.
   */
  readonly stripPromptAndEcho?: boolean;
  /** The real terminal's size, where it is known (with `origin`); otherwise a wide renderer. */
  readonly cols?: number;
  readonly rows?: number;
  /**
   * The cursor on the real screen (of `cols` x `rows`) when the command started: its output is
   * rendered from there, so ConPTY's absolute-row repaints land where they did.
   */
  readonly origin?: ScreenOrigin;
  /** The shell reported its screen (the output is rendered on one that size from then on). */
  readonly onScreen?: (report: ScreenReport) => void;
  readonly sliceChars?: number;
  /** Render long runs of plain lines without the emulator (default true). */
  readonly fastPath?: boolean;
  /** `write` returns false while more than this many characters wait for the renderer or disk. */
  readonly highWaterChars?: number;
  /** A run still going after this long writes its output to its log file as it arrives (default 2 s). */
  readonly persistAfterMs?: number;
}

/** See OutputCaptureOptions.persistAfterMs. */
export const PERSIST_AFTER_MS = 2000;

/** A snapshot with the size of the whole output. */
export interface OutputSnapshot extends RunOutputSnapshot {
  /** Characters of the whole rendered output (not just of `output`). */
  readonly totalChars: number;
  readonly totalLines: number;
}

/** What the capture holds in memory right now: the figures its memory bound is proven with. */
export interface OutputCaptureStats {
  readonly headChars: number;
  readonly tailChars: number;
  readonly rendererPendingChars: number;
  readonly fileBufferedChars: number;
}

export class OutputCapture implements RunOutput {
  readonly limit: number;
  private readonly osc = new OscParser();
  private renderer: TerminalRenderer;
  private readonly rendererOptions: Pick<OutputCaptureOptions, 'sliceChars' | 'fastPath'>;
  private readonly onScreen: ((report: ScreenReport) => void) | undefined;
  private readonly filter: PromptEchoFilter;
  private readonly spill: OutputSpill;
  private readonly stream: BoundedOutput;
  private readonly highWater: number;
  private readonly logger: Logger | undefined;

  private readonly writeEmitter = new Emitter<void>();
  /** Fires synchronously when a write carried visible data (not for marker-only or prompt data). */
  readonly onDidWrite = this.writeEmitter.event;
  private closing: Promise<void> | undefined;
  private finalScreen: readonly string[] | undefined;
  private rendererErrorReported = false;
  private persistTimer: NodeJS.Timeout | undefined;

  constructor(options: OutputCaptureOptions = {}) {
    this.limit = clampSetting(settingsTable['output.limitChars'], options.limitChars);
    this.highWater = options.highWaterChars ?? 8 * 1024 * 1024;
    this.logger = options.logger;
    this.spill = new OutputSpill({ ...options, screen: () => (this.closing ? '' : this.screenText()) });
    this.stream = new BoundedOutput(this.limit, this.spill);
    this.rendererOptions = options;
    this.onScreen = options.onScreen;
    this.renderer = this.newRenderer(options.cols, options.rows);
    const target = {
      write: (data: string) => this.renderer.write(data),
      ensureLineStart: () => this.renderer.ensureLineStart(),
      startAt: (origin: ScreenOrigin, clearScreen?: boolean) => this.renderer.startAt(origin, clearScreen),
      screen: (report: ScreenReport) => this.useScreen(report),
    };
    this.filter = new PromptEchoFilter(target, options.stripPromptAndEcho ?? true, options.origin);
    if (options.logFilePath) {
      this.persistTimer = setTimeout(() => {
        this.persistTimer = undefined;
        if (!this.closing) this.stream.persist();
      }, options.persistAfterMs ?? PERSIST_AFTER_MS);
      this.persistTimer.unref();
    }
  }

  /**
   * Feeds raw terminal data. Markers take effect synchronously; the text is rendered
   * asynchronously (await `flush()` before reading). Returns false while the renderer or the log
   * file lag far behind; a producer that can wait should then await `flush()`.
   */
  write(raw: string): boolean {
    if (this.closing || raw.length === 0) {
      return true;
    }
    const { data, markers } = this.osc.parse(raw);
    if (this.filter.pass(data, markers)) {
      this.writeEmitter.fire();
    }
    return this.renderer.pendingChars + this.spill.bufferedChars < this.highWater;
  }

  /** Resolves once everything written so far is rendered (and the log file has caught up). */
  async flush(): Promise<void> {
    await this.flushRenderer();
    this.reportRendererError();
    // The disk gets half the allowance: output that outruns it waits here, not in memory.
    if (this.spill.bufferedChars >= this.highWater / 2) {
      await this.spill.drain();
    }
  }

  /** The output as it stands (after the last processed write), truncated to the limit. */
  snapshot(): OutputSnapshot {
    const screen = this.screenText();
    const totalChars = this.stream.length(screen);
    const totalLines = this.stream.lines(screen);
    if (totalChars > this.limit) {
      this.stream.overflow();
    } else {
      const whole = this.stream.whole(screen);
      if (whole !== undefined) {
        // A long run's live log, while it runs.
        const live = this.closing ? undefined : this.outputFile;
        return { output: whole, truncated: false, totalChars, totalLines, ...(live ? { outputFile: live } : {}) };
      }
    }
    const file = this.outputFile;
    const fileError = this.logFileError;
    const snapshot: OutputSnapshot = { output: truncatedText(this.stream, screen, { file, error: fileError }), truncated: true, totalChars, totalLines };
    return file ? { ...snapshot, outputFile: file } : fileError !== undefined ? { ...snapshot, outputFileError: fileError } : snapshot;
  }

  /** Characters of the whole rendered output so far. */
  get totalChars(): number {
    return this.stream.length(this.screenText());
  }

  get totalLines(): number {
    return this.stream.lines(this.screenText());
  }

  /** The last `count` lines of the output, oldest first (for prompt detection). */
  lastLines(count: number): string[] {
    return this.stream.lastLines(this.screenLines(), count);
  }

  /** The exit code the command line reported itself (`OSC 633 ; P ; TshepExitCode=N`), if it did. */
  get reportedExitCode(): number | undefined {
    return this.filter.reportedExitCode;
  }

  get reportedExitSource(): ExitCodeSource | undefined {
    return this.filter.reportedExitSource;
  }

  /** The log file path once the output exceeded the limit, while the file is being written fine. */
  get outputFile(): string | undefined {
    return this.spill.path;
  }

  /** Why the log file failed (it could not be created, or a write failed), as soon as it is known. */
  get logFileError(): string | undefined {
    return this.spill.error;
  }

  stats(): OutputCaptureStats {
    return {
      headChars: this.stream.head.length,
      tailChars: this.stream.tailChars,
      rendererPendingChars: this.renderer.pendingChars,
      fileBufferedChars: this.spill.bufferedChars,
    };
  }

  /**
   * Renders what is pending, writes the final screen to the log file (opening it now if the
   * output exceeds the limit) and closes it. Later writes are ignored; reading keeps working.
   */
  close(options: { readonly keepLog?: boolean } = {}): Promise<void> {
    this.closing ??= this.doClose(options.keepLog === true);
    return this.closing;
  }

  /** Closes in the background (idempotent); errors are logged, not thrown. */
  dispose(): void {
    this.writeEmitter.dispose();
    void this.close().catch((error) => this.logger?.warn('closing output capture failed', error));
  }

  private async doClose(keepLog: boolean): Promise<void> {
    clearTimeout(this.persistTimer);
    this.filter.pass(this.osc.end());
    await this.flushRenderer();
    this.reportRendererError();
    const screen = [...this.renderer.currentScreen()];
    const screenText = screen.join('\n');
    const truncated = this.stream.length(screenText) > this.limit;
    if (truncated) {
      this.stream.overflow();
    }
    this.finalScreen = screen;
    this.renderer.dispose();
    await this.spill.close(screenText, truncated || keepLog);
  }

  private newRenderer(cols: number | undefined, rows: number | undefined): TerminalRenderer {
    const { sliceChars, fastPath } = this.rendererOptions;
    const renderer: TerminalRenderer = new TerminalRenderer({
      // A replaced renderer's last lines are the shell's, not output (see useScreen).
      onOutput: (text) => {
        if (renderer === this.renderer) this.stream.append(text);
      },
      ...(cols !== undefined ? { cols } : {}),
      ...(rows !== undefined ? { rows } : {}),
      ...(sliceChars !== undefined ? { sliceChars } : {}),
      ...(fastPath !== undefined ? { fastPath } : {}),
    });
    return renderer;
  }

  /**
   * The first command's screen, reported before it ran: its output is rendered from that cursor
   * on a renderer of that size. Whatever the renderer had was the prompt's or the echo's: a
   * renderer of another size is replaced, one of the same size cleared.
   */
  private useScreen(report: ScreenReport): void {
    this.onScreen?.(report);
    if (report.cols === this.renderer.cols && report.rows === this.renderer.rows) {
      this.renderer.startAt(report, true);
      return;
    }
    const replaced = this.renderer;
    this.renderer = this.newRenderer(report.cols, report.rows);
    replaced.dispose();
    this.renderer.startAt(report);
  }

  /** Waits for the renderer, and for the one that replaced it meanwhile (a screen report). */
  private async flushRenderer(): Promise<void> {
    let renderer: TerminalRenderer;
    do {
      renderer = this.renderer;
      await renderer.flush();
    } while (renderer !== this.renderer);
  }

  private screenLines(): readonly string[] {
    return this.finalScreen ?? this.renderer.currentScreen();
  }

  private screenText(): string {
    return this.screenLines().join('\n');
  }

  private reportRendererError(): void {
    const error = this.renderer.error;
    if (error && !this.rendererErrorReported) {
      this.rendererErrorReported = true;
      this.logger?.warn('rendering terminal output failed', error);
    }
  }
}
