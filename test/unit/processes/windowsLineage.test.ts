/**
 * Windows descendants by repeated CIM snapshots: the recorded sequence is `npm run dev` in a
 * PowerShell terminal (pwsh -> cmd.exe /c npm run dev -> node npm-cli.js -> node vite.js ->
 * esbuild.exe), then a second snapshot after cmd.exe and npm's node exited (as they do when npm is
 * killed, or when a launcher hands over), while vite and esbuild run on, and npm's pid 7200 was
 * reused by an unrelated newer process. One snapshot alone, or `taskkill /T`, loses vite and
 * esbuild; the remembered lineage keeps them, by identity, and never adopts the reused pid.
 */
import assert from 'node:assert/strict';
import { descendantsFromTable } from '../../../extension/src/core/processes/processTree';
import { ProcessLineage } from '../../../extension/src/core/processes/processLineage';
import { parseCimDate, parseWin32Processes } from '../../../extension/src/core/processes/windowsParsers';
import { WindowsProcessMonitor, LIST_PROCESSES_SCRIPT } from '../../../extension/src/core/processes/windowsProcessMonitor';
import { fixtureJson, killOutcome } from './helpers';

const [first, second] = (fixtureJson('win32-lineage-snapshots.json') as Array<Array<Record<string, unknown>>>).map((rows) => parseWin32Processes(rows)) as [
  ReturnType<typeof parseWin32Processes>,
  ReturnType<typeof parseWin32Processes>,
];
const pids = (list: ReadonlyArray<{ pid: number }>): number[] => list.map((p) => p.pid);

describe('Windows process lineage (repeated CIM snapshots)', () => {
  it('one snapshot alone loses the grandchildren whose parent exited', () => {
    assert.deepEqual(pids(descendantsFromTable(first, 7000)), [7010, 7100, 7200, 7300, 7400]);
    assert.deepEqual(pids(descendantsFromTable(second, 7000)), [7010], 'vite and esbuild hang off the dead npm, or worse');
  });

  it('the remembered lineage keeps them, by identity, and does not adopt the newer process that reused pid 7200', () => {
    const lineage = new ProcessLineage();
    lineage.remember(first);
    lineage.remember(second);
    assert.deepEqual(pids(lineage.descendants(second, 7000)), [7010, 7300, 7400]);
    assert.equal(lineage.descendants(second, 7000).some((p) => p.name === 'svchost.exe'), false);
    assert.deepEqual(pids(lineage.descendants(second, 8000)), [7200], "the reused pid's real parent gets its own child, not vite");
  });

  it('forgets a process not seen for its bound of snapshots', () => {
    const lineage = new ProcessLineage(1);
    lineage.remember(first);
    lineage.remember(second);
    lineage.remember(second);
    assert.deepEqual(pids(lineage.descendants(second, 7000)), [7010], 'npm and its cmd.exe were forgotten');
  });

  it('the monitor kills the whole lineage, top-down, and "already gone" is not a failure', async () => {
    let table = [...(fixtureJson('win32-lineage-snapshots.json') as Array<Array<Record<string, unknown>>>)[0]!];
    const stopped: number[] = [];
    const session = {
      async run(script: string): Promise<string> {
        if (script === LIST_PROCESSES_SCRIPT) return JSON.stringify(table);
        const data = /FromBase64String\('([^']+)'\)\) \| ConvertFrom-Json/.exec(script);
        assert.ok(data, script.slice(0, 80));
        const targets = JSON.parse(Buffer.from(data[1]!, 'base64').toString('utf8')) as Array<{ pid: number; start: string }>;
        return JSON.stringify(
          targets.map((t) => {
            const row = table.find((r) => r.ProcessId === t.pid);
            // esbuild exits by itself when vite goes: Stop-Process then says it cannot find it.
            if (!row) return { Pid: t.pid, Result: 'gone', Error: `Cannot find a process with the process identifier ${t.pid}.` };
            if (parseCimDate(row.CreationDate)?.key !== t.start) return { Pid: t.pid, Result: 'changed' };
            stopped.push(t.pid);
            table = table.filter((r) => r !== row && !(t.pid === 7300 && r.ProcessId === 7400));
            return { Pid: t.pid, Result: 'killed' };
          }),
        );
      },
      dispose() {},
    };
    const monitor = new WindowsProcessMonitor({ session, cacheMs: 0 });
    await monitor.listAll(); // the poller's earlier look: npm and its cmd.exe still there
    table = (fixtureJson('win32-lineage-snapshots.json') as Array<Array<Record<string, unknown>>>)[1]!;
    const vite = second.find((p) => p.pid === 7300)!;
    const result = await monitor.killTree(vite);
    assert.deepEqual(stopped, [7300], 'vite first; esbuild went with it');
    assert.deepEqual(killOutcome(result), { killed: [7300, 7400], failed: [] });
    assert.ok(table.some((r) => r.ProcessId === 7200), 'the process that reused npm\'s pid was never touched');
  });
});
