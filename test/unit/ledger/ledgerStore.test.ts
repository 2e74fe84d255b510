/**
 * The store on a real file system: crash leftovers (torn, garbage, truncated lines; empty and
 * missing files) are skipped and counted, the active file survives corruption, rotation keeps
 * the events readable, and the data dir gets its .gitignore.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { GITIGNORE_CONTENT, type ActiveEntry, type SessionSummary } from '../../../extension/src/core/ledger/formats';
import { appendLines } from '../../../extension/src/core/ledger/jsonl';
import { LedgerStore } from '../../../extension/src/core/ledger/ledgerStore';
import { marker, Redactor } from '../../../extension/src/core/secrets/redaction';
import { collectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { sampleEvent } from './storeSupport';

function entry(pid: number, sessionId: string): ActiveEntry {
  return {
    pid,
    startTime: `${pid}00@boot`,
    startedAt: new Date(0).toISOString(),
    name: 'sleep',
    commandLine: `sleep ${pid}`,
    parentPid: 1,
    terminalName: 't',
    ports: [],
    status: 'running',
    sessionId,
    owner: { pid: 4242, startTime: '1@boot' },
  };
}

describe('LedgerStore', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  function store(options: Partial<ConstructorParameters<typeof LedgerStore>[0]> = {}): LedgerStore {
    return new LedgerStore({ dir: dirs.make(), ...options });
  }

  describe('secrets', () => {
    const token = `ghp_${'Ab1'.repeat(12)}`;
    const redact = () => (text: string) => new Redactor().redact(text).text;

    it('writes command lines redacted to the process log and active-processes.json, never the secret', async () => {
      const s = store({ redact });
      await s.append([{ ...sampleEvent(1), cmd: `curl -H "Authorization: token ${token}" https://api.github.com` }]);
      await s.updateActive(() => ({ entries: [{ ...entry(5, 'a'), commandLine: `gh auth login --with-token ${token}` }], result: undefined }));
      const disk = readFileSync(s.logPath, 'utf8') + readFileSync(s.activePath, 'utf8');
      assert.ok(!disk.includes(token), disk);
      assert.ok(disk.includes(marker('GitHub token')), disk);
      assert.equal((await s.readEvents()).items.length, 1, 'the line is still valid JSON');
    });

    it("redacts the command line of a client whose own tools started a process, in every file", async () => {
      const s = store({ redact });
      const clientTools = { client: 'fake-cli', pid: 99, command: `fake-cli --api-key ${token}` };
      await s.append([{ ...sampleEvent(1), clientTools }]);
      await s.updateActive(() => ({ entries: [{ ...entry(5, 'a'), clientTools }], result: undefined }));
      const disk = readFileSync(s.logPath, 'utf8') + readFileSync(s.activePath, 'utf8');
      assert.ok(!disk.includes(token), disk);
      assert.equal(disk.split(`fake-cli --api-key ${marker('GitHub token')}`).length, 3, disk);
    });
  });

  describe('event log', () => {
    it('reads a missing log as empty and an empty log as empty', async () => {
      const s = store();
      assert.deepEqual(await s.readEvents(), { items: [], skipped: 0 });
      writeFileSync(s.logPath, '');
      assert.deepEqual(await s.readEvents(), { items: [], skipped: 0 });
    });

    it('skips and counts torn, garbage and truncated lines, keeping every valid one', async () => {
      const s = store();
      const good = [sampleEvent(1), sampleEvent(2), sampleEvent(3)].map((e) => JSON.stringify(e));
      writeFileSync(
        s.logPath,
        [
          good[0],
          '\u0000\u0000garbage }{',
          good[1]!.slice(0, 25), // truncated JSON mid-file (crash, then later appends)
          '{"event":"spawned","ts":"x"}', // valid JSON, not an event (no pid, no session)
          '[1,2,3]',
          good[2],
          good[0]!.slice(0, 40), // torn last line, no newline
        ].join('\n'),
      );
      const read = await s.readEvents();
      assert.deepEqual(read.items.map((e) => e.pid), [1, 3]);
      assert.equal(read.skipped, 5);
    });

    it('appends after a torn tail on a line of its own, so the new event survives', async () => {
      const s = store();
      writeFileSync(s.logPath, `${JSON.stringify(sampleEvent(1))}\n{"event":"spaw`);
      await s.append([sampleEvent(2), sampleEvent(3)]);
      const read = await s.readEvents();
      assert.deepEqual(read.items.map((e) => e.pid), [1, 2, 3]);
      assert.equal(read.skipped, 1);
      assert.ok(readFileSync(s.logPath, 'utf8').endsWith('\n'));
    });

    it('rotates past the threshold, keeps two generations, and the reader still finds the events', async () => {
      const s = store({ maxLogBytes: () => 2000 });
      for (let i = 1; i <= 120; i++) {
        await s.append([sampleEvent(i)]);
      }
      const files = readdirSync(s.dir).filter((f) => f.startsWith('process-log')).sort();
      assert.deepEqual(files, ['process-log.1.jsonl', 'process-log.2.jsonl', 'process-log.jsonl']);
      for (const f of files) {
        assert.ok(readFileSync(path.join(s.dir, f)).length <= 2000 + 200, `${f} stays near the threshold`);
      }
      const read = await s.readEvents();
      assert.equal(read.skipped, 0);
      const pids = read.items.map((e) => e.pid);
      assert.equal(pids[pids.length - 1], 120, 'the newest event is found');
      assert.deepEqual(pids, [...pids].sort((a, b) => a - b), 'oldest generation first, in order');
      assert.ok(pids.length >= 20 && pids.length < 120, `older generations were dropped (${pids.length} kept)`);
    });

    it('writes each batch in one append', async () => {
      const s = store();
      const size = await appendLines(s.logPath, ['{"a":1}', '{"b":2}']);
      assert.equal(size, readFileSync(s.logPath).length);
      assert.equal(readFileSync(s.logPath, 'utf8'), '{"a":1}\n{"b":2}\n');
    });
  });

  describe('active file', () => {
    it('reads a missing file as empty', async () => {
      assert.deepEqual(await store().readActive(), { entries: [], skipped: 0, corrupt: false });
    });

    it('treats a corrupt file as empty with a warning, and the next update repairs it', async () => {
      const logger = collectingLogger();
      const s = store({ logger });
      writeFileSync(s.activePath, '{"version":1,"entries":[{"pid":12');
      const read = await s.readActive();
      assert.deepEqual(read, { entries: [], skipped: 0, corrupt: true });
      assert.ok(logger.has('warn', /not a valid active-processes file/));
      await s.updateActive(() => ({ entries: [entry(5, 'a')], result: undefined }));
      assert.deepEqual((await s.readActive()).entries, [entry(5, 'a')]);
    });

    it('drops and counts entries without a usable identity or owner', async () => {
      const s = store();
      const bad = [{ pid: 7 }, { ...entry(8, 'a'), startTime: '' }, { ...entry(9, 'a'), owner: { pid: 'x' } }, 'nope'];
      writeFileSync(s.activePath, JSON.stringify({ version: 1, entries: [entry(1, 'a'), ...bad] }));
      const read = await s.readActive();
      assert.deepEqual(read.entries.map((e) => e.pid), [1]);
      assert.equal(read.skipped, 4);
    });

    it('hands the mutation every window’s entries and writes what it returns, atomically', async () => {
      const s = store();
      await s.updateActive(() => ({ entries: [entry(1, 'a'), entry(2, 'b')], result: undefined }));
      const seen = await s.updateActive((current) => ({
        entries: [...current.filter((e) => e.sessionId !== 'a'), entry(3, 'a')],
        result: current.length,
      }));
      assert.equal(seen, 2);
      assert.deepEqual((await s.readActive()).entries.map((e) => `${e.sessionId}:${e.pid}`), ['b:2', 'a:3']);
      assert.deepEqual(readdirSync(s.dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')), [], 'no temp or lock file left');
      const file = JSON.parse(readFileSync(s.activePath, 'utf8'));
      assert.equal(file.version, 1);
      assert.match(file.updatedAt, /^\d{4}-/);
    });
  });

  describe('data dir', () => {
    it('writes a .gitignore for the runtime files, and never replaces an existing one', async () => {
      const s = store();
      await s.init();
      const text = readFileSync(path.join(s.dir, '.gitignore'), 'utf8');
      assert.equal(text, GITIGNORE_CONTENT);
      for (const pattern of ['process-log.jsonl', 'process-log.*.jsonl', 'active-processes.json', 'active-processes.lock', 'sessions/', 'logs/', 'bridge.json', '*.tmp']) {
        assert.ok(text.split('\n').includes(pattern), pattern);
      }
      writeFileSync(path.join(s.dir, '.gitignore'), 'mine\n');
      await s.init();
      assert.equal(readFileSync(path.join(s.dir, '.gitignore'), 'utf8'), 'mine\n');
    });

    it('writes session summaries and keeps only the newest ones', async () => {
      const s = store({ keepSessions: 3 });
      await s.init();
      const summary = (id: string): SessionSummary => ({
        version: 1,
        sessionId: id,
        owner: { pid: 1, startTime: 'x' },
        startedAt: 'a',
        updatedAt: 'b',
        counts: { tracked: 0, running: 0, orphaned: 0, completed: 0, killed: 0, adopted: 0 },
        processes: [],
      });
      for (let i = 1; i <= 5; i++) {
        await s.writeSession(summary(`s${i}`));
        const at = new Date(Date.now() - (10 - i) * 60_000);
        utimesSync(path.join(s.sessionsDir, `s${i}.json`), at, at);
      }
      assert.equal(JSON.parse(readFileSync(path.join(s.sessionsDir, 's5.json'), 'utf8')).sessionId, 's5');
      await s.init();
      assert.deepEqual(readdirSync(s.sessionsDir).sort(), ['s3.json', 's4.json', 's5.json']);
      await assert.rejects(s.writeSession(summary('../escape')), /unusable session id/);
      assert.equal(existsSync(path.join(s.dir, 'escape.json')), false);
    });
  });
});
