import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OutputCapture, type OutputCaptureOptions } from '../../../extension/src/core/output/outputCapture';
import type { RunOutput } from '../../../extension/src/core/output/runOutput';
import { chunked, gcIfAvailable, random } from './helpers';

const osc = (body: string): string => `\x1b]${body}\x07`;
const C = osc('633;C');
const D = (code?: number): string => osc(code === undefined ? '633;D' : `633;D;${code}`);
const PROMPT = `${osc('633;A')}\x1b[32muser@host\x1b[0m:~$ ${osc('633;B')}`;

let dir: string;
let seq = 0;
const newLog = (): string => path.join(dir, `nested/logs/run-${++seq}.log`);

async function captureOf(raw: string | readonly string[], options: OutputCaptureOptions = {}): Promise<OutputCapture> {
  const capture = new OutputCapture({ logFilePath: newLog, ...options });
  for (const chunk of typeof raw === 'string' ? [raw] : raw) {
    capture.write(chunk);
  }
  await capture.flush();
  return capture;
}

/** n lines of varied length and content, as the renderer will show them. */
function sampleLines(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${i}: ${'abcdefghij'.repeat(i % 7)}${i % 5 === 0 ? ' 中文 😀' : ''}`.trimEnd());
}

describe('OutputCapture', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-capture-test-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('satisfies the RunOutput contract the run logic consumes', () => {
    const output: RunOutput = new OutputCapture();
    assert.equal(typeof output.write, 'function');
    (output as OutputCapture).dispose();
  });

  describe('rendered text', () => {
    it('returns short output whole, rendered, with totals', async () => {
      const c = await captureOf(`${C}hello\r\n\x1b[31mworld\x1b[0m\r\n1%\r100%\r\n${D(0)}`);
      assert.deepEqual(c.snapshot(), { output: 'hello\nworld\n100%', truncated: false, totalChars: 16, totalLines: 3 });
      assert.equal(c.totalChars, 16);
      assert.equal(c.outputFile, undefined);
      await c.close();
    });

    it('drops the prompt and the echoed command line around VS Code markers', async () => {
      const raw = `${PROMPT}echo hi\r\n${osc('633;E;echo hi;n')}${C}hi\r\n${D(0)}${PROMPT}`;
      const c = await captureOf(raw);
      assert.equal(c.snapshot().output, 'hi');
      await c.close();
    });

    it('keeps the output of each part of a multi-line command, one per line', async () => {
      const raw = `${C}a${D(0)}${PROMPT}echo b\r\n${C}b\r\n${D(0)}${PROMPT}`;
      const c = await captureOf(raw);
      assert.equal(c.snapshot().output, 'a\nb');
      await c.close();
    });

    it('keeps everything when there are no VS Code markers, or when asked to', async () => {
      const plain = await captureOf('$ ls\r\nfile\r\n');
      assert.equal(plain.snapshot().output, '$ ls\nfile');
      const kept = await captureOf(`${PROMPT}ls\r\n${C}file\r\n`, { stripPromptAndEcho: false });
      assert.equal(kept.snapshot().output, 'user@host:~$ ls\nfile');
      // A nested program's FinalTerm markers do not hide its output.
      const nested = await captureOf(`${C}${osc('133;A')}>>> ${osc('133;B')}print(1)\r\n1\r\n`);
      assert.equal(nested.snapshot().output, '>>> print(1)\n1');
      await Promise.all([plain.close(), kept.close(), nested.close()]);
    });

    it('takes markers out of the output, whatever follows them', async () => {
      const c = new OutputCapture();
      c.write(`${C}out\r\n`);
      c.write(`${D(3)}${osc('633;P;Cwd=/tmp')}`);
      await c.flush();
      assert.equal(c.snapshot().output, 'out');
      await c.close();
    });

    it('notifies writes that carry visible data only', async () => {
      const c = new OutputCapture();
      let calls = 0;
      c.onDidWrite(() => calls++);
      c.write(C);
      c.write('x');
      c.write(`${D(0)}${PROMPT}`);
      assert.equal(calls, 1);
      await c.close();
    });

    it('gives the last lines and cheap size figures', async () => {
      const lines = [...sampleLines(200), 'last line'];
      const c = await captureOf(`${C}${lines.join('\r\n')}`, { rows: 10 });
      assert.deepEqual(c.lastLines(3), lines.slice(-3));
      assert.deepEqual(c.lastLines(12), lines.slice(-12)); // reaches past the screen into emitted lines
      assert.deepEqual(c.lastLines(1), ['last line']);
      assert.equal(c.lastLines(0).length, 0);
      assert.equal(c.totalChars, lines.join('\n').length);
      assert.equal(c.totalLines, 201);
      const empty = await captureOf('');
      assert.deepEqual(empty.lastLines(2), []);
      assert.equal(empty.totalChars, 0);
      assert.equal(empty.totalLines, 0);
      await Promise.all([c.close(), empty.close()]);
    });

    it('ignores blank lines at the very end', async () => {
      const c = await captureOf(`${C}a\r\n${'\r\n'.repeat(100)}`, { rows: 5 });
      assert.equal(c.snapshot().output, 'a');
      assert.deepEqual(c.lastLines(2), ['a']);
      await c.close();
    });
  });

  describe('truncation', () => {
    it('keeps head and tail with one exact marker line, close to the limit', async () => {
      const lines = sampleLines(3000);
      const full = lines.join('\n');
      const limit = 4000;
      const c = await captureOf(chunked(`${C}${lines.map((l) => `${l}\r\n`).join('')}`, random(7), 4096), { limitChars: limit });
      const snap = c.snapshot();
      assert.equal(snap.truncated, true);
      assert.equal(snap.totalChars, full.length);
      assert.equal(snap.totalLines, lines.length);
      assert.ok(snap.outputFile && snap.outputFile === c.outputFile);
      assert.ok(snap.output.length <= limit, `${snap.output.length} <= ${limit}`);
      assert.ok(snap.output.length >= limit * 0.85, `${snap.output.length} close to ${limit}`);

      const m = /^\[\.\.\. ([\d,]+) characters \(([\d,]+) lines\) omitted; full output in (.+) \.\.\.\]$/m.exec(snap.output);
      assert.ok(m, snap.output);
      assert.equal(m[3], snap.outputFile);
      const [head, tail] = snap.output.split(`\n${m[0]}\n`) as [string, string];
      assert.ok(full.startsWith(head.endsWith('\n') ? head : `${head}\n`) || full.startsWith(head));
      assert.ok(full.endsWith(tail));
      // Both cuts fell on line boundaries, so the omitted part is whole lines.
      const headLines = head.split('\n').length;
      const tailLines = tail.split('\n').length;
      assert.deepEqual(head.split('\n'), lines.slice(0, headLines));
      assert.deepEqual(tail.split('\n'), lines.slice(-tailLines));
      const omittedChars = Number(m[1]!.replace(/,/g, ''));
      const omittedLines = Number(m[2]!.replace(/,/g, ''));
      assert.equal(omittedLines, lines.length - headLines - tailLines);
      // The line break that ends the last head line is shown (before the marker line).
      assert.equal(omittedChars, full.length - (head.length + 1) - tail.length);
      await c.close();
    });

    it('counts a line cut by the head as shown, and cuts inside very long lines', async () => {
      const long = 'L'.repeat(50_000);
      const c = await captureOf(`${C}${long}\r\nend\r\n`, { limitChars: 2000 });
      const snap = c.snapshot();
      assert.ok(snap.output.length <= 2000);
      const m = /\[\.\.\. ([\d,]+) characters \(([\d,]+) lines\) omitted/.exec(snap.output)!;
      assert.equal(m[2], '0');
      assert.ok(snap.output.startsWith('LLLL'));
      assert.ok(snap.output.endsWith('L\nend'));
      await c.close();
    });

    it('truncates output that overflows while still on screen, and writes the file then', async () => {
      const lines = Array.from({ length: 40 }, (_, i) => `${i} ${'w'.repeat(500)}`);
      const c = await captureOf(`${C}${lines.join('\r\n')}`, { limitChars: 5000, rows: 50 });
      const snap = c.snapshot();
      assert.equal(snap.truncated, true);
      assert.ok(snap.outputFile);
      await c.close();
      assert.equal(fs.readFileSync(snap.outputFile, 'utf8'), `${lines.join('\n')}\n`);
    });

    it('writes the whole rendered output to the log file, far beyond the limit', async () => {
      const lines = sampleLines(60_000); // ~2 MB rendered
      const raw = `${PROMPT}make\r\n${C}${lines.map((l, i) => (i % 9 === 0 ? `\x1b[33m${l}\x1b[0m\r\n` : i % 13 === 0 ? `0%\r50%\r${l}\r\n` : `${l}\r\n`)).join('')}`;
      const c = await captureOf(chunked(raw, random(11), 16_384));
      const snap = c.snapshot();
      await c.close();
      assert.equal(snap.truncated, true);
      assert.ok(snap.output.length <= 16_000);
      assert.equal(fs.readFileSync(snap.outputFile!, 'utf8'), `${lines.join('\n')}\n`);
      assert.deepEqual(c.snapshot(), snap, 'the snapshot is the same after close');
    }).timeout(60_000);

    it('does not create a log file for output under the limit', async () => {
      const paths: string[] = [];
      const c = await captureOf(`${C}small\r\n`, { logFilePath: () => { const p = newLog(); paths.push(p); return p; } });
      await c.close();
      assert.equal(c.snapshot().outputFile, undefined);
      assert.deepEqual(paths, []);
    });

    it('says so in the marker when the log file cannot be written', async () => {
      const blocker = path.join(dir, 'a-file');
      fs.writeFileSync(blocker, 'x');
      const c = await captureOf(`${C}${'line\r\n'.repeat(5000)}`, { limitChars: 1000, logFilePath: () => path.join(blocker, 'sub', 'x.log') });
      const snap = c.snapshot();
      assert.equal(snap.truncated, true);
      assert.equal(snap.outputFile, undefined);
      assert.match(snap.output, /omitted; full output could not be saved \(.+\) \.\.\.\]/);
      assert.ok(snap.output.length <= 1000);
      await c.close();
    });
  });

  describe('a log file that fails after it was opened (read-only or full .devtools)', () => {
    for (const [what, target, code] of [
      ['cannot be opened (the path is a directory: the open fails after the stream was made)', 'dir', /^EISDIR: /],
      ['fills the disk (/dev/full: every write fails with ENOSPC)', '/dev/full', /^ENOSPC: no space left on device$/],
    ] as const) {
      it(`never names a log file that ${what}, says why, and reports the failure once`, async function () {
        if (target === '/dev/full' && !fs.existsSync('/dev/full')) {
          console.warn('    !!! SKIPPING: no /dev/full on this system !!!');
          this.skip();
        }
        const failures: string[] = [];
        const file = target === 'dir' ? fs.mkdtempSync(path.join(dir, 'is-a-dir-')) : target;
        // More than one 64 KB write batch, so a write has reached the disk before close.
        const c = await captureOf(`${C}${'line\r\n'.repeat(30_000)}`, {
          limitChars: 1000,
          logFilePath: () => file,
          onLogFileFailure: (p, e) => failures.push(`${p}: ${e.message}`),
        });
        // Before close, as a `timeout` result reads it: the stream's error has had time to arrive.
        await new Promise((r) => setTimeout(r, 50));
        const early = c.snapshot();
        assert.equal(early.truncated, true);
        assert.equal(early.outputFile, undefined);
        assert.match(early.outputFileError ?? '', code);
        assert.match(early.output, /omitted; full output could not be saved \(E[A-Z]+: [^)]+\) \.\.\.\]/);
        await c.close();
        const late = c.snapshot();
        assert.equal(late.outputFile, undefined);
        assert.match(late.outputFileError ?? '', code);
        assert.equal(failures.length, 1, failures.join('\n'));
        assert.ok(failures[0]!.startsWith(`${file}: `));
      });
    }
  });

  describe('memory', () => {
    it('stays bounded for 50 MB of output', async function () {
      this.timeout(300_000);
      const limit = 16_000;
      const c = new OutputCapture({ limitChars: limit, logFilePath: newLog });
      const line = (i: number): string => (i % 10 === 0 ? `\x1b[32mok\x1b[0m step ${i} ${'='.repeat(i % 50)}\r\n` : i % 17 === 0 ? `${i % 100}%\r100%\r\n` : `step ${i}: ${'data '.repeat(i % 20)}\r\n`);
      gcIfAvailable();
      const heapBefore = process.memoryUsage().heapUsed;
      let written = 0;
      let i = 0;
      let maxRetained = 0;
      while (written < 50_000_000) {
        let block = '';
        while (block.length < 1_000_000) {
          block += line(i++);
        }
        for (let k = 0; k < block.length; k += 65_536) {
          if (!c.write(block.slice(k, k + 65_536))) {
            await c.flush();
          }
        }
        written += block.length;
        await c.flush();
        const s = c.stats();
        maxRetained = Math.max(maxRetained, s.headChars + s.tailChars + s.rendererPendingChars + s.fileBufferedChars);
      }
      const s = c.stats();
      assert.ok(s.headChars <= limit / 2, `head ${s.headChars}`);
      assert.ok(s.tailChars <= limit * 2, `tail ${s.tailChars}`);
      assert.equal(s.rendererPendingChars, 0);
      assert.ok(maxRetained < 8_000_000, `retained at most ${maxRetained} chars`);
      if (gcIfAvailable()) {
        const growth = process.memoryUsage().heapUsed - heapBefore;
        assert.ok(growth < 40_000_000, `heap grew ${growth} bytes`);
      }
      const snap = c.snapshot();
      assert.ok(snap.truncated && snap.output.length <= limit);
      assert.ok(snap.totalLines >= i - 1);
      await c.close();
      assert.ok(fs.statSync(snap.outputFile!).size > 30_000_000);
    });

    it('asks the producer to wait when far behind, and recovers after flush', async () => {
      const c = new OutputCapture({ highWaterChars: 100_000 });
      let accepted = true;
      for (let i = 0; i < 50 && accepted; i++) {
        accepted = c.write('x'.repeat(10_000) + '\r\n');
      }
      assert.equal(accepted, false);
      await c.flush();
      assert.equal(c.write('y\r\n'), true);
      await c.close();
    });
  });

  describe('lifetime', () => {
    it('closes once, ignores later writes, keeps answering, and disposes idempotently', async () => {
      const c = await captureOf(`${C}one\r\n`);
      const first = c.close();
      assert.equal(c.close(), first);
      await first;
      c.write('two\r\n');
      await c.flush();
      assert.equal(c.snapshot().output, 'one');
      assert.deepEqual(c.lastLines(5), ['one']);
      c.dispose();
      c.dispose();
    });

    it('renders what is still queued when closed without a flush', async () => {
      const c = new OutputCapture();
      c.write(`${C}${'line\r\n'.repeat(10_000)}done`);
      await c.close();
      const snap = c.snapshot();
      assert.equal(snap.totalLines, 10_001);
      assert.ok(snap.output.endsWith('line\ndone'));
    });
  });
});
