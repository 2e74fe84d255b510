import assert from 'node:assert/strict';
import { descendantsFromTable } from '../../../extension/src/core/processes/processTree';
import {
  isConsoleHost,
  jsonRows,
  parseCimDate,
  parseJsonRows,
  parseListenRows,
  parseWin32Processes,
} from '../../../extension/src/core/processes/windowsParsers';
import { windowsShellActivity } from '../../../extension/src/core/processes/windowsProcessMonitor';
import { fixture } from './helpers';

describe('Windows ConvertTo-Json parsers (recorded JSON)', () => {
  it('parses Windows PowerShell 5.1 output: \\/Date()\\/ dates, the ETS date wrapper, null command lines', () => {
    const table = parseWin32Processes(parseJsonRows(fixture('win32-processes-ps51.json')));
    const byPid = new Map(table.map((p) => [p.pid, p]));
    assert.equal(table.length, 8);
    assert.equal(byPid.get(0)!.startTime, '', 'no CreationDate: an identity that never matches');
    assert.equal(byPid.get(4)!.commandLine, '[System]');
    const shell = byPid.get(7000)!;
    assert.equal(shell.startTime, '2025-11-16T08:16:40.1230000Z');
    assert.equal(shell.startedAt, '2025-11-16T08:16:40.123Z');
    assert.equal(shell.commandLine, '"C:\\Program Files\\PowerShell\\7\\pwsh.exe" -noexit -command "try { . \\"c:\\\\shellIntegration.ps1\\" } catch {}"');
    const node = byPid.get(7100)!;
    assert.equal(node.startTime, '2025-11-16T08:17:40.4560000Z', 'date from the { value, DisplayHint, DateTime } wrapper');
    assert.equal(node.commandLine, '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\zoë\\项目 (copy)\\server.js" --title="a b" ✓');
    assert.equal(node.pgid, undefined);
    assert.deepEqual(
      descendantsFromTable(table, 7000).map((p) => p.pid),
      [7010, 7100, 7200],
    );
  });

  it('parses PowerShell 7 output: ISO dates with offsets and 7 fraction digits, exactly', () => {
    const table = parseWin32Processes(parseJsonRows(fixture('win32-processes-pwsh7.json')));
    const byPid = new Map(table.map((p) => [p.pid, p]));
    assert.equal(byPid.get(3000)!.startTime, '2025-11-16T08:00:05.1234567Z', '+01:00 converted to UTC, 100 ns kept');
    assert.equal(byPid.get(3000)!.startedAt, '2025-11-16T08:00:05.123Z');
    assert.equal(byPid.get(5200)!.startTime, '2025-11-16T09:10:01.0000001Z');
    assert.equal(byPid.get(5300)!.startTime, '2025-11-16T10:10:01.7500000Z');
    assert.equal(byPid.get(5300)!.commandLine, '[ping.exe]', 'blank command line');
    assert.equal(byPid.get(5200)!.commandLine, 'python -c "print(\'línea\\nnueva\')"');
  });

  it('never adopts an older process through a parent pid that was reused', () => {
    const table = parseWin32Processes(parseJsonRows(fixture('win32-processes-pwsh7.json')));
    // 5400 names 5300 as parent, but started before the current 5300 existed.
    assert.deepEqual(
      descendantsFromTable(table, 5000).map((p) => p.pid),
      [5200, 5300],
    );
    assert.deepEqual(descendantsFromTable(table, 5300), []);
    assert.deepEqual(
      descendantsFromTable(table, 3000).map((p) => p.pid),
      [5100, 5000, 5200, 5300],
    );
  });

  it('accepts a single object, an empty answer and null as well as an array', () => {
    const single = parseWin32Processes(parseJsonRows(fixture('win32-process-single.json')));
    assert.equal(single.length, 1);
    assert.equal(single[0]!.pid, 7100);
    assert.deepEqual(parseJsonRows(''), []);
    assert.deepEqual(parseJsonRows('  \n'), []);
    assert.deepEqual(parseJsonRows('\uFEFF[]'), []);
    assert.deepEqual(jsonRows(null), []);
    assert.deepEqual(jsonRows([1, 'x', null, { a: 1 }]), [{ a: 1 }]);
  });

  it('parses every CreationDate form to the same canonical key', () => {
    const key = '2023-11-14T22:13:20.1230000Z';
    assert.equal(parseCimDate('/Date(1700000000123)/')?.key, key);
    assert.equal(parseCimDate('\\/Date(1700000000123)\\/')?.key, key, 'escaped form left in raw text');
    assert.equal(parseCimDate('/Date(1700000000123+0100)/')?.key, key, 'offset suffix is display only');
    assert.equal(parseCimDate({ value: '/Date(1700000000123)/', DisplayHint: 2 })?.key, key);
    assert.equal(parseCimDate('2023-11-14T23:13:20.123+01:00')?.key, key);
    assert.equal(parseCimDate('2023-11-14T17:13:20.1230000-05:00')?.key, key);
    assert.equal(parseCimDate('2023-11-14T22:13:20.123Z')?.key, key);
    assert.equal(parseCimDate('20231114231320.123000+060')?.key, key, 'raw CIM datetime');
    assert.equal(parseCimDate(1700000000123)?.key, key);
    assert.equal(parseCimDate('2023-11-14T22:13:20Z')?.key, '2023-11-14T22:13:20.0000000Z');
    assert.equal(parseCimDate('2023-11-14T22:13:20.1230000Z')?.iso, '2023-11-14T22:13:20.123Z');
    assert.equal(parseCimDate(null), undefined);
    assert.equal(parseCimDate('yesterday'), undefined);
  });

  it('parses Get-NetTCPConnection rows into sorted unique ports per pid', () => {
    const ports = parseListenRows(parseJsonRows(fixture('win32-listen-ports.json')));
    assert.deepEqual([...ports], [
      [7100, [3000, 9229]],
      [1032, [135]],
      [7200, [5173]],
    ]);
  });

  it('probeShell: children other than the console host make a job', () => {
    const table = parseWin32Processes(parseJsonRows(fixture('win32-processes-ps51.json')));
    const rows = table.filter((p) => p.pid === 7000 || p.ppid === 7000);
    const busy = windowsShellActivity(rows, 7000);
    assert.equal(busy.foreground, 'job');
    assert.equal(busy.readingTerminal, 'unknown');
    assert.deepEqual(busy.foregroundPids, [7100]);
    assert.match(busy.foregroundCommand ?? '', /server\.js/);
    const idle = windowsShellActivity(rows.filter((p) => p.pid !== 7100), 7000);
    assert.deepEqual(idle, { foreground: 'shell', readingTerminal: 'unknown', foregroundPids: [7000] });
    // The query answered without the shell: it is gone (a failed query never gets here: unknown).
    assert.deepEqual(windowsShellActivity([], 7000), { foreground: 'gone', readingTerminal: false });
    assert.deepEqual(windowsShellActivity(rows.filter((p) => p.pid !== 7000), 7000), { foreground: 'gone', readingTerminal: false }, 'children whose parent pid names a dead shell');
    assert.equal(isConsoleHost('CONHOST.EXE'), true);
    assert.equal(isConsoleHost('OpenConsole.exe'), true);
    assert.equal(isConsoleHost('cmd.exe'), false);
  });
});
