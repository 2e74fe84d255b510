/**
 * The output of one run: raw terminal data in, "what the terminal shows" out, bounded.
 *
 *   write(raw) -> OscParser (markers out) -> prompt/echo filter -> TerminalRenderer -> text stream
 *
 * The text stream (finished lines) is kept only as a head (first half of the limit) and a tail
 * (last half); the current screen is read from the renderer on demand. When the output first
 * exceeds the limit, a log file is opened and receives the whole stream: what was seen so far
 * (still fully in memory until then, as it is under the limit), everything after, and the final
 * screen at close. Memory is bounded by the limit, the renderer's fixed buffers and the file's
 * write batch, whatever the output size.
 */
import type { Logger } from '../../../../common/src/logger';
import { Emitter } from '../events';
import { LogFileWriter } from './logFile';
import { OscParser, type ShellMarker } from './oscParser';
import { TerminalRenderer } from './terminalRenderer';

export interface OutputCaptureOptions {
  /** Most characters a snapshot carries (default 16,000). */
  readonly limitChars?: number;
  /** Path of the log file, asked for once, when the output first exceeds the limit. */
  readonly logFilePath?: () => string;
  /**
   * Drop what the shell prints between VS Code's prompt-start/command-finished and
   * command-executed markers (the prompt and the echoed command line), default true. Only OSC 633
   * markers count: a nested program's own OSC 133 markers must not hide its output.
   */
  readonly stripPromptAndEcho?: boolean;
  readonly cols?: number;
  readonly rows?: number;
  readonly sliceChars?: number;
  /** Render long runs of plain lines without the emulator (default true). */
  readonly fastPath?: boolean;
  /** `write` returns false while more than this many characters wait for the renderer or disk. */
  readonly highWaterChars?: number;
  readonly logger?: Logger;
  /** Called once when the log file cannot be created or written (the user is told elsewhere). */
  readonly onLogFileFailure?: (path: string, error: Error) => void;
}

export interface OutputSnapshot {
  readonly output: string;
  readonly truncated: boolean;
  /** Characters of the whole rendered output (not just of `output`). */
  readonly totalChars: number;
  readonly totalLines: number;
  /** The log file holding the whole output; set when truncated and the file could be written. */
  readonly outputFile?: string;
  /** Why the whole output could not be saved, when it is truncated and the log file failed. */
  readonly outputFileError?: string;
}

/** What the capture holds in memory right now: the figures its memory bound is proven with. */
export interface OutputCaptureStats {
  readonly headChars: number;
  readonly tailChars: number;
  readonly rendererPendingChars: number;
  readonly fileBufferedChars: number;
}

const DEFAULT_LIMIT = 16_000;
/** The property through which a command line reports its real exit code (PowerShell: see commandText.ts). */
export const EXIT_CODE_PROPERTY = 'TshepExitCode';

type Region = 'output' | 'prompt';

export class OutputCapture {
  readonly limit: number;
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly osc = new OscParser();
  private readonly renderer: TerminalRenderer;
  private readonly stripPrompt: boolean;
  private readonly highWater: number;
  private readonly logFilePath: (() => string) | undefined;
  private readonly logger: Logger | undefined;
  private readonly onLogFileFailure: ((path: string, error: Error) => void) | undefined;

  /** First headCap characters of the finished text stream. */
  private head = '';
  /** The whole stream until it exceeds the limit, then at least its last tailCap characters. */
  private tailText = '';
  private finalChars = 0;
  private finalNewlines = 0;
  /** Newlines at the very end of the stream (blank lines that scrolled off last). */
  private trailingNewlines = 0;
  private spilled = false;
  private file: LogFileWriter | undefined;
  private fileError: string | undefined;

  private region: Region = 'output';
  private exitCodeProperty: number | undefined;
  private droppedSinceOutput = false;
  private renderedAny = false;

  private readonly writeEmitter = new Emitter<void>();
  /** Fires synchronously when a write carried visible data (not for marker-only or prompt data). */
  readonly onDidWrite = this.writeEmitter.event;
  private closing: Promise<void> | undefined;
  private finalScreen: readonly string[] | undefined;
  private rendererErrorReported = false;

  constructor(options: OutputCaptureOptions = {}) {
    this.limit = Math.max(200, Math.floor(options.limitChars ?? DEFAULT_LIMIT));
    this.headCap = Math.ceil(this.limit / 2);
    this.tailCap = Math.ceil(this.limit / 2);
    this.stripPrompt = options.stripPromptAndEcho ?? true;
    this.highWater = options.highWaterChars ?? 8 * 1024 * 1024;
    this.logFilePath = options.logFilePath;
    this.logger = options.logger;
    this.onLogFileFailure = options.onLogFileFailure;
    this.renderer = new TerminalRenderer({
      onOutput: (text) => this.onRendered(text),
      ...(options.cols !== undefined ? { cols: options.cols } : {}),
      ...(options.rows !== undefined ? { rows: options.rows } : {}),
      ...(options.sliceChars !== undefined ? { sliceChars: options.sliceChars } : {}),
      ...(options.fastPath !== undefined ? { fastPath: options.fastPath } : {}),
    });
  }

  // -------------------------------------------------------------------------------------------
  // Input

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
    let rendered = false;
    if (markers.length === 0) {
      rendered = this.route(data);
    } else {
      let pos = 0;
      for (const marker of markers) {
        rendered = this.route(data.slice(pos, marker.offset)) || rendered;
        pos = marker.offset;
        const { offset: _offset, ...plain } = marker;
        this.onMarkerSeen(plain as ShellMarker);
      }
      rendered = this.route(data.slice(pos)) || rendered;
    }
    if (rendered) {
      this.writeEmitter.fire();
    }
    return this.renderer.pendingChars + (this.file?.bufferedChars ?? 0) < this.highWater;
  }

  /** Resolves once everything written so far is rendered (and the log file has caught up). */
  async flush(): Promise<void> {
    await this.renderer.flush();
    this.reportRendererError();
    if (this.file && this.file.bufferedChars >= this.highWater) {
      await this.file.drain();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  /** The output as it stands (after the last processed write), truncated to the limit. */
  snapshot(): OutputSnapshot {
    const screen = this.screenText();
    const total = this.canonicalLength(screen);
    const totalLines = this.canonicalLines(screen);
    if (total > this.limit && !this.spilled) {
      this.spill();
    }
    if (total <= this.limit) {
      const stream = this.wholeStream();
      if (stream !== undefined) {
        return { output: canonical(stream, screen), truncated: false, totalChars: total, totalLines };
      }
    }
    return this.truncatedSnapshot(screen, total, totalLines);
  }

  /** Characters of the whole rendered output so far. */
  get totalChars(): number {
    return this.canonicalLength(this.screenText());
  }

  get totalLines(): number {
    return this.canonicalLines(this.screenText());
  }

  /** The last `count` lines of the output, oldest first (for prompt detection). */
  lastLines(count: number): string[] {
    if (count <= 0) {
      return [];
    }
    const screen = this.screenLines();
    if (screen.length > count) {
      return screen.slice(-count);
    }
    // Take just enough of the tail: count + 1 line breaks back from its (canonical) end.
    const text = this.tailText;
    const end = screen.length > 0 ? text.length : Math.max(0, text.length - this.trailingNewlines);
    let start = end;
    for (let found = 0; found <= count && start > 0; found++) {
      const nl = text.lastIndexOf('\n', start - 1);
      start = nl < 0 ? 0 : nl;
    }
    let joined = text.slice(start === 0 ? 0 : start + 1, end);
    if (screen.length > 0) {
      joined += screen.join('\n');
    }
    if (joined.length === 0) {
      return [];
    }
    return joined.split('\n').slice(-count);
  }

  /** The exit code the command line reported itself (`OSC 633 ; P ; TshepExitCode=N`), if it did. */
  get reportedExitCode(): number | undefined {
    return this.exitCodeProperty;
  }

  /** The log file path once the output exceeded the limit, while the file is being written fine. */
  get outputFile(): string | undefined {
    return this.file && this.logFileError === undefined ? this.file.path : undefined;
  }

  /** Why the log file failed (it could not be created, or a write failed), as soon as it is known. */
  get logFileError(): string | undefined {
    if (this.fileError === undefined && this.file?.error) {
      this.failLogFile(this.file.path, this.file.error);
    }
    return this.fileError;
  }

  stats(): OutputCaptureStats {
    return {
      headChars: this.head.length,
      tailChars: this.tailText.length,
      rendererPendingChars: this.renderer.pendingChars,
      fileBufferedChars: this.file?.bufferedChars ?? 0,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Events and lifetime

  /**
   * Renders what is pending, writes the final screen to the log file (opening it now if the
   * output exceeds the limit) and closes it. Later writes are ignored; reading keeps working.
   */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  /** Closes in the background (idempotent); errors are logged, not thrown. */
  dispose(): void {
    this.writeEmitter.dispose();
    void this.close().catch((error) => this.logger?.warn('closing output capture failed', error));
  }

  private async doClose(): Promise<void> {
    const rest = this.osc.end();
    if (rest.length > 0) {
      this.route(rest);
    }
    await this.renderer.flush();
    this.reportRendererError();
    const screen = [...this.renderer.currentScreen()];
    const screenText = screen.join('\n');
    if (!this.spilled && this.canonicalLength(screenText) > this.limit) {
      this.spill();
    }
    this.finalScreen = screen;
    this.renderer.dispose();
    if (this.file) {
      await this.file.close(screenText);
      if (this.file.error && !this.fileError) {
        this.failLogFile(this.file.path, this.file.error);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  /** Sends data of the current region to the renderer; true if anything visible was sent. */
  private route(data: string): boolean {
    if (data.length === 0) {
      return false;
    }
    if (this.region === 'prompt') {
      this.droppedSinceOutput = true;
      return false;
    }
    this.renderer.write(data);
    this.renderedAny = true;
    return true;
  }

  /** VS Code's prompt and command-start markers switch between dropping (prompt, echo) and rendering. */
  private onMarkerSeen(marker: ShellMarker): void {
    if (marker.kind === 'property' && marker.key === EXIT_CODE_PROPERTY && /^-?\d{1,10}$/.test(marker.value)) {
      this.exitCodeProperty = Number(marker.value);
    }
    if (this.stripPrompt && marker.source === 'vscode') {
      switch (marker.kind) {
        case 'promptStart':
        case 'commandStart':
        case 'continuationStart':
        case 'continuationEnd':
        case 'rightPromptStart':
        case 'rightPromptEnd':
        case 'commandFinished':
          this.region = 'prompt';
          break;
        case 'commandExecuted':
          if (this.region === 'prompt' && this.droppedSinceOutput && this.renderedAny) {
            // Output after a dropped prompt starts on a new line, as it did on the real screen.
            this.renderer.ensureLineStart();
          }
          this.region = 'output';
          this.droppedSinceOutput = false;
          break;
        default:
          break;
      }
    }
  }

  /** Receives finished text from the renderer (synchronously, while it parses). */
  private onRendered(text: string): void {
    this.finalChars += text.length;
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      this.finalNewlines++;
      nl = text.indexOf('\n', nl + 1);
    }
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 0x0a) {
      end--;
    }
    this.trailingNewlines = end === 0 ? this.trailingNewlines + text.length : text.length - end;
    if (this.head.length < this.headCap) {
      this.head += text.length <= this.headCap - this.head.length ? text : text.slice(0, this.headCap - this.head.length);
    }
    if (this.spilled) {
      this.file?.append(text);
      if (text.length >= this.tailCap) {
        this.tailText = text.slice(-this.tailCap);
      } else {
        this.tailText += text;
        if (this.tailText.length > 2 * this.tailCap) {
          this.tailText = this.tailText.slice(-this.tailCap);
        }
      }
      return;
    }
    this.tailText += text;
    if (this.finalChars > this.limit) {
      this.spill();
    }
  }

  /** The output outgrew the limit: open the log file and hand it everything so far. */
  private spill(): void {
    this.spilled = true;
    if (this.logFilePath && !this.fileError) {
      const path = this.logFilePath();
      try {
        this.file = new LogFileWriter(path);
        this.file.append(this.tailText); // still the whole stream: it was under the limit
      } catch (error) {
        this.failLogFile(path, error instanceof Error ? error : new Error(String(error)));
      }
    }
    if (this.tailText.length > 2 * this.tailCap) {
      this.tailText = this.tailText.slice(-this.tailCap);
    }
  }

  private failLogFile(path: string, error: Error): void {
    // "ENOSPC: no space left on device", without the path that follows the comma.
    this.fileError = error.message.split(', ')[0] ?? error.message;
    this.logger?.warn(`cannot write the output log file ${path}`, error);
    this.onLogFileFailure?.(path, error);
  }

  private screenLines(): readonly string[] {
    return this.finalScreen ?? this.renderer.currentScreen();
  }

  private screenText(): string {
    return this.screenLines().join('\n');
  }

  /** Length of stream + screen, without the blank lines a stream ends with when the screen is empty. */
  private canonicalLength(screen: string): number {
    return screen.length > 0 ? this.finalChars + screen.length : this.finalChars - this.trailingNewlines;
  }

  private canonicalNewlines(screen: string): number {
    return screen.length > 0 ? this.finalNewlines + countNewlines(screen) : this.finalNewlines - this.trailingNewlines;
  }

  private canonicalLines(screen: string): number {
    return this.canonicalLength(screen) === 0 ? 0 : this.canonicalNewlines(screen) + 1;
  }

  /** The whole finished stream if head and tail still cover it, else undefined. */
  private wholeStream(): string | undefined {
    if (!this.spilled || this.tailText.length === this.finalChars) {
      return this.tailText;
    }
    const overlap = this.head.length + this.tailText.length - this.finalChars;
    if (this.head.length < this.headCap || overlap < 0) {
      return undefined;
    }
    return this.head + this.tailText.slice(overlap);
  }

  private truncatedSnapshot(screen: string, total: number, totalLines: number): OutputSnapshot {
    const file = this.outputFile;
    const fileError = this.logFileError;
    const marker = (chars: number, lines: number): string => {
      const where = file
        ? `; full output in ${file}`
        : fileError !== undefined
          ? `; full output could not be saved (${fileError})`
          : '';
      return `[... ${formatCount(chars)} characters (${formatCount(lines)} lines) omitted${where} ...]`;
    };
    // Budget with the widest the marker can get, so the result never exceeds the limit.
    const budget = Math.max(0, this.limit - marker(total, totalLines).length - 2);
    const headBudget = Math.floor(budget / 2);
    const tailBudget = budget - headBudget;

    // Ending at a line break is worth a little room, not much (lines can be very long).
    const slack = Math.max(80, Math.floor(budget * 0.05));

    // Head: the first characters of stream + screen (one more to see what follows).
    let headSource = this.head.slice(0, headBudget + 1);
    if (this.finalChars < headBudget + 1 && screen.length > 0) {
      headSource += screen.slice(0, headBudget + 1 - this.finalChars);
    }
    let head = headSource.slice(0, headBudget);
    if (!head.endsWith('\n') && headSource.charCodeAt(headBudget) !== 0x0a) {
      const lastBreak = head.lastIndexOf('\n');
      if (lastBreak >= 0 && lastBreak >= head.length - 1 - slack) {
        head = head.slice(0, lastBreak + 1);
      }
    }

    // Tail: the last characters, moved to the next line start if one is near.
    const streamEnd = screen.length > 0 ? this.tailText : this.tailText.slice(0, Math.max(0, this.tailText.length - this.trailingNewlines));
    const tailSource = streamEnd + screen;
    let tailStart = Math.max(0, tailSource.length - tailBudget);
    if (tailStart > 0 && tailSource.charCodeAt(tailStart - 1) !== 0x0a) {
      const nextBreak = tailSource.indexOf('\n', tailStart);
      if (nextBreak >= 0 && nextBreak - tailStart <= slack) {
        tailStart = nextBreak + 1;
      }
    }
    const tail = tailSource.slice(tailStart);

    // Omitted lines are those not shown at all: a line cut at the end of the head is partly shown.
    const omittedChars = Math.max(0, total - head.length - tail.length);
    const omittedBreaks = this.canonicalNewlines(screen) - countNewlines(head) - countNewlines(tail);
    const partialHeadLine = head.length > 0 && !head.endsWith('\n') && omittedBreaks > 0 ? 1 : 0;
    const omittedLines = Math.max(0, omittedBreaks - partialHeadLine);
    const output = `${head}${head.length === 0 || head.endsWith('\n') ? '' : '\n'}${marker(omittedChars, omittedLines)}\n${tail}`;
    const snapshot: OutputSnapshot = { output, truncated: true, totalChars: total, totalLines };
    return file ? { ...snapshot, outputFile: file } : fileError !== undefined ? { ...snapshot, outputFileError: fileError } : snapshot;
  }

  private reportRendererError(): void {
    const error = this.renderer.error;
    if (error && !this.rendererErrorReported) {
      this.rendererErrorReported = true;
      this.logger?.warn('rendering terminal output failed', error);
    }
  }
}

/** Stream + screen as one text, without trailing blank lines. */
function canonical(stream: string, screen: string): string {
  if (screen.length > 0) {
    return stream + screen;
  }
  let end = stream.length;
  while (end > 0 && stream.charCodeAt(end - 1) === 0x0a) {
    end--;
  }
  return stream.slice(0, end);
}

function countNewlines(text: string): number {
  let count = 0;
  let i = text.indexOf('\n');
  while (i >= 0) {
    count++;
    i = text.indexOf('\n', i + 1);
  }
  return count;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
