/**
 * A long run's live log: after persistAfterMs its output goes to its log file as it arrives (a
 * batch waits at most FLUSH_MS), so a process killed mid-run leaves it readable; a run that ends
 * within the limit removes it at close, unless it ended with its terminal (keepLog).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FLUSH_MS, LogFileWriter } from '../../../extension/src/core/output/logFile';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { TempDirs } from '../../support/tempDirs';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('live run logs', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  it('a batch reaches the file within FLUSH_MS, without a close', async () => {
    const file = path.join(dirs.make('live-log-'), 'run.log');
    const w = new LogFileWriter(file);
    w.append('first line\n');
    await sleep(FLUSH_MS + 200);
    assert.equal(fs.readFileSync(file, 'utf8'), 'first line');
    await w.close();
  });

  it('after persistAfterMs the output is on disk while the run goes on; a run that fit the limit removes it at close', async () => {
    const dir = dirs.make('live-log-');
    const file = path.join(dir, 'default.log');
    const capture = new OutputCapture({ limitChars: 10_000, stripPromptAndEcho: false, persistAfterMs: 50, logFilePath: () => file });
    capture.write('compiling\r\n');
    await capture.flush();
    assert.equal(capture.snapshot().outputFile, undefined, 'not yet');
    await until('the live log', () => capture.snapshot().outputFile);
    capture.write('linking\r\n');
    await capture.flush();
    await until('both lines on disk', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8') === 'compiling\nlinking');
    assert.deepEqual([capture.snapshot().output, capture.snapshot().truncated], ['compiling\nlinking', false]);
    await capture.close();
    assert.equal(fs.existsSync(file), false, 'the result holds it all');
    assert.equal(capture.snapshot().outputFile, undefined);
  });

  it('a run that ends with its terminal keeps its log', async () => {
    const file = path.join(dirs.make('live-log-'), 'default.log');
    const capture = new OutputCapture({ limitChars: 10_000, stripPromptAndEcho: false, persistAfterMs: 20, logFilePath: () => file });
    capture.write('working\r\n');
    await until('the live log', () => capture.snapshot().outputFile);
    await capture.close({ keepLog: true });
    assert.equal(fs.readFileSync(file, 'utf8'), 'working\n');
  });

  it('a process SIGKILLed mid-run leaves its log readable, every line whole and in order', async function () {
    this.timeout(30_000);
    const dir = dirs.make('live-log-crash-');
    const file = path.join(dir, 'run.log');
    const source = path.resolve(__dirname, '..', '..', '..', 'extension', 'src', 'core', 'output', 'outputCapture.ts');
    // A writer that prints a numbered line every 10 ms through the real pipeline until it is killed.
    const script = `
      const { OutputCapture } = require(${JSON.stringify(source)});
      const capture = new OutputCapture({ limitChars: 1000000, stripPromptAndEcho: false, persistAfterMs: 100, logFilePath: () => ${JSON.stringify(file)} });
      let n = 0;
      setInterval(() => { capture.write('line ' + n + '\\r\\n'); process.stdout.write(n++ + '\\n'); }, 10);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = 0;
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString().split('\n').length - 1));
    try {
      await until('lines on disk', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n').length > 20, 20_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
    assert.ok(lines.length > 20 && lines.length <= printed, `${lines.length} lines on disk, ${printed} written`);
    lines.forEach((line, i) => assert.equal(line, `line ${i}`));
  });
});
