/**
 * The ledger's persistence, and nothing else (no process knowledge): the JSONL event log with
 * rotation, the shared active-processes.json (read-modify-write under the lock, replaced
 * atomically), per-session summaries, and the data dir's .gitignore. Several windows may use
 * one data dir at once; every operation here is safe against that.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../../common/src/logger';
import type { ClientTools } from '../../../../common/src/protocol';
import { silentLogger } from '../../../../common/src/logger';
import { writeFileAtomic } from '../fsUtil';
import { DEFAULT_LOCK_OPTIONS, withFileLock, type FileLockOptions } from './fileLock';
import {
  GITIGNORE_CONTENT,
  LEDGER_FILES,
  LOG_GENERATIONS,
  parseActiveEntry,
  parseLedgerEvent,
  rotatedLogName,
  type ActiveEntry,
  type ActiveFile,
  type DecisionEvent,
  type LedgerEvent,
  type SessionSummary,
} from './formats';
import { appendLines, readJsonl, type JsonlReadResult } from './jsonl';

export const DEFAULT_MAX_LOG_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP_SESSIONS = 50;
const SAFE_SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface LedgerStoreOptions {
  /** The data dir, `<workspace>/.devtools`. */
  readonly dir: string;
  readonly logger?: Logger;
  /** Log size past which it is rotated; read at every append. Default 10 MB. */
  readonly maxLogBytes?: () => number;
  readonly lock?: Partial<FileLockOptions>;
  /** Session summaries kept by init(); older ones are removed. Default 50. */
  readonly keepSessions?: number;
  /** Takes secrets out of the command lines written (secrets/redaction.ts); read at every write. */
  readonly redact?: () => (text: string) => string;
}

export interface ActiveReadResult {
  readonly entries: ActiveEntry[];
  /** Entries dropped because their identity or owner was unusable. */
  readonly skipped: number;
  /** The file exists but is not an active-processes file at all; it reads as empty. */
  readonly corrupt: boolean;
}

/** What a read-modify-write of the active file decides: the new entries and a result for the caller. */
export interface ActiveUpdate<T> {
  readonly entries: readonly ActiveEntry[];
  readonly result: T;
}

export class LedgerStore {
  readonly dir: string;
  readonly logPath: string;
  readonly activePath: string;
  readonly lockPath: string;
  readonly sessionsDir: string;
  private readonly logger: Logger;
  private readonly lockOptions: FileLockOptions;
  private readonly maxLogBytes: () => number;
  private appending: Promise<unknown> = Promise.resolve();

  private redactor(): (text: string) => string {
    return this.options.redact?.() ?? ((text) => text);
  }

  constructor(private readonly options: LedgerStoreOptions) {
    this.dir = options.dir;
    this.logPath = path.join(this.dir, LEDGER_FILES.log);
    this.activePath = path.join(this.dir, LEDGER_FILES.active);
    this.lockPath = path.join(this.dir, LEDGER_FILES.lock);
    this.sessionsDir = path.join(this.dir, LEDGER_FILES.sessions);
    this.logger = options.logger ?? silentLogger;
    this.lockOptions = { ...DEFAULT_LOCK_OPTIONS, ...options.lock };
    this.maxLogBytes = options.maxLogBytes ?? (() => DEFAULT_MAX_LOG_BYTES);
  }

  /** Creates the data dir, writes its .gitignore if missing, prunes old session summaries. */
  async init(): Promise<void> {
    await fs.mkdir(this.sessionsDir, { recursive: true });
    try {
      await fs.writeFile(path.join(this.dir, LEDGER_FILES.gitignore), GITIGNORE_CONTENT, { flag: 'wx', mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    await this.pruneSessions(this.options.keepSessions ?? DEFAULT_KEEP_SESSIONS);
  }

  /** Appends events as one write (in call order within this store), rotating the log when it is too big. */
  append(events: readonly (LedgerEvent | DecisionEvent)[]): Promise<void> {
    if (events.length === 0) {
      return Promise.resolve();
    }
    const redact = this.redactor();
    const lines = events.map((e) => JSON.stringify(withClientRedacted(e.cmd === undefined ? e : { ...e, cmd: redact(e.cmd) }, redact)));
    const done = this.appending.then(async () => {
      const size = await appendLines(this.logPath, lines);
      if (size > this.maxLogBytes()) {
        await this.rotate();
      }
    });
    this.appending = done.catch(() => undefined);
    return done;
  }

  /** Every process event of the log and its rotated generations, oldest first (decisions left out); bad lines skipped and counted. */
  async readEvents(): Promise<JsonlReadResult<LedgerEvent>> {
    const files = [...Array.from({ length: LOG_GENERATIONS }, (_, i) => rotatedLogName(LOG_GENERATIONS - i)), LEDGER_FILES.log];
    const items: LedgerEvent[] = [];
    let skipped = 0;
    for (const file of files) {
      const part = await readJsonl(path.join(this.dir, file), parseLedgerEvent);
      items.push(...part.items.filter((e): e is LedgerEvent => e.event !== 'decided'));
      skipped += part.skipped;
    }
    return { items, skipped };
  }

  /** The active file as it is now (no lock: it is only ever replaced whole). */
  async readActive(): Promise<ActiveReadResult> {
    let text: string;
    try {
      text = await fs.readFile(this.activePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { entries: [], skipped: 0, corrupt: false };
      }
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const list = typeof raw === 'object' && raw !== null ? (raw as { entries?: unknown }).entries : undefined;
    if (!Array.isArray(list)) {
      this.logger.warn(`ledger: ${this.activePath} is not a valid active-processes file; treating it as empty`);
      return { entries: [], skipped: 0, corrupt: true };
    }
    const entries: ActiveEntry[] = [];
    for (const item of list) {
      const entry = parseActiveEntry(item);
      if (entry) {
        entries.push(entry);
      }
    }
    const skipped = list.length - entries.length;
    if (skipped > 0) {
      this.logger.warn(`ledger: skipped ${skipped} unusable entr${skipped === 1 ? 'y' : 'ies'} in ${this.activePath}`);
    }
    return { entries, skipped, corrupt: false };
  }

  /**
   * Read-modify-write of the active file under the lock. `mutate` gets the current entries (all
   * windows') and must keep those it does not own; it runs synchronously inside the lock.
   */
  async updateActive<T>(mutate: (current: readonly ActiveEntry[]) => ActiveUpdate<T>): Promise<T> {
    return withFileLock(this.lockPath, this.lockOptions, async () => {
      const current = await this.readActive();
      const next = mutate(current.entries);
      const redact = this.redactor();
      const entries = next.entries.map((entry) => withClientRedacted({ ...entry, commandLine: redact(entry.commandLine) }, redact));
      if (current.corrupt || JSON.stringify(entries) !== JSON.stringify(current.entries)) {
        const file: ActiveFile = { version: 1, updatedAt: new Date().toISOString(), entries };
        await writeFileAtomic(this.activePath, `${JSON.stringify(file, null, 2)}\n`);
      }
      return next.result;
    });
  }

  /** Replaces `sessions/<sessionId>.json` (one writer per session, so no lock). */
  async writeSession(summary: SessionSummary): Promise<void> {
    if (!SAFE_SESSION_ID.test(summary.sessionId)) {
      throw new Error(`ledger: unusable session id ${JSON.stringify(summary.sessionId)}`);
    }
    await fs.mkdir(this.sessionsDir, { recursive: true });
    const redact = this.redactor();
    const redacted: SessionSummary = { ...summary, processes: summary.processes.map((p) => withClientRedacted({ ...p, commandLine: redact(p.commandLine) }, redact)) };
    await writeFileAtomic(path.join(this.sessionsDir, `${summary.sessionId}.json`), `${JSON.stringify(redacted, null, 2)}\n`);
  }

  /** Renames the log to generation 1 (older generations move up, the oldest is dropped), under the lock. */
  private async rotate(): Promise<void> {
    await withFileLock(this.lockPath, this.lockOptions, async () => {
      const stat = await fs.stat(this.logPath).catch(() => undefined);
      if (!stat || stat.size <= this.maxLogBytes()) {
        return; // another window rotated it meanwhile
      }
      for (let g = LOG_GENERATIONS - 1; g >= 1; g--) {
        await fs.rename(path.join(this.dir, rotatedLogName(g)), path.join(this.dir, rotatedLogName(g + 1))).catch(ignoreMissing);
      }
      await fs.rename(this.logPath, path.join(this.dir, rotatedLogName(1)));
      this.logger.info(`ledger: rotated ${this.logPath} at ${stat.size} bytes`);
    });
  }

  private async pruneSessions(keep: number): Promise<void> {
    const names = (await fs.readdir(this.sessionsDir)).filter((n) => n.endsWith('.json'));
    if (names.length <= keep) {
      return;
    }
    const dated = await Promise.all(
      names.map(async (name) => ({ name, mtime: (await fs.stat(path.join(this.sessionsDir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.mtime - a.mtime);
    for (const { name } of dated.slice(keep)) {
      await fs.rm(path.join(this.sessionsDir, name), { force: true });
    }
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
    throw error;
  }
}

/** The client's own command line is a command line too (an API key passed as an argument). */
function withClientRedacted<T extends object>(item: T, redact: (text: string) => string): T {
  const client = (item as { readonly clientTools?: ClientTools }).clientTools;
  return client ? { ...item, clientTools: { ...client, command: redact(client.command) } } : item;
}
