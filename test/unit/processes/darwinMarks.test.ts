/**
 * The macOS marked-process scan on recorded macOS output (no Mac here): the real monitor, with
 * its ps runs answered from fixtures in BSD ps's format (test/fixtures/processes/darwin-ps-env*.txt):
 * `ps -E` appends each process's launch environment, space-separated, after its arguments; a
 * restricted process (/bin/sleep since Big Sur) shows its arguments alone.
 */
import assert from 'node:assert/strict';
import { DARWIN_MARK_COLUMNS, environmentValues, parseDarwinMarkedPs } from '../../../extension/src/core/processes/darwinMarks';
import { DarwinProcessMonitor } from '../../../extension/src/core/processes/darwinProcessMonitor';
import type { CommandOutput } from '../../../extension/src/core/processes/runCommand';
import { MARK_NAMES, MARK_SESSION, MARK_TERMINAL } from '../../../extension/src/core/ledger/processMarks';
import { fixture } from './helpers';

const SESSION = '20261122T103000Z-812-a1b2c3';

interface Call {
  readonly file: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/** Answers ps as macOS did: the -E scan from the recording, `-p` lookups from the lookup recording (exit 1 when a pid is gone). */
function recordedPs(calls: Call[], scan = fixture('darwin-ps-env.txt')) {
  const lookupRows = fixture('darwin-ps-env-lookup.txt').split('\n').filter((l) => l.trim().length > 0);
  return async (file: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CommandOutput> => {
    calls.push({ file, args, env: options.env });
    if (args.includes('-E')) return { stdout: scan, stderr: '', code: 0 };
    const p = args.indexOf('-p');
    assert.ok(p >= 0, `unexpected ps call ${args.join(' ')}`);
    const wanted = args[p + 1]!.split(',').map(Number);
    const rows = lookupRows.filter((l) => wanted.includes(Number(l.trim().split(/\s+/)[0])));
    return { stdout: rows.map((r) => `${r}\n`).join(''), stderr: '', code: rows.length === wanted.length ? 0 : 1 };
  };
}

describe('macOS marked-process scan (ps -E, recorded output)', () => {
  it('asks ps for the caller\'s own processes (-x without -a) with their environment, full width, tpgid first and command last', async () => {
    const calls: Call[] = [];
    await new DarwinProcessMonitor({ run: recordedPs(calls) }).markedProcesses(MARK_NAMES);
    const scan = calls[0]!;
    assert.deepEqual(scan.args, ['-E', '-x', '-ww', '-o', DARWIN_MARK_COLUMNS]);
    assert.equal(DARWIN_MARK_COLUMNS, 'tpgid=,pid=,ppid=,pgid=,stat=,lstart=,ucomm=,pid=,command=');
    assert.equal(scan.env?.TZ, 'UTC0', 'lstart in UTC, as every other identity of this monitor');
    assert.equal(scan.env?.LC_TIME, 'C');
    assert.deepEqual(calls[1]!.args.slice(-2), ['-p', '901,4300,4310,4320,4360,4370'], 'one lookup for every marked pid');
  });

  it('finds the marked processes with the identity the monitor gives everywhere, and the command line without the environment', async () => {
    const monitor = new DarwinProcessMonitor({ run: recordedPs([]) });
    const found = await monitor.markedProcesses(MARK_NAMES);
    assert.deepEqual(
      found.map((m) => m.info.pid),
      [901, 4300, 4310, 4320],
    );
    const server = found.find((m) => m.info.pid === 4300)!;
    assert.deepEqual(server.info, {
      pid: 4300,
      ppid: 1,
      pgid: 4300,
      name: 'node',
      commandLine: 'node /Users/zoë/项目 (copy)/server.js --port 3000',
      startTime: 'Sun Nov 22 10:31:07 2026',
      startedAt: '2026-11-22T10:31:07.000Z',
    });
    assert.deepEqual(server.marks, { [MARK_SESSION]: SESSION, [MARK_TERMINAL]: 'dev server' });
    for (const m of found) assert.doesNotMatch(m.info.commandLine, /HOME=|SHELL=|TERMINAL_SHEPHERD_SESSION=2026/, 'no environment in what the ledger keeps');
  });

  it('tells the terminal shell (session leader with a terminal) from what it started, also a setsid child', async () => {
    const found = await new DarwinProcessMonitor({ run: recordedPs([]) }).markedProcesses(MARK_NAMES);
    const shell = (pid: number): boolean | undefined => found.find((m) => m.info.pid === pid)?.terminalShell;
    assert.equal(shell(901), true, 'the zsh of the terminal: Ss+ with tpgid 901');
    assert.equal(shell(4300), false, 'a background job: not a session leader');
    assert.equal(shell(4310), false, 'a setsid child leads a session but has no terminal (tpgid 0)');
  });

  it('drops a pid reused between the scan and the lookup, and one gone meanwhile', async () => {
    const found = await new DarwinProcessMonitor({ run: recordedPs([]) }).markedProcesses(MARK_NAMES);
    assert.equal(found.some((m) => m.info.pid === 4360), false, 'another start time: another process');
    assert.equal(found.some((m) => m.info.pid === 4370), false, 'absent from the lookup');
  });

  it('answers none without a lookup when nothing is marked, and rejects when ps fails (never "none" for "could not look")', async () => {
    const calls: Call[] = [];
    assert.deepEqual(await new DarwinProcessMonitor({ run: recordedPs(calls, '') }).markedProcesses(MARK_NAMES), []);
    assert.equal(calls.length, 1);
    const failing = new DarwinProcessMonitor({ run: async () => ({ stdout: '', stderr: 'ps: illegal option -- E', code: 1 }) });
    await assert.rejects(failing.markedProcesses(MARK_NAMES), /ps -E failed \(exit 1\): ps: illegal option -- E/);
  });

  it('parses the scan: environment after the arguments, the last occurrence wins over a look-alike argument', () => {
    const rows = new Map(parseDarwinMarkedPs(fixture('darwin-ps-env.txt'), MARK_NAMES).map((r) => [r.pid, r]));
    assert.deepEqual([...rows.keys()], [901, 4300, 4310, 4320, 4360, 4370], 'unmarked, restricted (sleep: no environment shown), zombie and ps itself skipped');
    assert.deepEqual(rows.get(4320)!.marks, { [MARK_SESSION]: SESSION, [MARK_TERMINAL]: 'tests' }, 'the arguments\' decoy marks are not taken');
    assert.deepEqual(rows.get(4310)!.marks, { [MARK_SESSION]: SESSION, [MARK_TERMINAL]: 'dev server' }, 'a value with a space, last on the line');
    assert.equal(rows.get(901)!.startTime, 'Sun Nov 22 10:30:00 2026');
  });

  it('reads values up to the next variable, empty ones too, and only the names asked for', () => {
    assert.deepEqual(environmentValues('cmd A=1 B=two words C=3', ['B', 'C', 'D']), { B: 'two words', C: '3' });
    assert.deepEqual(environmentValues('cmd B= C=3', ['B']), { B: '' });
    assert.equal(environmentValues('cmd XB=1 B2=3', ['B']), undefined, 'a longer name is another variable');
    assert.equal(environmentValues('B=1', ['B']), undefined, 'never the command itself: the environment comes after it');
  });
});
