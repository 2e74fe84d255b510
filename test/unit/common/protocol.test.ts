import assert from 'node:assert/strict';
import {
  commandSchema,
  describeZodError,
  methods,
  parseRequestArguments,
  runParamsSchema,
  type MethodKey,
  type ParamsOf,
} from '../../../common/src/protocol';

type RequestMethod = Exclude<MethodKey, 'hello'>;

/** Every method's params at their fullest: each optional field set, so nothing hides behind an absent key. */
const fullParams: { [K in RequestMethod]: ParamsOf<K> } = {
  run: { command: 'npm run dev', timeoutMs: 5000, name: 'ci', waitMode: 'ready', cwd: 'web', readyPattern: 'ready in \\d+ ms', restart: true },
  state: { name: 'ci', wait: true, timeoutMs: 5000 },
  input: { name: 'ci', text: 'y', enter: false, timeoutMs: 5000 },
  list: {},
  listProcesses: {},
  killProcess: { pid: 4242 },
  killOrphans: {},
  ledgerSummary: {},
  workspaceInfo: {},
  attachClient: { pid: 4242, serverPath: [4300, 4250], client: 'claude-code', session: { id: 's1', from: 'env.CLAUDE_CODE_SESSION_ID' } },
};

describe('protocol schemas', () => {
  it('rejects an empty command with a readable message', () => {
    const r = runParamsSchema.safeParse({ command: '   ' });
    assert.equal(r.success, false);
    assert.match(describeZodError(r.error!), /command: command must not be empty/);
  });
  it('rejects a timeout out of range and says how to do long work', () => {
    const r = runParamsSchema.safeParse({ command: 'ls', timeoutMs: 10_000_000 });
    assert.equal(r.success, false);
    assert.match(describeZodError(r.error!), /at most 3600000 ms.*background/);
  });
  it('accepts a minimal run', () => {
    assert.deepEqual(runParamsSchema.parse({ command: 'ls' }), { command: 'ls' });
  });
  it('refuses control characters in a command (they act as keys in a shell), but not tabs and line breaks', () => {
    for (const key of ['\u0003', '\u0004', '\u001b[A', '\u007f', '\u0000', '\u0012']) {
      const r = commandSchema.safeParse(`echo a${key}b`);
      assert.equal(r.success, false, JSON.stringify(key));
      assert.match(describeZodError(r.error!), /control characters .* terminal_input/);
    }
    assert.equal(commandSchema.safeParse('echo a\tb\necho c\r\necho d').success, true);
  });
});

describe('bridge requests: what the client adds never meets a method’s params (issue 10)', () => {
  const keys = Object.keys(methods).filter((k): k is RequestMethod => k !== 'hello');

  it('the table of full params covers every method', () => {
    assert.deepEqual(Object.keys(fullParams).sort(), [...keys].sort());
  });

  for (const key of keys) {
    it(`${methods[key].name}: params pass unchanged with and without a progress request`, () => {
      for (const meta of [undefined, {}, { progressId: 'p17' }]) {
        const args = [fullParams[key], meta ?? {}];
        // Through JSON as on the wire: nothing the client adds may rely on in-memory identity.
        const parsed = parseRequestArguments(key, JSON.parse(JSON.stringify(args)));
        assert.equal(parsed.success, true, `${methods[key].name} with ${JSON.stringify(meta)}: ${parsed.success ? '' : parsed.error}`);
        if (parsed.success) {
          assert.deepEqual(parsed.params, fullParams[key]);
          assert.deepEqual(parsed.meta, meta ?? {});
        }
      }
    });

    it(`${methods[key].name}: params stay strict (an unknown field is refused, naming it)`, () => {
      const parsed = parseRequestArguments(key, [{ ...fullParams[key], progressId: 'p1' }]);
      assert.equal(parsed.success, false);
      assert.match(parsed.success ? '' : parsed.error, /progressId/);
    });
  }

  it('accepts params sent alone (by name), and refuses bad metadata or extra positions', () => {
    assert.equal(parseRequestArguments('list', [{}]).success, true);
    assert.equal(parseRequestArguments('list', []).success, true);
    const badMeta = parseRequestArguments('list', [{}, { progressId: 7 }]);
    assert.equal(badMeta.success, false);
    assert.match(badMeta.success ? '' : badMeta.error, /^request metadata: progressId/);
    const unknownMeta = parseRequestArguments('list', [{}, { secret: true }]);
    assert.equal(unknownMeta.success, false);
    const extra = parseRequestArguments('list', [{}, {}, {}]);
    assert.equal(extra.success, false);
    assert.match(extra.success ? '' : extra.error, /at most one metadata object, not 3/);
  });
});
