/**
 * Replays a recorded terminal session (VS Code's recording format: README of
 * ../shared/recordings/vscode-terminal) two ways, to compare them:
 *
 * - `referenceReplay`: what VS Code reads. The whole session in one headless xterm at the
 *   recorded size, commands cut at their 633/133 C and D marks (rows from C's cursor to D's).
 * - `productReplay`: what the product reads, through its own output layer as the live path uses
 *   it: the OSC parser finds the marks in the session's chunks, and each command's stream (from
 *   the chunk where its C mark begins to the one where its D mark ends, as VS Code's execution
 *   stream hands it over) goes through an OutputCapture of the terminal's size whose output starts
 *   where the terminal's cursor was at C (the one fact taken from the terminal, as an extension
 *   would learn it from the shell).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Terminal, type IBuffer, type IMarker } from '@xterm/headless';
import { OscParser } from '../../../extension/src/core/output/oscParser';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import type { ScreenOrigin } from '../../../extension/src/core/output/outputStart';
import { chunked, random } from './helpers';

export type RecordingEvent =
  | { readonly type: 'resize'; readonly cols: number; readonly rows: number }
  | { readonly type: 'output' | 'input' | 'sendText' | 'promptInputChange'; readonly data: string }
  | { readonly type: string; readonly commandLine?: string };

export interface Recording {
  readonly name: string;
  readonly recordedWith?: readonly string[];
  readonly vscodeTestExpectations?: {
    readonly commands: readonly string[] | null;
    readonly promptInput: string | null;
    /** In our own recordings: each command's output and exit code (null: none reported). */
    readonly outputs?: readonly string[];
    readonly exitCodes?: ReadonlyArray<number | null>;
  };
  readonly events: readonly RecordingEvent[];
}

export interface ReplayedCommand {
  readonly commandLine: string;
  readonly exitCode: number | undefined;
  readonly output: string;
}

export interface Replay {
  readonly commands: readonly ReplayedCommand[];
  /** What is typed at the last prompt (after its B mark), as the screen shows it. */
  readonly promptInput: string | undefined;
}

export interface Reference extends Replay {
  readonly cols: number;
  readonly rows: number;
  /** The cursor at each command's C mark, and at the last prompt's B mark. */
  readonly origins: readonly ScreenOrigin[];
  readonly promptOrigin: ScreenOrigin | undefined;
}

export function loadRecording(file: string): Recording {
  return JSON.parse(readFileSync(file, 'utf8')) as Recording;
}

export function outputChunks(recording: Recording): string[] {
  return recording.events.flatMap((e) => (e.type === 'output' && 'data' in e ? [e.data] : []));
}

export type Chunking = 'recorded' | 'chars' | 'random';

/** The session's output in pieces: as recorded, one character at a time, or split at random. */
export function rechunk(chunks: readonly string[], chunking: Chunking, seed: number): string[] {
  if (chunking === 'recorded') return [...chunks];
  const all = chunks.join('');
  return chunking === 'chars' ? Array.from(all) : chunked(all, random(seed), 64);
}

function size(recording: Recording): { cols: number; rows: number } {
  const resize = recording.events.find((e) => e.type === 'resize') as { cols: number; rows: number } | undefined;
  return { cols: resize?.cols ?? 80, rows: resize?.rows ?? 24 };
}

/** The text of buffer rows [from, to), soft-wrapped rows joined, the first from column `col`. */
function rowsText(buffer: IBuffer, from: number, col: number, to: number, endCol: number): string[] {
  const lines: string[] = [];
  for (let y = from; y <= to; y++) {
    const line = buffer.getLine(y);
    if (!line) break;
    const start = y === from ? col : 0;
    const end = y === to ? endCol : undefined;
    if (y === to && endCol <= start) break;
    const text = line.translateToString(end === undefined, start, end);
    if (line.isWrapped && lines.length > 0 && y !== from) lines[lines.length - 1] += text;
    else if (!(y === from && col > 0 && text.trim() === '' && !buffer.getLine(y + 1)?.isWrapped)) lines.push(text);
  }
  const trimmed = lines.map((l) => l.replace(/ +$/, ''));
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return trimmed;
}

function unescape633(value: string): string {
  return value.replace(/\\x([0-9a-fA-F]{2})|\\\\/g, (_match, hex: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : '\\'));
}

/** VS Code's reading of the session: one emulator, the rows between each command's C and D. */
export async function referenceReplay(recording: Recording): Promise<Reference> {
  const { cols, rows } = size(recording);
  const term = new Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true, logLevel: 'off' });
  const buffer = (): IBuffer => term.buffer.normal;
  const commands: ReplayedCommand[] = [];
  const origins: ScreenOrigin[] = [];
  let seen633 = false;
  let commandLine = '';
  let open: { col: number; marker: IMarker } | undefined;
  let prompt: { marker: IMarker; col: number } | undefined;
  const here = (): ScreenOrigin => ({ row: buffer().cursorY, col: buffer().cursorX });
  const mark = (): IMarker => {
    const marker = term.registerMarker(0);
    assert.ok(marker, 'a marker on the normal screen');
    return marker;
  };
  const onMark = (source: '633' | '133', body: string): boolean => {
    if (source === '633') seen633 = true;
    else if (seen633) return true;
    const [code, ...args] = body.split(';');
    if (code === 'E') commandLine = unescape633(args[0] ?? '');
    if (code === 'B') prompt = { marker: mark(), col: buffer().cursorX };
    if (code === 'C' && !open) {
      origins.push(here());
      open = { col: buffer().cursorX, marker: mark() };
      prompt = undefined;
    }
    if (code === 'D' && open) {
      const end = buffer().baseY + buffer().cursorY;
      const output = rowsText(buffer(), open.marker.line, open.col, end, buffer().cursorX).join('\n');
      const exit = /^-?\d+$/.test(args[0] ?? '') ? Number(args[0]) : undefined;
      commands.push({ commandLine, exitCode: exit, output });
      open = undefined;
      commandLine = '';
    }
    return true;
  };
  term.parser.registerOscHandler(633, (data) => onMark('633', data));
  term.parser.registerOscHandler(133, (data) => onMark('133', data));
  for (const chunk of outputChunks(recording)) {
    await new Promise<void>((resolve) => term.write(chunk, resolve));
  }
  if (open) {
    // The shell ended during the command (`exit 3`): VS Code ends it without an exit code.
    const output = rowsText(buffer(), open.marker.line, open.col, buffer().baseY + buffer().cursorY, cols).join('\n');
    commands.push({ commandLine, exitCode: undefined, output });
  }
  let promptInput: string | undefined;
  let promptOrigin: ScreenOrigin | undefined;
  if (prompt && !prompt.marker.isDisposed) {
    const end = buffer().baseY + rows - 1;
    promptInput = rowsText(buffer(), prompt.marker.line, prompt.col, end, cols).join('\n');
    promptOrigin = { row: prompt.marker.line - buffer().baseY, col: prompt.col };
  }
  term.dispose();
  return { commands, promptInput, cols, rows, origins, promptOrigin };
}

const C_MARK = /\x1b\](?:633|133);C/g;
const B_MARK = /\x1b\](?:633|133);B/g;

/** Raw index where the last match of `mark` begins in `raw`, or -1. */
function lastMark(raw: string, mark: RegExp): number {
  let index = -1;
  mark.lastIndex = 0;
  for (let m = mark.exec(raw); m; m = mark.exec(raw)) index = m.index;
  return index;
}

/**
 * The product's reading of the session, chunk by chunk. `origins` and `promptOrigin` are the
 * terminal's cursor at each C and at the last B (from `referenceReplay`).
 */
export async function productReplay(chunks: readonly string[], reference: Reference): Promise<Replay> {
  const { cols, rows } = reference;
  const parser = new OscParser();
  const commands: ReplayedCommand[] = [];
  let raw = '';
  let commandLine = '';
  let seen633 = false;
  let capture: OutputCapture | undefined;
  let afterPrompt: number | undefined;
  /** Raw index where the stream of the command that ended last stopped. */
  let streamEnd = 0;
  for (const chunk of chunks) {
    const chunkStart = raw.length;
    raw += chunk;
    const { markers } = parser.parse(chunk);
    let fed = false;
    for (const marker of markers) {
      if (marker.source === '633') seen633 = true;
      else if (seen633) continue;
      if (marker.kind === 'commandLine') commandLine = marker.value;
      if (marker.kind === 'commandStart') afterPrompt = raw.length;
      if (marker.kind === 'commandExecuted' && !capture) {
        afterPrompt = undefined;
        const origin = reference.origins[commands.length];
        // Whole outputs, compared with VS Code's: the result's size limit is not what a recording tests.
        capture = new OutputCapture({ cols, rows, limitChars: 100_000, ...(origin ? { origin } : {}) });
        // VS Code's stream begins with the chunk in which the C mark begins.
        const cStart = lastMark(raw, C_MARK);
        const from = Math.max(streamEnd, Math.min(chunkStart, cStart < 0 ? chunkStart : cStart));
        capture.write(raw.slice(from));
        fed = true;
      }
      if (marker.kind === 'commandFinished' && capture) {
        if (!fed) capture.write(chunk);
        fed = true;
        await capture.close();
        const exitCode = capture.reportedExitCode ?? marker.exitCode;
        commands.push({ commandLine, exitCode, output: capture.snapshot().output });
        capture = undefined;
        commandLine = '';
        streamEnd = raw.length;
      }
    }
    if (capture && !fed) capture.write(chunk);
  }
  if (capture) {
    await capture.close();
    commands.push({ commandLine, exitCode: undefined, output: capture.snapshot().output });
  }
  let promptInput: string | undefined;
  if (afterPrompt !== undefined && reference.promptOrigin) {
    // The typed input: the data after the last prompt's B mark, rendered from B's cursor.
    const bStart = lastMark(raw, B_MARK);
    const bEnd = raw.indexOf('\x07', bStart);
    const input = new OutputCapture({ cols, rows, origin: reference.promptOrigin, stripPromptAndEcho: false });
    input.write(raw.slice(bEnd + 1));
    await input.close();
    promptInput = input.snapshot().output;
  }
  return { commands, promptInput };
}
