import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultLogsDir, LogFileWriter, logFilePath, pruneLogFiles } from '../../../extension/src/core/output/logFile';
import { marker, Redactor } from '../../../extension/src/core/secrets/redaction';

describe('log files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-logfile-test-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes appended text and the final text, creating directories, ending in one newline', async () => {
    const file = path.join(dir, 'a/b/run.log');
    const w = new LogFileWriter(file);
    w.append('one\n');
    w.append('two\n\n\n');
    w.append('\n');
    w.append('three\n');
    await w.close('screen 1\nscreen 2');
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n\n\n\nthree\nscreen 1\nscreen 2\n');
    assert.equal(w.error, undefined);
  });

  it('writes secrets as markers, a private key split across pieces too; the final text redacted as well', async () => {
    const file = path.join(dir, 'secret.log');
    const token = `ghp_${'Xy9'.repeat(12)}`;
    const w = new LogFileWriter(file, undefined, new Redactor().stream());
    w.append(`GITHUB_TOKEN=${token}\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n`);
    w.append('AAAAC3NzaC1lZDI1NTE5AAAA\n-----END OPENSSH PRIVATE KEY-----\n');
    await w.close(`echo ${token}`);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(token) && !text.includes('b3BlbnNzaC1rZXktdjEAAAAA') && !text.includes('AAAAC3NzaC1lZDI1NTE5AAAA'), text);
    assert.equal(text.split(marker('GitHub token')).length - 1, 2, text);
  });

  it('drops trailing blank lines when the final text is empty, and writes nothing for nothing', async () => {
    const a = new LogFileWriter(path.join(dir, 'a.log'));
    a.append('x\n\n\n');
    await a.close();
    assert.equal(fs.readFileSync(path.join(dir, 'a.log'), 'utf8'), 'x\n');
    const b = new LogFileWriter(path.join(dir, 'b.log'));
    await b.close();
    assert.equal(fs.readFileSync(path.join(dir, 'b.log'), 'utf8'), '');
  });

  it('streams large output in batches and drains', async () => {
    const file = path.join(dir, 'big.log');
    const w = new LogFileWriter(file);
    const line = `${'0123456789'.repeat(10)}\n`;
    for (let i = 0; i < 50_000; i++) {
      w.append(line);
      if (w.bufferedChars > 1_000_000) {
        await w.drain();
      }
    }
    await w.close();
    assert.equal(fs.statSync(file).size, 50_000 * line.length);
  });

  it('builds safe, distinct file names under .devtools/logs', () => {
    const logs = defaultLogsDir('/ws');
    assert.equal(logs, path.join('/ws', '.devtools', 'logs'));
    const now = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6));
    const a = logFilePath(logs, '../my term:1', now);
    const b = logFilePath(logs, '../my term:1', now);
    assert.equal(path.dirname(a), logs);
    assert.match(path.basename(a), /^my-term-1-2025-01-02T03-04-05-006Z\.log$/);
    assert.notEqual(a, b);
    assert.match(path.basename(logFilePath(logs, '///')), /^output-/);
  });

  it('prunes all but the newest log files', async () => {
    for (let i = 0; i < 8; i++) {
      const file = path.join(dir, `run-${i}.log`);
      fs.writeFileSync(file, String(i));
      fs.utimesSync(file, new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'not a log');
    assert.equal(await pruneLogFiles(dir, 3), 5);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['keep.txt', 'run-5.log', 'run-6.log', 'run-7.log']);
    assert.equal(await pruneLogFiles(path.join(dir, 'missing')), 0);
  });
});
