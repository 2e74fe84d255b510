/**
 * Generated tool calls across every tool: wrong types, missing and extra fields, huge strings,
 * control characters, lone surrogates, deep JSON, out-of-range numbers, pids of the system and of
 * other processes. Pure and seeded: the same seed gives the same calls.
 *
 * Some calls pass validation and really run in a shell. Those are built so that nothing they
 * type can do harm: commands come from harmless templates (their hostile bytes travel as printf
 * escapes, so the typed line is plain ASCII), and text typed into a terminal is a `#` comment or
 * Ctrl+C / Ctrl+D alone. `isHarmless` states that rule; a unit test holds the generator to it.
 */
import { commandSchema } from '../../common/src/protocol';
import type { Random } from './random';

/** A pid the runner fills in when the call is made (they change while the suite runs). */
export type PidRef = { readonly pidRef: 'ownedByLedger' | 'shellOfTerminal' };

export interface HostileCall {
  readonly tool: string;
  /** The `arguments` of tools/call: usually an object, sometimes not (that is the point). */
  readonly args: unknown;
  /** Which kind of hostility, for the report. */
  readonly kind: string;
}

/** Pids the generator may aim kill_process at; none of them may die. */
export interface ForeignPids {
  readonly system: readonly number[];
  /** The extension host, code-server, the MCP server, this test runner, a sentinel process. */
  readonly others: readonly number[];
}

export const TOOLS = ['terminal_run', 'terminal_state', 'terminal_input', 'terminal_list', 'list_processes', 'kill_process', 'kill_orphans', 'workspace_info'] as const;

/** Terminals the suite's calls use (created and reused as the calls go). */
export const FUZZ_TERMINALS = ['fz0', 'fz1', 'fz2', 'fz3'];

const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f';
const C1 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join('');
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud83d', '\ude00b'];
const ESCAPES = ['\u001b[31m', '\u001b[0m', '\u001b]0;title\u0007', '\u001b[2J', '\u001b[H', '\u001b[?1049h', '\u001b[6n', '\u001bP+q\u001b\\', '\r', '\b', '\u001b[999;999H', '\u001b[38;5;208m'];
const UNICODE = 'aé中文😀\u200b\u202e\ufeffǅ';
const PRINTABLE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,:;+=/@%';

/** Wrong-typed values, from scalars to deep JSON. */
function wrongType(r: Random): unknown {
  switch (r.int(0, 9)) {
    case 0:
      return r.pick([0, -1, 1.5, 1e308, -0]);
    case 1:
      return r.pick([true, false]);
    case 2:
      return null;
    case 3:
      return [];
    case 4:
      return {};
    case 5:
      return [1, 'a', null, { b: [] }];
    case 6:
      return { nested: { value: 'x' } };
    case 7:
      return deepJson(r, r.int(10, 2000));
    case 8:
      return r.pick(['', ' ', '\n', 'null', 'undefined', '{}']);
    default:
      return Array.from({ length: r.int(100, 5000) }, (_, i) => i);
  }
}

function deepJson(r: Random, depth: number): unknown {
  let value: unknown = r.pick(['leaf', 1, null]);
  for (let i = 0; i < depth; i++) value = r.chance(0.5) ? [value] : { k: value };
  return value;
}

/** Strings meant to be refused or to stress whatever reads them. */
function hostileString(r: Random): string {
  switch (r.int(0, 6)) {
    case 0:
      return 'x'.repeat(r.pick([100_001, 150_000, 1_000_000]));
    case 1:
      return r.string(r.int(1, 64), C0 + 'ab');
    case 2:
      return r.string(r.int(1, 64), C1 + 'ab');
    case 3:
      return r.pick(SURROGATES) + r.string(r.int(0, 10), UNICODE);
    case 4:
      return r.pick(ESCAPES).repeat(r.int(1, 50));
    case 5:
      return r.pick(['', ' ', '\t', '\n\n']);
    default:
      return r.string(r.int(65, 4000), PRINTABLE + UNICODE);
  }
}

/** Numbers out of every tool's range. */
function outOfRange(r: Random): number {
  return r.pick([-1, 0, 1, 99, 3_600_001, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, 2 ** 31, 1e-9, 0.5, -(2 ** 31)]);
}

/** Keys a client should never be able to smuggle in (prototype tricks, our own meta). */
function extraFields(r: Random): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (let i = 0; i < r.int(1, 4); i++) {
    const key = r.pick(['__proto__', 'constructor', 'prototype', 'progressId', 'timeoutMs', 'pid', '', 'x'.repeat(1000), '\u0000', r.string(8, PRINTABLE)]);
    Object.defineProperty(extra, key, { value: r.chance(0.5) ? wrongType(r) : hostileString(r), enumerable: true, writable: true, configurable: true });
  }
  return extra;
}

/** Bytes a harmless command prints: any of them travels as a printf octal escape. */
function printedPayload(r: Random): string {
  const parts: string[] = [];
  for (let i = 0; i < r.int(1, 12); i++) {
    switch (r.int(0, 4)) {
      case 0:
        parts.push(r.string(r.int(1, 40), C0));
        break;
      case 1:
        parts.push(r.pick(ESCAPES).repeat(r.int(1, 20)));
        break;
      case 2:
        parts.push(r.string(r.int(1, 20), UNICODE));
        break;
      case 3:
        parts.push('y'.repeat(r.int(100, 5000)));
        break;
      default:
        parts.push(r.string(r.int(1, 40), PRINTABLE));
    }
  }
  return parts.join('');
}

/** `printf` with every byte outside [A-Za-z0-9 ] as an octal escape: the typed line is plain ASCII. */
export function printfCommand(payload: string): string {
  let escaped = '';
  for (const byte of Buffer.from(payload, 'utf8')) {
    const c = String.fromCharCode(byte);
    escaped += /[A-Za-z0-9 ]/.test(c) ? c : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `printf '%b\\n' '${escaped}'`;
}

/** Commands that run for real: harmless, short (or backgrounded), never reading the shell's input. */
function harmlessCommand(r: Random): string {
  switch (r.int(0, 9)) {
    case 0:
    case 1:
    case 2:
      return printfCommand(printedPayload(r));
    case 3:
      return `echo fz-${r.int(0, 1e6)}`;
    case 4:
      return r.pick(['true', 'false', `(exit ${r.int(0, 255)})`]);
    case 5:
      return `seq 1 ${r.int(1, 3000)}`;
    case 6:
      return `sleep 0.${r.int(1, 9)}`;
    case 7:
      return `sleep ${r.int(20, 60)} &`; // a process the ledger owns, for kill_process to find
    case 8:
      return `read -t ${r.int(1, 2)} answer; echo "got=$answer"`;
    default:
      return `printf 'no newline at the end'`;
  }
}

/** Text typed into a terminal that is harmless wherever it lands: a comment, or Ctrl+C / Ctrl+D alone. */
function harmlessInput(r: Random): string {
  if (r.chance(0.3)) return r.pick(['\u0003', '\u0004']);
  return `#${r.string(r.int(0, 200), PRINTABLE + UNICODE).replace(/[\r\n]/g, ' ')}${r.chance(0.2) ? r.pick(SURROGATES) : ''}`;
}

const validName = (r: Random): string => r.pick(FUZZ_TERMINALS);
const validTimeout = (r: Random): number => r.int(1000, 4000);

/**
 * One field: mostly valid, else hostile in one of the ways the issue lists. `valid` gives the
 * valid value; the rest come from the shared hostile generators.
 */
function field(r: Random, valid: () => unknown, hostileShare: number): unknown {
  if (!r.chance(hostileShare)) return valid();
  switch (r.int(0, 3)) {
    case 0:
      return wrongType(r);
    case 1:
      return hostileString(r);
    case 2:
      return outOfRange(r);
    default:
      return undefined; // missing
  }
}

/** An object of fields, with the undefined ones left out, sometimes with extra fields. */
function argsOf(r: Random, fields: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) args[key] = value;
  return r.chance(0.15) ? { ...args, ...extraFields(r) } : args;
}

function pidFor(r: Random, pids: ForeignPids): number | PidRef | unknown {
  switch (r.int(0, 6)) {
    case 0:
      return r.pick(pids.system);
    case 1:
    case 2:
      return r.pick(pids.others);
    case 3:
      return { pidRef: 'ownedByLedger' } satisfies PidRef;
    case 4:
      return { pidRef: 'shellOfTerminal' } satisfies PidRef;
    case 5:
      return r.int(2, 4_194_304);
    default:
      return outOfRange(r);
  }
}

export function generateHostileCalls(r: Random, count: number, pids: ForeignPids): HostileCall[] {
  const calls: HostileCall[] = [];
  for (let i = 0; i < count; i++) {
    // A share of calls are not even objects, or name a tool that does not exist.
    if (r.chance(0.04)) {
      calls.push({ tool: r.pick([...TOOLS]), args: wrongType(r), kind: 'arguments not an object' });
      continue;
    }
    if (r.chance(0.02)) {
      calls.push({ tool: r.pick(['terminal_exec', '', 'x'.repeat(5000), '__proto__', 'TERMINAL_RUN', 'terminal_run\u0000']), args: {}, kind: 'unknown tool' });
      continue;
    }
    const tool = r.pick(TOOLS);
    const hostile = r.pick([0.1, 0.5, 0.9]);
    let args: unknown;
    switch (tool) {
      case 'terminal_run':
        args = argsOf(r, {
          command: defused(field(r, () => harmlessCommand(r), hostile), (c) => commandSchema.safeParse(c).success && !HARMLESS_COMMAND.test(c), printfCommand),
          timeout: r.chance(0.7) ? field(r, () => validTimeout(r), hostile) : undefined,
          name: r.chance(0.8) ? field(r, () => validName(r), hostile) : undefined,
          waitMode: r.chance(0.3) ? field(r, () => r.pick(['completion', 'background']), hostile) : undefined,
          cwd: r.chance(0.2) ? field(r, () => r.pick(['.', 'sub dir', '..']), hostile) : undefined,
        });
        break;
      case 'terminal_state':
        args = argsOf(r, {
          name: field(r, () => validName(r), hostile),
          wait: r.chance(0.5) ? field(r, () => r.chance(0.5), hostile) : undefined,
          timeout: r.chance(0.5) ? field(r, () => validTimeout(r), hostile) : undefined,
        });
        break;
      case 'terminal_input':
        args = argsOf(r, {
          name: field(r, () => validName(r), hostile),
          text: defused(field(r, () => harmlessInput(r), hostile), (t) => t.length <= 100_000 && !isHarmlessText(t), (t) => `#${t.replace(/[\u0000-\u001f\u007f]/g, '?')}`),
          enter: r.chance(0.3) ? field(r, () => r.chance(0.5), hostile) : undefined,
          timeout: r.chance(0.5) ? field(r, () => validTimeout(r), hostile) : undefined,
        });
        break;
      case 'kill_process':
        args = argsOf(r, { pid: pidFor(r, pids) });
        break;
      default:
        args = r.chance(0.7) ? {} : argsOf(r, extraFields(r));
    }
    calls.push({ tool, args, kind: hostile > 0.5 ? 'mostly hostile fields' : hostile > 0.1 ? 'mixed fields' : 'mostly valid fields' });
  }
  return calls;
}

/**
 * A hostile string that would pass validation and reach a shell is turned into its harmless
 * form (printed by printf, or typed as a comment): the MCP and bridge layers still see it whole.
 */
function defused(value: unknown, wouldRun: (s: string) => boolean, harmless: (s: string) => string): unknown {
  return typeof value === 'string' && wouldRun(value) ? harmless(value) : value;
}

function isHarmlessText(text: string): boolean {
  return text === '\u0003' || text === '\u0004' || (text.startsWith('#') && !/[\u0000-\u001f\u007f]/.test(text));
}

/**
 * The rule the generator keeps: whatever would be typed into a shell (a command that passes the
 * product's own validation, a text for terminal_input) cannot do harm. The unit test checks
 * every generated call against it.
 */
export function isHarmless(call: HostileCall): boolean {
  const args = call.args as Record<string, unknown> | null;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return true;
  if (call.tool === 'terminal_run' && typeof args.command === 'string' && commandSchema.safeParse(args.command).success) {
    return HARMLESS_COMMAND.test(args.command);
  }
  if (call.tool === 'terminal_input' && typeof args.text === 'string') {
    return isHarmlessText(args.text) || args.text.length > 100_000;
  }
  return true;
}

const HARMLESS_COMMAND =
  /^(?:printf '%b\\n' '(?:[A-Za-z0-9 ]|\\[0-7]{3})*'|echo fz-\d+|true|false|\(exit \d+\)|seq 1 \d+|sleep 0\.\d|sleep \d+ &|read -t \d answer; echo "got=\$answer"|printf 'no newline at the end')$/;
