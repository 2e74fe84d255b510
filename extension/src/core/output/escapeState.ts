/**
 * Tracks whether a terminal parser would be in its ground state after a stream of data, i.e. not
 * in the middle of an escape sequence or an OSC/DCS/APC string. The renderer's fast path needs
 * this: data split between writes may end inside a sequence, and text that follows is then not
 * text to the emulator. Transitions mirror xterm.js's VT500 parser at the level that matters
 * (which state we are in, not what the sequence means).
 */

const enum S {
  Ground,
  Escape,
  /** ESC followed by intermediates (ESC ( B ...): ends at a final byte. */
  EscapeIntermediate,
  Csi,
  /** OSC string: ends with BEL, ESC, ST (0x9c); CAN/SUB abort. */
  Osc,
  /** DCS / SOS / PM / APC string: ends with ESC or ST; CAN/SUB abort. */
  String,
}

const INTRODUCERS = /[\x1b\x80-\x9f]/g;
const OSC_END = /[\x07\x18\x1a\x1b\x80-\x9f]/g;
const STRING_END = /[\x18\x1a\x1b\x80-\x9f]/g;

export class EscapeStateTracker {
  private state = S.Ground;

  /** True if the data fed so far leaves the parser in its ground state. */
  get atGround(): boolean {
    return this.state === S.Ground;
  }

  feed(data: string): void {
    const n = data.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case S.Ground: {
          INTRODUCERS.lastIndex = i;
          const m = INTRODUCERS.exec(data);
          if (!m) {
            return;
          }
          i = m.index;
          this.c1OrEscape(data.charCodeAt(i));
          i++;
          break;
        }
        case S.Escape:
        case S.EscapeIntermediate: {
          const c = data.charCodeAt(i++);
          if (c === 0x1b || (c >= 0x80 && c <= 0x9f) || c === 0x18 || c === 0x1a) {
            this.c1OrEscape(c);
          } else if (c < 0x20 || c === 0x7f) {
            // executed or ignored, state unchanged
          } else if (c >= 0x20 && c <= 0x2f) {
            this.state = S.EscapeIntermediate;
          } else if (this.state === S.Escape && c === 0x5b /* [ */) {
            this.state = S.Csi;
          } else if (this.state === S.Escape && c === 0x5d /* ] */) {
            this.state = S.Osc;
          } else if (this.state === S.Escape && (c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) /* P X ^ _ */) {
            this.state = S.String;
          } else {
            this.state = S.Ground; // final byte: ESC dispatch
          }
          break;
        }
        case S.Csi: {
          const c = data.charCodeAt(i++);
          if (c === 0x1b || (c >= 0x80 && c <= 0x9f) || c === 0x18 || c === 0x1a) {
            this.c1OrEscape(c);
          } else if (c >= 0x40 && c <= 0x7e) {
            this.state = S.Ground;
          }
          // parameters, intermediates, C0 controls and DEL keep the sequence going
          break;
        }
        case S.Osc:
        case S.String: {
          const re = this.state === S.Osc ? OSC_END : STRING_END;
          re.lastIndex = i;
          const m = re.exec(data);
          if (!m) {
            return;
          }
          i = m.index;
          const c = data.charCodeAt(i++);
          if (c === 0x07) {
            this.state = S.Ground;
          } else {
            this.c1OrEscape(c);
          }
          break;
        }
      }
    }
  }

  /** Transition on ESC, CAN/SUB, or an 8-bit C1 control, valid from any state. */
  private c1OrEscape(c: number): void {
    switch (c) {
      case 0x1b:
        this.state = S.Escape;
        break;
      case 0x9b:
        this.state = S.Csi;
        break;
      case 0x9d:
        this.state = S.Osc;
        break;
      case 0x90:
      case 0x98:
      case 0x9e:
      case 0x9f:
        this.state = S.String;
        break;
      default:
        this.state = S.Ground; // CAN, SUB, ST and the other C1 controls end any sequence
        break;
    }
  }

  reset(): void {
    this.state = S.Ground;
  }
}
