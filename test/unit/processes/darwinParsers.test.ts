import assert from 'node:assert/strict';
import {
  DARWIN_PS_COLUMNS,
  darwinForeground,
  darwinPsEnv,
  normalizeLstart,
  parseDarwinPs,
  parseDarwinPsLine,
  parseDarwinShellState,
  parseLsofListen,
  parseLstart,
} from '../../../extension/src/core/processes/darwinParsers';
import { descendantsFromTable } from '../../../extension/src/core/processes/processTree';
import { fixture } from './helpers';

describe('macOS ps / lsof parsers (recorded output)', () => {
  const table = parseDarwinPs(fixture('darwin-ps.txt'));
  const byPid = new Map(table.map((p) => [p.pid, p]));

  it('asks ps for the columns in the unambiguous order, in a fixed locale and UTC', () => {
    assert.equal(DARWIN_PS_COLUMNS, 'pid=,ppid=,pgid=,stat=,lstart=,ucomm=,pid=,args=');
    const env = darwinPsEnv({ LC_ALL: 'de_DE.UTF-8', TZ: 'Europe/Berlin', PATH: '/bin' });
    assert.equal(env.LC_ALL, undefined);
    assert.equal(env.LC_TIME, 'C');
    assert.equal(env.TZ, 'UTC0');
    assert.equal(env.PATH, '/bin');
  });

  it('parses every live row and skips the zombie', () => {
    assert.deepEqual(
      table.map((p) => p.pid),
      [0, 1, 812, 901, 4242, 4243, 4250, 5000, 77],
    );
  });

  it('keeps names and arguments with spaces, parentheses and unicode intact', () => {
    const helper = byPid.get(812)!;
    assert.equal(helper.name, 'Code Helper (Ren');
    assert.equal(
      helper.commandLine,
      '/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Renderer).app/Contents/MacOS/Code Helper (Renderer) --type=renderer --user-data-dir=/Users/zoë/Library/Application Support/Code',
    );
    const node = byPid.get(4242)!;
    assert.equal(node.name, 'node');
    assert.equal(node.commandLine, 'node /Users/zoë/项目 (copy)/server.js --title=a b ✓ 4242', 'its own pid inside args is not a delimiter');
    assert.deepEqual({ ppid: node.ppid, pgid: node.pgid }, { ppid: 901, pgid: 4242 });
    assert.equal(byPid.get(901)!.commandLine, '-zsh');
    assert.equal(byPid.get(77)!.commandLine, '(syslogd)');
  });

  it('is not fooled by a name that contains its own pid as a word', () => {
    const app = byPid.get(5000)!;
    assert.equal(app.name, 'my app 5000 x');
    assert.equal(app.commandLine, '/Applications/my app 5000 x.app/Contents/MacOS/my app 5000 x -psn_0_1');
  });

  it('keeps very long arguments whole (ps -ww)', () => {
    const py = byPid.get(4250)!;
    assert.equal(py.name, 'python3.12');
    assert.equal(py.commandLine.length, 'python3 -c --data='.length + 6000);
  });

  it('uses [name] when a process has no arguments', () => {
    assert.equal(byPid.get(0)!.commandLine, '[kernel_task]');
  });

  it('turns lstart (UTC) into ISO time and a whitespace-stable identity key', () => {
    assert.equal(parseLstart('Sun Nov  1 09:05:03 2026'), '2026-11-01T09:05:03.000Z');
    assert.equal(parseLstart('Sat Feb 28 23:59:59 2026'), '2026-02-28T23:59:59.000Z');
    assert.equal(parseLstart('Sam Feb 28 23:59:59 2026'.replace('Feb', 'Fév')), undefined, 'non-C locale month is refused');
    assert.equal(byPid.get(812)!.startTime, 'Sun Nov 1 09:05:03 2026');
    assert.equal(byPid.get(812)!.startedAt, '2026-11-01T09:05:03.000Z');
    assert.equal(normalizeLstart('Sun Nov  1 09:05:03 2026'), normalizeLstart('Sun Nov 1 09:05:03 2026'));
  });

  it('also parses rows without column padding (single spaces)', () => {
    const row = parseDarwinPsLine('4242 901 4242 S+ Sun Nov 22 10:31:07 2026 node 4242 node server.js 4242')!;
    assert.equal(row.name, 'node');
    assert.equal(row.commandLine, 'node server.js 4242');
  });

  it('rejects lines that are not rows', () => {
    assert.equal(parseDarwinPsLine('ps: illegal option -- w'), undefined);
    assert.equal(parseDarwinPsLine(''), undefined);
  });

  it('builds the tree from the table (zombie excluded)', () => {
    assert.deepEqual(
      descendantsFromTable(table, 901).map((p) => p.pid),
      [4242, 4243, 4250],
    );
  });

  it('parses lsof -F pn listening sockets per pid, de-duplicated and sorted', () => {
    const ports = parseLsofListen(fixture('darwin-lsof-listen.txt'));
    assert.deepEqual([...ports], [
      [812, [3000, 5173]],
      [4242, [8080, 9229]],
    ]);
    assert.deepEqual([...parseLsofListen('')], []);
  });

  it('reads the shell foreground from stat/tpgid/pgid', () => {
    for (const line of fixture('darwin-shell-states.txt').split('\n')) {
      if (!line || line.startsWith('#')) {
        continue;
      }
      const [expected, output] = line.split('|');
      assert.equal(darwinForeground({ code: 0, stdout: `${output!}\n`, failed: false }), expected, line);
    }
    assert.deepEqual(parseDarwinShellState('Ss+    901   901\n'), { stat: 'Ss+', tpgid: 901, pgid: 901 });
  });

  it('tells a gone shell (ps lists no such pid) from no answer at all', () => {
    assert.equal(darwinForeground({ code: 1, stdout: '', failed: false }), 'gone', 'ps ran and found no such pid');
    assert.equal(darwinForeground({ code: 1, stdout: '\n', failed: false }), 'gone');
    assert.equal(darwinForeground({ code: null, stdout: '', failed: true }), 'unknown', 'ps could not run or timed out');
    assert.equal(darwinForeground({ code: 2, stdout: '', failed: false }), 'unknown', 'ps refused its arguments');
    assert.equal(darwinForeground({ code: 0, stdout: 'garbage\n', failed: false }), 'unknown');
  });
});
