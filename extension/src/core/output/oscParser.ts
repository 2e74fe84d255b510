/**
 * Streaming parser that lifts shell-integration markers out of raw terminal data.
 *
 * VS Code's shell integration (OSC 633) and FinalTerm-style integration (OSC 133) mark where a
 * prompt starts, where the command runs, and its exit code. The run logic needs those markers; the
 * renderer must not see them (they are invisible anyway, but their positions delimit prompt and
 * echo). Everything else, including other OSC sequences (titles, OSC 8 hyperlinks), passes through
 * byte for byte so the terminal emulator interprets it exactly as a real terminal would.
 *
 * Data arrives in arbitrary chunks, so a sequence may be split anywhere; the parser keeps just
 * enough state to resume. Termination follows xterm.js (the emulator VS Code and our renderer
 * use): BEL, ESC (normally as ESC \), or 8-bit ST end an OSC; CAN/SUB and other C1 controls
 * abort it; other C0 controls inside it are ignored. A marker longer than `maxMarkerChars` is
 * dropped instead of being buffered forever.
 */

import { parseMarkerBody, type PositionedShellMarker } from './shellMarkers';

export interface OscParseResult {
  /** The input with shell-integration sequences removed; everything else untouched. */
  readonly data: string;
  /** Markers in stream order; `offset` is the index in `data` at which each occurred. */
  readonly markers: PositionedShellMarker[];
}

export interface OscParserOptions {
  /** Longest marker body kept; longer ones are discarded (default 64 KiB). */
  readonly maxMarkerChars?: number;
}

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const ST8 = 0x9c;

const enum State {
  Ground,
  /** ESC seen and held back: it may open a marker we must remove. */
  Escape,
  /** ESC already emitted (it ended a passed-through OSC); what follows decides its meaning. */
  EscapeEmitted,
  /** Inside an OSC, collecting the first characters to learn whether it is 633/133. */
  OscPrefix,
  /** Inside a 633/133 OSC: buffering its body. */
  OscMarker,
  /** Inside another OSC: streaming it through. */
  OscPass,
  /** Inside a marker that exceeded the cap: discarding until it ends. */
  OscDrop,
}

const MARKER_PREFIXES = ['633;', '133;'];

/** C0 controls xterm executes without changing the parser state (all but CAN, SUB, ESC). */
function isExecutable(code: number): boolean {
  return code <= 0x17 || code === 0x19 || (code >= 0x1c && code <= 0x1f);
}

/** C0 controls xterm ignores inside an OSC string (the executables except BEL, which ends it). */
function isIgnoredInOsc(code: number): boolean {
  return code !== BEL && isExecutable(code);
}

export class OscParser {
  private state = State.Ground;
  /** Characters of the current OSC after `ESC ]` (marker body or the undecided prefix). */
  private body = '';
  /** True when the ESC that opened the current OSC was already emitted (see EscapeEmitted). */
  private openerEmitted = false;
  /** True when the held ESC ended a marker: with a following backslash it is the ST, dropped. */
  private escEndedMarker = false;
  private readonly maxMarkerChars: number;

  constructor(options: OscParserOptions = {}) {
    this.maxMarkerChars = Math.max(16, options.maxMarkerChars ?? 64 * 1024);
  }

  /** Feeds one chunk; returns the data to render and the markers found, in order. */
  parse(chunk: string): OscParseResult {
    const out: string[] = [];
    let outLength = 0;
    const markers: PositionedShellMarker[] = [];
    const emit = (s: string): void => {
      if (s.length > 0) {
        out.push(s);
        outLength += s.length;
      }
    };
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case State.Ground: {
          // Fast path: pass through runs of text, including escape sequences that are not OSC
          // (colors, cursor movement), and stop only where an OSC may start.
          const runStart = i;
          for (;;) {
            const esc = chunk.indexOf('\x1b', i);
            if (esc < 0) {
              emit(runStart === 0 ? chunk : chunk.slice(runStart));
              i = n;
              break;
            }
            const next = esc + 1 < n ? chunk.charCodeAt(esc + 1) : -1;
            if (next === 0x5d /* ] */) {
              emit(chunk.slice(runStart, esc));
              this.openerEmitted = false;
              this.state = State.OscPrefix;
              this.body = '';
              i = esc + 2;
              break;
            }
            if (next < 0 || next === ESC || next === 0x7f || isExecutable(next)) {
              // ESC at the chunk end, or followed by a control: let the state machine decide.
              emit(chunk.slice(runStart, esc));
              this.state = State.Escape;
              i = esc + 1;
              break;
            }
            i = esc + 2; // ESC + an ordinary character: not an OSC, keep scanning
          }
          break;
        }
        case State.Escape:
        case State.EscapeEmitted: {
          const code = chunk.charCodeAt(i);
          const held = this.state === State.Escape ? '\x1b' : '';
          const endedMarker = this.escEndedMarker;
          this.escEndedMarker = false;
          if (endedMarker && code === 0x5c /* \ */) {
            this.state = State.Ground; // ESC \ (ST) closing a marker: part of the marker
            i++;
            break;
          }
          if (code === 0x5d /* ] */) {
            this.openerEmitted = this.state === State.EscapeEmitted;
            this.state = State.OscPrefix;
            this.body = '';
            i++;
          } else if (isExecutable(code) || code === 0x7f) {
            // xterm executes C0 controls without leaving the escape state, so ESC <LF> ] still
            // opens an OSC: pass the control on and keep waiting.
            emit(chunk[i]!);
            i++;
          } else if (code === ESC) {
            emit(held);
            this.state = State.Escape;
            i++;
          } else {
            emit(held);
            this.state = State.Ground;
            // Reprocess nothing: the character after ESC is ordinary data from here on.
            emit(chunk[i]!);
            i++;
          }
          break;
        }
        default:
          i = this.oscStep(chunk, i, emit, markers, () => outLength);
          break;
      }
    }
    return { data: out.length === 1 ? out[0]! : out.join(''), markers };
  }

  /**
   * Ends the stream: a held-back lone ESC is returned so no byte that may be visible is lost. An
   * unfinished marker (or OSC prefix that could still become one) is dropped: it shows nothing.
   */
  end(): string {
    const rest = this.state === State.Escape && !this.escEndedMarker ? '\x1b' : '';
    this.state = State.Ground;
    this.body = '';
    this.openerEmitted = false;
    this.escEndedMarker = false;
    return rest;
  }

  private opener(): string {
    return this.openerEmitted ? ']' : '\x1b]';
  }

  private isMarkerPrefix(body: string): boolean {
    return MARKER_PREFIXES.some((p) => p.startsWith(body));
  }

  /** Processes characters inside an OSC starting at `i`; returns the next index to read. */
  private oscStep(
    chunk: string,
    start: number,
    emit: (s: string) => void,
    markers: PositionedShellMarker[],
    offset: () => number,
  ): number {
    const n = chunk.length;
    let i = start;
    while (i < n) {
      const code = chunk.charCodeAt(i);
      const isTerminator = code === BEL || code === ESC || code === ST8;
      const isAbort = code === CAN || code === SUB || (code >= 0x80 && code <= 0x9f && code !== ST8);
      if (isTerminator || isAbort) {
        this.finishOsc(code, isAbort, emit, markers, offset);
        return i + 1;
      }
      switch (this.state) {
        case State.OscPass: {
          // Stream the foreign OSC through up to its terminator in one slice.
          let j = i + 1;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c === BEL || c === ESC || c === CAN || c === SUB || (c >= 0x80 && c <= 0x9f)) {
              break;
            }
            j++;
          }
          emit(chunk.slice(i, j));
          i = j;
          continue;
        }
        case State.OscDrop:
          i++;
          continue;
        case State.OscPrefix: {
          if (isIgnoredInOsc(code)) {
            i++;
            continue;
          }
          const body = this.body + chunk[i]!;
          if (this.isMarkerPrefix(body)) {
            this.body = body;
            if (body.length === 4) {
              this.state = State.OscMarker;
            }
          } else {
            // Not ours: release what was held and stream the rest.
            emit(this.opener() + body);
            this.body = '';
            this.state = State.OscPass;
          }
          i++;
          continue;
        }
        case State.OscMarker: {
          // Take a run of ordinary characters at once; C0 controls are ignored as xterm does.
          let j = i;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c < 0x20 || (c >= 0x80 && c <= 0x9f)) {
              break;
            }
            j++;
          }
          if (j > i) {
            this.body += chunk.slice(i, j);
            if (this.body.length > this.maxMarkerChars) {
              this.body = '';
              this.state = State.OscDrop;
            }
            i = j;
          } else {
            i++; // an ignored C0 control
          }
          continue;
        }
        default:
          return i;
      }
    }
    return i;
  }

  private finishOsc(
    code: number,
    aborted: boolean,
    emit: (s: string) => void,
    markers: PositionedShellMarker[],
    offset: () => number,
  ): void {
    const state = this.state;
    const body = this.body;
    this.body = '';
    // An OSC that ended before its prefix was complete is not ours (only a bare "633"/"133" is).
    if (state === State.OscPass || (state === State.OscPrefix && body !== '633' && body !== '133')) {
      if (state === State.OscPrefix) {
        emit(this.opener() + body);
      }
      if (code === ESC) {
        // The ESC ends the OSC for the emulator too; emit it now and let the next character
        // decide (ESC \ completes the terminator, ESC ] opens another OSC).
        emit('\x1b');
        this.state = State.EscapeEmitted;
      } else {
        emit(String.fromCharCode(code));
        this.state = State.Ground;
      }
      return;
    }
    // A marker (complete, over the cap, or a bare "633"/"133"): remove it from the data.
    if (!aborted && state !== State.OscDrop) {
      const marker = parseMarkerBody(body);
      if (marker) {
        markers.push({ ...marker, offset: offset() });
      }
    }
    if (this.openerEmitted) {
      // The emulator already saw the ESC that opened this marker; complete it as a harmless
      // ESC \ so the character after the marker is not taken as an escape sequence.
      emit('\\');
      this.openerEmitted = false;
    }
    this.state = code === ESC ? State.Escape : State.Ground;
    this.escEndedMarker = code === ESC;
  }
}
