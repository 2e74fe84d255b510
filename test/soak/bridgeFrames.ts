/**
 * Malformed bridge traffic: random bytes, broken headers, huge Content-Length, invalid JSON,
 * requests before hello or with a wrong token, and garbage after a valid hello. Pure and seeded.
 * The runner (soak.ts) sends each frame on a connection of its own and checks what comes back.
 */
import { PROTOCOL_VERSION, methods } from '../../common/src/protocol';
import type { Random } from './random';

export interface BridgeFrame {
  readonly kind: string;
  /** Send a valid hello (with the window's token) first: the frame is sent as an authenticated client. */
  readonly authenticated: boolean;
  /** What to write after that, in pieces (each piece a separate write). */
  readonly chunks: readonly Buffer[];
}

const METHOD_NAMES = Object.values(methods).map((m) => m.name);

export function frame(body: string | Buffer, headers = ''): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n${headers}\r\n`, 'ascii'), bytes]);
}

const json = (value: unknown): string => JSON.stringify(value);

function request(r: Random, method: string, params: unknown): string {
  const id = r.pick<unknown>([r.int(1, 1e6), `id-${r.int(0, 99)}`, null, { o: 1 }, [1], 1.5, -1, Number.MAX_SAFE_INTEGER]);
  return json({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
}

function garbageParams(r: Random): unknown {
  switch (r.int(0, 7)) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return r.pick([1, 'x', true]);
    case 3:
      return Array.from({ length: r.int(3, 20_000) }, (_, i) => i);
    case 4: {
      let deep: unknown = 'leaf';
      for (let i = 0; i < r.int(100, 5000); i++) deep = [deep];
      return deep;
    }
    case 5:
      return [{ command: 'echo hi' }, { progressId: r.pick([7, '', 'x'.repeat(65), null]) }];
    case 6:
      return [{}, {}, {}];
    default:
      // An own "__proto__" key (JSON.parse makes one, an object literal would not): pollution bait.
      return JSON.parse(`{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "command": ${r.pick(['1', 'null', '""'])}}`);
  }
}

/** Tokens that must not open the door: random, empty, almost right, of the wrong type, huge. */
function wrongToken(r: Random, token: string): unknown {
  switch (r.int(0, 5)) {
    case 0:
      return r.string(43, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_');
    case 1:
      return '';
    case 2: {
      const i = r.int(0, token.length - 1);
      return token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    }
    case 3:
      return token.slice(0, r.int(1, token.length - 1));
    case 4:
      return r.pick<unknown>([null, 42, [token], { token }]);
    default:
      return token + 'x'.repeat(r.int(1, 60_000));
  }
}

export function generateFrames(r: Random, count: number, token: string): BridgeFrame[] {
  const frames: BridgeFrame[] = [];
  const add = (kind: string, authenticated: boolean, ...chunks: Array<string | Buffer>): void => {
    frames.push({ kind, authenticated, chunks: chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)) });
  };
  for (let i = 0; i < count; i++) {
    switch (r.int(0, 11)) {
      case 0:
        add('random bytes', false, Buffer.from(Array.from({ length: r.int(1, 4096) }, () => r.int(0, 255))));
        break;
      case 1:
        add('header without Content-Length', false, `Content-Type: application/json\r\nX: ${r.int(0, 9)}\r\n\r\n{}`);
        break;
      case 2: {
        const length = r.pick(['-5', 'abc', '1e3', '0x10', '', '12 34', String(2 ** 53), '99999999999999999999', '1.5']);
        add(`Content-Length ${JSON.stringify(length)}`, false, `Content-Length: ${length}\r\n\r\n{"jsonrpc":"2.0"}`);
        break;
      }
      case 3:
        add('huge Content-Length, then the connection ends', false, `Content-Length: ${r.pick([1e9, 2 ** 40, 1e15])}\r\n\r\n`, Buffer.alloc(r.int(1, 80_000), 0x61));
        break;
      case 4:
        add('invalid JSON body', false, frame(r.pick(['{', '{"jsonrpc":"2.0","id":1,"method":', '\u0000\u0001', 'null', '"x"', '[]', '{"a":'.repeat(1000)])));
        break;
      case 5:
        add('request before hello', false, frame(request(r, r.pick([...METHOD_NAMES.filter((m) => m !== methods.hello.name), 'system/exec', '$/cancelRequest', '']), garbageParams(r))));
        break;
      case 6:
        add('hello with a wrong token', false, frame(request(r, methods.hello.name, { token: wrongToken(r, token), protocolVersion: PROTOCOL_VERSION })));
        break;
      case 7:
        add('hello with the right token, wrong protocol or shape', false, frame(request(r, methods.hello.name, r.pick<unknown>([
          { token, protocolVersion: PROTOCOL_VERSION + r.int(1, 5) },
          { token, protocolVersion: '1' },
          [token, PROTOCOL_VERSION, 'extra'],
          { token },
        ]))));
        break;
      case 8:
        add('a header split over many writes', false, ...[...`Content-Length: 40\r\n\r\n`].map((c) => c), '{"jsonrpc":"2.0","id":1,"method":"x"}'.slice(0, r.int(1, 30)));
        break;
      case 9:
        add('after hello: garbage params', true, frame(request(r, r.pick(METHOD_NAMES.filter((m) => m !== methods.hello.name)), garbageParams(r))));
        break;
      case 10:
        add('after hello: unknown methods, notifications, batches', true, frame(r.pick([
          request(r, r.pick(['system/exec', 'terminal/Run', 'process/kill/all', '']), {}),
          json({ jsonrpc: '2.0', method: r.pick(['$/cancelRequest', 'terminal/progress', 'x']), params: garbageParams(r) ?? {} }),
          json([JSON.parse(request(r, 'terminal/list', [{}]))]),
          json({ jsonrpc: '1.0', id: 1, method: 'terminal/list' }),
        ])));
        break;
      default:
        add('after hello: random bytes', true, Buffer.from(Array.from({ length: r.int(1, 2048) }, () => r.int(0, 255))));
    }
  }
  return frames;
}
