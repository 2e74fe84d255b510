/** The lock file: exclusive, stale locks taken over, waits bounded, release only of one's own lock. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LockTimeoutError, withFileLock, type FileLockOptions } from '../../../extension/src/core/ledger/fileLock';
import { TempDirs } from '../../support/tempDirs';

const fast: FileLockOptions = { timeoutMs: 300, staleMs: 2000, retryMs: 5 };

/** A pid that certainly names no process: one that just exited. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(done.stdout.toString());
}

describe('withFileLock', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());
  const lockIn = (): string => path.join(dirs.make(), 'x.lock');

  it('holds the lock while the function runs and removes it afterwards, also on failure', async () => {
    const lock = lockIn();
    await withFileLock(lock, fast, async () => {
      const content = JSON.parse(readFileSync(lock, 'utf8'));
      assert.equal(content.pid, process.pid);
      assert.ok(Math.abs(content.acquiredAt - Date.now()) < 5000);
    });
    assert.equal(existsSync(lock), false);
    await assert.rejects(withFileLock(lock, fast, async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(existsSync(lock), false);
  });

  it('serializes holders in one process', async () => {
    const lock = lockIn();
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(lock, { ...fast, timeoutMs: 5000 }, async () => {
          maxInside = Math.max(maxInside, ++inside);
          await new Promise((r) => setTimeout(r, 2));
          inside--;
        }),
      ),
    );
    assert.equal(maxInside, 1);
  });

  it('takes over a lock whose owner pid is dead', async () => {
    const lock = lockIn();
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), acquiredAt: Date.now(), token: 'dead' }));
    const t0 = Date.now();
    assert.equal(await withFileLock(lock, fast, async () => 'got it'), 'got it');
    assert.ok(Date.now() - t0 < 250, 'no waiting for a dead owner');
    assert.equal(existsSync(lock), false);
  });

  it('takes over a lock older than staleMs even if its owner lives', async () => {
    const lock = lockIn();
    writeFileSync(lock, JSON.stringify({ pid: process.pid, acquiredAt: Date.now() - 10_000, token: 'old' }));
    assert.equal(await withFileLock(lock, fast, async () => 1), 1);
  });

  it('takes over an unreadable lock file once it is old, and waits for a fresh one', async () => {
    const lock = lockIn();
    writeFileSync(lock, '');
    await assert.rejects(withFileLock(lock, fast, async () => 1), LockTimeoutError, 'a fresh empty lock may be mid-write');
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
    assert.equal(await withFileLock(lock, fast, async () => 2), 2);
  });

  it('times out cleanly on a held lock, leaving it to its holder', async () => {
    const lock = lockIn();
    const held = JSON.stringify({ pid: process.pid, acquiredAt: Date.now(), token: 'holder' });
    writeFileSync(lock, held);
    const t0 = Date.now();
    await assert.rejects(withFileLock(lock, fast, async () => assert.fail('must not run')), (error: unknown) => {
      assert.ok(error instanceof LockTimeoutError);
      assert.match(error.message, new RegExp(`held by pid ${process.pid}`));
      return true;
    });
    const waited = Date.now() - t0;
    assert.ok(waited >= 280 && waited < 1500, `waited ${waited} ms`);
    assert.equal(readFileSync(lock, 'utf8'), held, 'the holder keeps its lock');
  });

  it('does not remove a lock that was taken over while held', async () => {
    const lock = lockIn();
    await withFileLock(lock, fast, async () => {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, acquiredAt: Date.now(), token: 'someone-else' }));
    });
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).token, 'someone-else');
  });
});
