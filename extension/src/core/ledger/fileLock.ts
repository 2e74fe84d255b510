/**
 * A lock file shared by windows (processes) and by instances within one process: created with
 * O_EXCL, holding `{pid, acquiredAt, token}`. A lock whose owner pid is dead, or that is older than
 * `staleMs` (holders keep it for milliseconds), is taken over; waiting is bounded by `timeoutMs`
 * and ends in a LockTimeoutError, never a hang. Release removes the file only if it is still ours.
 *
 * Taking over moves the stale file aside with rename (atomic) and re-reads what was moved: if a
 * racing window had just replaced the stale lock with a fresh one, that one is put back.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { processExists } from '../../../../common/src/processExists';

export interface FileLockOptions {
  /** Longest wait for the lock. */
  readonly timeoutMs: number;
  /** Age past which a lock counts as abandoned even if its owner pid lives. */
  readonly staleMs: number;
  /** Pause between attempts (a random jitter is added). */
  readonly retryMs: number;
}

export const DEFAULT_LOCK_OPTIONS: FileLockOptions = { timeoutMs: 3000, staleMs: 5000, retryMs: 15 };

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: string,
  ) {
    super(`timed out waiting for the lock ${lockPath} (held by ${holder})`);
    this.name = 'LockTimeoutError';
  }
}

interface LockContent {
  readonly pid: number;
  readonly acquiredAt: number;
  readonly token: string;
}

/** Runs `fn` while holding the lock at `lockPath`. */
export async function withFileLock<T>(lockPath: string, options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  const token = await acquire(lockPath, options);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const content = JSON.stringify({ pid: process.pid, acquiredAt: Date.now(), token } satisfies LockContent);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    try {
      await fs.writeFile(lockPath, content, { flag: 'wx', mode: 0o644 });
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    const holder = await readLock(lockPath);
    if (holder === 'gone') {
      continue; // released between our attempt and the read: try again at once
    }
    if (await isStale(lockPath, holder, options.staleMs)) {
      await breakLock(lockPath, options.staleMs);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new LockTimeoutError(lockPath, holder === 'unreadable' ? 'an unreadable lock' : `pid ${holder.pid}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs + Math.random() * options.retryMs));
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  const holder = await readLock(lockPath);
  if (typeof holder === 'object' && holder.token === token) {
    await fs.rm(lockPath, { force: true });
  }
}

/** 'unreadable': present but not (yet) a complete record, e.g. created and not written yet. */
async function readLock(lockPath: string): Promise<LockContent | 'unreadable' | 'gone'> {
  let text: string;
  try {
    text = await fs.readFile(lockPath, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (Number.isSafeInteger(value.pid) && Number.isFinite(value.acquiredAt) && typeof value.token === 'string') {
      return value as LockContent;
    }
  } catch {
    // torn or foreign content
  }
  return 'unreadable';
}

async function isStale(lockPath: string, holder: LockContent | 'unreadable', staleMs: number): Promise<boolean> {
  if (holder === 'unreadable') {
    // Judged by the file's age: a writer fills a fresh lock within microseconds.
    const stat = await fs.stat(lockPath).catch(() => undefined);
    return stat !== undefined && Date.now() - stat.mtimeMs > staleMs;
  }
  return !processExists(holder.pid) || Date.now() - holder.acquiredAt > staleMs;
}

async function breakLock(lockPath: string, staleMs: number): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return; // someone else broke or released it first
  }
  try {
    const moved = await readLock(aside);
    if (typeof moved === 'object' && !(await isStale(aside, moved, staleMs))) {
      // We raced and moved a live lock: restore it unless a newer one exists (link never replaces).
      await fs.link(aside, lockPath).catch(() => undefined);
    }
  } finally {
    await fs.rm(aside, { force: true });
  }
}

