/**
 * How a server started outside VS Code finds its window: the folder and those above it, the
 * window whose extension host started it, records of windows that died skipped; the message
 * when none answers; the process ancestry parsers.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bridgeFilePath } from '../../../../common/src/bridgeDiscovery';
import { readWindowRecords, windowRecordPath } from '../../../../common/src/shepherdHome';
import { parseProcessRows, parseProcStatParent, processAncestors, walkUp } from '../../../../mcp-server/src/bridge/ancestry';
import { discoverBridges, searchFolders, unreachableMessage } from '../../../../mcp-server/src/bridge/windowDiscovery';
import { TempDirs } from '../../../support/tempDirs';

const dirs = new TempDirs();
after(() => dirs.cleanup());

function advertise(folder: string, endpoint: string, pid = process.pid): void {
  mkdirSync(path.join(folder, '.devtools'), { recursive: true });
  writeFileSync(bridgeFilePath(folder), JSON.stringify({ endpoint, token: 't'.repeat(43), protocolVersion: 1, pid, extensionVersion: '0.2.0', workspaceFolder: folder, createdAt: '' }));
}

function recordWindow(root: string, pid: number, workspaceFolder: string): void {
  mkdirSync(path.dirname(windowRecordPath(root, pid)), { recursive: true });
  writeFileSync(windowRecordPath(root, pid), JSON.stringify({ pid, workspaceFolder, extensionVersion: '0.2.0', createdAt: '' }));
}

describe('finding the window from outside VS Code', () => {
  it('searches the folder and each one above it, unless the folder was given explicitly', () => {
    assert.deepEqual(searchFolders({ folder: '/home/ana/src/shop/web', exact: false }), ['/home/ana/src/shop/web', '/home/ana/src/shop', '/home/ana/src', '/home/ana', '/home', '/']);
    assert.deepEqual(searchFolders({ folder: '/home/ana/src/shop/web', exact: true }), ['/home/ana/src/shop/web']);
  });

  it('order: the environment, then the nearest folder upwards; the window that started this process only when no folder has one', async () => {
    const root = dirs.make();
    const workspace = dirs.make();
    const sub = path.join(workspace, 'packages', 'web');
    mkdirSync(sub, { recursive: true });
    advertise(workspace, '/sock/workspace');
    const parentWorkspace = dirs.make();
    advertise(parentWorkspace, '/sock/parent');
    recordWindow(root, process.pid, parentWorkspace);
    let asked = 0;
    const ancestors = async (): Promise<number[]> => {
      asked++;
      return [4242, process.pid];
    };
    const found = await discoverBridges({ target: { endpoint: '/sock/env', token: 'x' }, workspace: { folder: sub, exact: false }, shepherdRoot: root, ancestors });
    assert.deepEqual(found.candidates.map((c) => c.target.endpoint), ['/sock/env', '/sock/workspace']);
    assert.equal(asked, 0, 'a folder with a window: the process ancestry is not read');
    assert.deepEqual(found.openWindows.map((w) => w.workspaceFolder), [parentWorkspace]);
    const elsewhere = dirs.make();
    const fromParent = await discoverBridges({ workspace: { folder: elsewhere, exact: false }, shepherdRoot: root, ancestors });
    assert.deepEqual(fromParent.candidates.map((c) => c.target.endpoint), ['/sock/parent'], 'started by a window that serves another folder (Cline, Continue)');
    const exact = await discoverBridges({ workspace: { folder: elsewhere, exact: true }, shepherdRoot: root, ancestors });
    assert.deepEqual(exact.candidates, [], 'an explicit folder is looked at alone');
  });

  it('skips records of windows that are gone and files that are not records', async () => {
    const root = dirs.make();
    recordWindow(root, process.pid, '/live');
    recordWindow(root, 2 ** 22 + 11, '/dead');
    writeFileSync(path.join(root, 'windows', 'notes.txt'), 'x');
    writeFileSync(path.join(root, 'windows', '77.json'), '{ torn');
    assert.deepEqual((await readWindowRecords(root)).map((w) => w.workspaceFolder), ['/live']);
    assert.deepEqual(await readWindowRecords(path.join(root, 'missing')), []);
  });

  it('says where it looked, which windows are open and what to do', () => {
    const open = [{ pid: 1, workspaceFolder: '/home/ana/src/api', extensionVersion: '0.2.0', createdAt: '' }];
    assert.equal(
      unreachableMessage({ folder: '/tmp/x', exact: false }, open, ['/tmp/x/.devtools/bridge.json: cannot connect to /s (ENOENT)']),
      'No VS Code window with the Terminal Shepherd extension serves /tmp/x: no live .devtools/bridge.json in it or any folder above it. ' +
        'Open /tmp/x (or a folder that contains it) in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry. ' +
        'Windows with Terminal Shepherd open now: /home/ana/src/api; to use one, start the server in that folder or pass --workspace <folder>. ' +
        '(Tried /tmp/x/.devtools/bridge.json: cannot connect to /s (ENOENT).)',
    );
    assert.equal(
      unreachableMessage({ folder: '/tmp/x', exact: true }, [], []),
      'No VS Code window with the Terminal Shepherd extension serves /tmp/x: there is no live /tmp/x/.devtools/bridge.json. ' +
        'Open /tmp/x in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry.',
    );
  });

  it('reads the process ancestry: ps and PowerShell tables, /proc stat, loops and depth bounded', async () => {
    const table = parseProcessRows('  1     0\n 812   1\r\n 9000  812\nnoise\n');
    assert.deepEqual([...table].map(([pid, row]) => [pid, row.ppid]), [[1, 0], [812, 1], [9000, 812]]);
    assert.deepEqual(await walkUp(9000, (p) => table.get(p)?.ppid), [812]);
    assert.equal(parseProcStatParent('4242 (node (x) y) S 812 4242 4242 0 -1'), 812);
    assert.deepEqual(await walkUp(5, (p) => (p === 5 ? 6 : 5)), [6], 'a loop ends the walk');
    const mine = await processAncestors();
    assert.equal(mine[0], process.ppid, 'on this machine the first ancestor is the parent');
    if (process.platform === 'linux') assert.deepEqual(await processAncestors('darwin'), mine, 'the `ps` table (procps answers the same query) agrees with /proc');
  });
});
