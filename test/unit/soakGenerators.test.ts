/**
 * The reliability suite's generators (test/soak): seeded and replayable, covering every kind of
 * hostile input the suite promises, and never typing anything harmful into a real shell.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateFrames } from '../soak/bridgeFrames';
import { TOOLS, generateHostileCalls, isHarmless, printfCommand, type HostileCall } from '../soak/hostileCalls';
import { Random } from '../soak/random';

const pids = { system: [1, 2], others: [111, 222, 333] };

/** Every value in a call's arguments, depth first (bounded: deep JSON is deep). */
function* values(value: unknown, depth = 0): Generator<unknown> {
  yield value;
  if (depth > 50 || value === null || typeof value !== 'object') return;
  for (const child of Object.values(value)) yield* values(child, depth + 1);
}

function depthOf(value: unknown): number {
  let depth = 0;
  let node = value;
  while (node !== null && typeof node === 'object') {
    const children = Object.values(node);
    if (children.length !== 1) break;
    node = children[0];
    depth++;
  }
  return depth;
}

describe('reliability suite generators', () => {
  it('the same seed replays the same calls and frames; another seed does not', () => {
    const a = JSON.stringify(generateHostileCalls(new Random(42).fork('calls'), 300, pids));
    assert.equal(JSON.stringify(generateHostileCalls(new Random(42).fork('calls'), 300, pids)), a);
    assert.notEqual(JSON.stringify(generateHostileCalls(new Random(43).fork('calls'), 300, pids)), a);
    const f = generateFrames(new Random(42).fork('frames'), 300, 't'.repeat(43)).map((x) => Buffer.concat([...x.chunks]).toString('base64')).join();
    assert.equal(generateFrames(new Random(42).fork('frames'), 300, 't'.repeat(43)).map((x) => Buffer.concat([...x.chunks]).toString('base64')).join(), f);
  });

  it('2,000 calls cover every tool and every kind of hostile input the issue lists', () => {
    const calls = generateHostileCalls(new Random(7).fork('calls'), 2000, pids);
    assert.equal(calls.length, 2000);
    assert.deepEqual(new Set(calls.map((c) => c.tool).filter((t) => (TOOLS as readonly string[]).includes(t))), new Set(TOOLS));
    const all = calls.flatMap((c) => [...values(c.args)]);
    const strings = all.filter((v): v is string => typeof v === 'string');
    const seen = {
      'wrong types': all.some((v) => typeof v === 'boolean') && all.some((v) => Array.isArray(v)),
      'missing fields': calls.some((c) => c.tool === 'terminal_run' && typeof c.args === 'object' && c.args !== null && !('command' in c.args)),
      'extra fields': calls.some((c) => typeof c.args === 'object' && c.args !== null && Object.keys(c.args).includes('__proto__')),
      'huge strings': strings.some((s) => s.length > 100_000),
      'control characters': strings.some((s) => /[\u0000-\u0008\u000e-\u001f]/.test(s)),
      'lone surrogates': strings.some((s) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)),
      'deep JSON': calls.some((c) => [...values(c.args)].some((v) => depthOf(v) > 100)),
      'out-of-range numbers': all.some((v) => v === 3_600_001 || v === 1e308 || v === -1),
      'pids of the system': calls.some((c) => c.tool === 'kill_process' && (c.args as { pid?: unknown }).pid === 1),
      'pids of other processes': calls.some((c) => c.tool === 'kill_process' && (c.args as { pid?: unknown }).pid === 222),
      'unknown tools': calls.some((c) => !(TOOLS as readonly string[]).includes(c.tool)),
      'arguments that are not objects': calls.some((c) => typeof c.args !== 'object' || c.args === null || Array.isArray(c.args)),
    };
    assert.deepEqual(Object.entries(seen).filter(([, ok]) => !ok).map(([what]) => what), []);
  });

  it('never types anything harmful into a shell: what passes validation is a harmless command, a comment, or Ctrl+C / Ctrl+D', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const harmful = generateHostileCalls(new Random(seed).fork('calls'), 2000, pids).filter((c: HostileCall) => !isHarmless(c));
      assert.deepEqual(harmful.map((c) => JSON.stringify(c).slice(0, 200)), [], `seed ${seed}`);
    }
    assert.equal(isHarmless({ tool: 'terminal_run', args: { command: 'rm -rf ~' }, kind: '' }), false, 'the rule itself bites');
    assert.equal(isHarmless({ tool: 'terminal_input', args: { text: '#x\u0008\u0008rm -rf ~' }, kind: '' }), false);
  });

  it('printfCommand types plain ASCII and prints the payload byte for byte (real bash)', function () {
    const payload = 'a\u0000b\u001b[31m\u0007é中😀\ud800\r\n\'"`$(x)\\';
    const command = printfCommand(payload);
    assert.match(command, /^[\x20-\x7e]+$/);
    let out: Buffer;
    try {
      out = execFileSync('bash', ['-c', command]);
    } catch {
      console.warn('    !!! SKIPPING the bash half: no bash here !!!');
      this.skip();
    }
    assert.deepEqual(out, Buffer.concat([Buffer.from(payload, 'utf8'), Buffer.from('\n')]));
  });

  it('2,000 frames cover every kind of malformed traffic, before and after hello', () => {
    const frames = generateFrames(new Random(9).fork('frames'), 2000, 't'.repeat(43));
    assert.equal(frames.length, 2000);
    const kinds = new Set(frames.map((f) => f.kind.replace(/ ".*"$/, '')));
    for (const kind of [
      'random bytes',
      'header without Content-Length',
      'Content-Length',
      'huge Content-Length, then the connection ends',
      'invalid JSON body',
      'request before hello',
      'hello with a wrong token',
      'hello with the right token, wrong protocol or shape',
      'after hello: garbage params',
      'after hello: unknown methods, notifications, batches',
    ]) {
      assert.ok([...kinds].some((k) => k.startsWith(kind)), `${kind} missing from ${[...kinds].join(' | ')}`);
    }
    assert.ok(frames.some((f) => f.authenticated) && frames.some((f) => !f.authenticated));
  });
});
