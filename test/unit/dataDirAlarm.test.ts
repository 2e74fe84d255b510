/** A data folder that cannot be written: every failure logged, the user told once, with what stops working. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataDirAlarm, describeDataDirFailure, type DataDirWriteFailure } from '../../extension/src/core/dataDirAlarm';
import { FakeProcessMonitor } from './ledger/fakeProcessMonitor';
import { TempDirs } from '../support/tempDirs';
import { waitFor } from './processes/helpers';
import { makeTracker } from './ledger/trackerSupport';

describe('DataDirAlarm', () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  it('tells the user at the first failure only, with the reason and no path noise', () => {
    const told: DataDirWriteFailure[] = [];
    const alarm = new DataDirAlarm((f) => told.push(f));
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write '/w/.devtools/logs/x.log'"), { code: 'ENOSPC' });
    alarm.report('outputLog', '/w/.devtools/logs/x.log', enospc);
    alarm.report('ledger', '/w/.devtools/process-log.jsonl', new Error('EROFS: read-only file system, open'));
    assert.deepEqual(told, [{ what: 'outputLog', path: '/w/.devtools/logs/x.log', reason: 'ENOSPC: no space left on device' }]);
    assert.equal(
      describeDataDirFailure(told[0]!),
      'Terminal Shepherd cannot write /w/.devtools/logs/x.log (ENOSPC: no space left on device). Commands still run, but the full output of long runs ' +
        'cannot be saved (results keep their head and tail). Free some space or make the folder writable; later failures are only logged.',
    );
    assert.match(describeDataDirFailure({ what: 'ledger', path: '/w/.devtools', reason: 'EROFS' }), /process ledger lives in memory only/);
    assert.match(describeDataDirFailure({ what: 'bridgeFile', path: '/w/.devtools/bridge.json', reason: 'EACCES' }), /MCP clients started outside VS Code cannot find this window/);
  });

  it('hears from the ledger when its folder cannot be made or written', async () => {
    const base = dirs.make('alarm-');
    const blocked = path.join(base, 'not-a-dir');
    writeFileSync(blocked, 'x'); // the data dir's path is a file: nothing under it can be written
    const failures: string[] = [];
    const fake = new FakeProcessMonitor();
    const { tracker } = makeTracker(fake, path.join(blocked, '.devtools'), { onWriteFailure: (p, e) => failures.push(`${p}: ${(e as Error).message}`) });
    await tracker.start();
    const shell = fake.spawn(1, 'bash', 'bash');
    tracker.terminalOpened('t', shell.pid);
    fake.spawn(shell.pid, 'sleep', 'sleep 9');
    await tracker.refresh();
    await waitFor('the append failure', () => failures.some((f) => f.includes('process-log.jsonl')));
    assert.match(failures[0]!, /\.devtools: ENOTDIR/);
    await tracker.dispose();
  });
});
