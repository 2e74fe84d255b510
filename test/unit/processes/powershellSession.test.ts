/**
 * The PowerShell request framing against a fake child process: what the real PowerShell would
 * receive on stdin (decoded here to prove it arrives intact) and the answers it could give,
 * including noise, forged sentinels, chunked output, errors, hangs and deaths.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import {
  PowerShellSession,
  PowerShellTimeoutError,
  buildRequestLine,
  parseResponseLine,
  type PowerShellChild,
} from '../../../extension/src/core/processes/powershellSession';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

interface Request {
  readonly sentinel: string;
  readonly script: string;
  readonly line: string;
}

type Handler = (req: Request, ps: FakePowerShell) => void;

/** Reads request lines like PowerShell's `-Command -` would and lets a handler answer. */
class FakePowerShell extends EventEmitter implements PowerShellChild {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly requests: Request[] = [];
  killed = false;

  constructor(private readonly handler: Handler) {
    super();
    let pending = '';
    this.stdin.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const sentinel = /\$s = '([^']+)'/.exec(line)![1]!;
        const script = Buffer.from(/FromBase64String\('([A-Za-z0-9+/=]*)'\)/.exec(line)![1]!, 'base64').toString('utf8');
        const req = { sentinel, script, line };
        this.requests.push(req);
        this.handler(req, this);
      }
    });
  }

  answer(req: Request, text: string, status: 'OK' | 'ERR' = 'OK'): void {
    this.stdout.write(`${req.sentinel} ${status} ${b64(text)}\r\n`);
  }

  kill(): void {
    this.killed = true;
    setImmediate(() => this.emit('exit', null, 'SIGTERM'));
  }
}

function session(handler: Handler, extra: Partial<ConstructorParameters<typeof PowerShellSession>[0]> = {}) {
  const children: FakePowerShell[] = [];
  const s = new PowerShellSession({
    spawn: () => {
      const child = new FakePowerShell(handler);
      children.push(child);
      return child;
    },
    timeoutMs: 2000,
    ...extra,
  });
  return { s, children };
}

describe('PowerShellSession framing (fake PowerShell)', () => {
  it('sends one line per request, the script only as base64, and it arrives byte-exact', async () => {
    const script = "Get-Thing -Name 'it''s' \"quoted\" `$x | % { $_ }\r\nsecond line ✓ 项目 $(rm -rf /)";
    const answerJson = '[{"Name":"línea\\nnueva ✓","CommandLine":"a \\"b\\""}]';
    const { s, children } = session((req, ps) => ps.answer(req, answerJson));
    const text = await s.run(script);
    assert.equal(text, answerJson);
    const req = children[0]!.requests[0]!;
    assert.equal(req.script, script);
    assert.ok(!req.line.includes('\n') && !req.line.includes('\r'), 'one line');
    assert.ok(!req.line.includes('Get-Thing') && !req.line.includes('rm -rf'), 'script text never appears raw');
    assert.match(req.line, /\$ProgressPreference = 'SilentlyContinue'/);
    assert.match(req.line, /ConvertTo-Json -InputObject \$r -Compress/);
    assert.match(req.sentinel, /^__TSHEP_[0-9a-f]{24}__$/);
    s.dispose();
  });

  it('ignores noise and other sentinels, and reassembles an answer split across chunks', async () => {
    const { s } = session((req, ps) => {
      ps.stdout.write('WARNING: something unrelated\r\n');
      ps.stdout.write(`__TSHEP_${'0'.repeat(24)}__ OK ${b64('"forged"')}\r\n`);
      const line = `${req.sentinel} OK ${b64('{"ok":true}')}\r\n`;
      ps.stdout.write(line.slice(0, 7));
      setTimeout(() => ps.stdout.write(line.slice(7, 30)), 5);
      setTimeout(() => ps.stdout.write(line.slice(30)), 10);
    });
    assert.equal(await s.run('x'), '{"ok":true}');
    s.dispose();
  });

  it('turns an ERR answer into a rejection with PowerShell’s message', async () => {
    const { s } = session((req, ps) => ps.answer(req, "The term 'Get-NetTCPConnection' is not recognized", 'ERR'));
    await assert.rejects(s.run('x'), /PowerShell: The term 'Get-NetTCPConnection' is not recognized/);
    s.dispose();
  });

  it('runs requests one at a time, in order', async () => {
    const order: string[] = [];
    let first: { req: Request; ps: FakePowerShell } | undefined;
    const { s, children } = session((req, ps) => {
      order.push(req.script);
      if (req.script === 'a') {
        first = { req, ps }; // answered later
      } else {
        ps.answer(req, `"${req.script}"`);
      }
    });
    const a = s.run('a');
    const b = s.run('b');
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, ['a'], 'b waits until a is answered');
    first!.ps.answer(first!.req, '"a"');
    assert.deepEqual(await Promise.all([a, b]), ['"a"', '"b"']);
    assert.equal(children.length, 1);
    s.dispose();
  });

  it('times a hung request out, kills that PowerShell and starts a new one for the next', async () => {
    const { s, children } = session((req, ps) => {
      if (req.script !== 'hang') {
        ps.answer(req, '"fine"');
      }
    });
    await assert.rejects(s.run('hang', 50), PowerShellTimeoutError);
    assert.equal(children[0]!.killed, true);
    assert.equal(await s.run('next'), '"fine"');
    assert.equal(children.length, 2);
    assert.equal(s.spawnCount, 2);
    s.dispose();
  });

  it('rejects the request in flight when PowerShell dies, and restarts for the next one', async () => {
    let calls = 0;
    const { s, children } = session((req, ps) => {
      if (calls++ === 0) {
        ps.stderr.write('fatal: out of memory\n');
        setImmediate(() => ps.emit('exit', 1, null));
      } else {
        ps.answer(req, '"again"');
      }
    });
    await assert.rejects(s.run('x'), /ended before answering \(exit 1\)/);
    assert.equal(await s.run('y'), '"again"');
    assert.equal(children.length, 2);
    s.dispose();
  });

  it('stops restarting a PowerShell that keeps dying (no crash loop)', async () => {
    const { s, children } = session((_req, ps) => setImmediate(() => ps.emit('exit', 1, null)), { maxCrashes: 3, crashWindowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      await assert.rejects(s.run('x'), /ended before answering/);
    }
    await assert.rejects(s.run('x'), /not restarting yet/);
    assert.equal(children.length, 3);
    s.dispose();
  });

  it('dispose kills PowerShell and rejects pending and later requests', async () => {
    const { s, children } = session(() => undefined);
    const pending = s.run('never');
    const queued = s.run('queued');
    await new Promise((r) => setTimeout(r, 10));
    s.dispose();
    await assert.rejects(pending, /disposed/);
    await assert.rejects(queued, /disposed/);
    await assert.rejects(s.run('late'), /disposed/);
    assert.equal(children[0]!.killed, true);
  });

  it('parses only well-formed answer lines for the expected sentinel', () => {
    const line = buildRequestLine('__TSHEP_abc__', 'Get-Date');
    assert.match(line, /^& \{ .* \}$/);
    assert.deepEqual(parseResponseLine(`__TSHEP_abc__ OK ${b64('[1,2]')}\r`, '__TSHEP_abc__'), { ok: true, text: '[1,2]' });
    assert.deepEqual(parseResponseLine('__TSHEP_abc__ OK ', '__TSHEP_abc__'), { ok: true, text: '' }, 'empty pipeline');
    assert.deepEqual(parseResponseLine(`\uFEFF__TSHEP_abc__ ERR ${b64('boom')}`, '__TSHEP_abc__'), { ok: false, text: 'boom' });
    assert.equal(parseResponseLine(`__TSHEP_abcd__ OK ${b64('1')}`, '__TSHEP_abc__'), undefined);
    assert.equal(parseResponseLine(`__TSHEP_abc__ MAYBE ${b64('1')}`, '__TSHEP_abc__'), undefined);
    assert.equal(parseResponseLine('some output __TSHEP_abc__ OK', '__TSHEP_abc__'), undefined);
    // What pwsh 7.6 on Linux writes around reading stdin, in front of the answer (a real session's bytes).
    assert.deepEqual(parseResponseLine(`\x1b[?1h\x1b[?1l__TSHEP_abc__ OK ${b64('[1,2,3]')}`, '__TSHEP_abc__'), { ok: true, text: '[1,2,3]' });
  });
});
