/** The model the tree view and the Show Processes pick render. */
import assert from 'node:assert/strict';
import {
  allOrphans,
  buildOverview,
  findProcess,
  isEmptyOverview,
  pickRows,
  serverFacts,
  terminalHeading,
  treeOf,
} from '../../../../extension/src/vscode/ui/processModel';
import { proc, terminal } from './fixtures';

describe('ui process model', () => {
  const server = proc(100, { name: 'python3', terminalName: 'server', ports: [8000], children: [proc(101, { terminalName: 'server', parentPid: 100 })] });
  const sleeper = proc(200, { name: 'sleep', terminalName: 'default' });
  const escaped = proc(300, { name: 'node', terminalName: 'gone' });
  const orphan = proc(400, { name: 'sleep', terminalName: 'old', status: 'orphaned', children: [proc(401, { status: 'orphaned' })] });

  const devServer = {
    terminal: 'server',
    command: 'python3 -m http.server',
    pid: 100,
    ports: [8000],
    urls: ['http://localhost:8000/'],
    startedAt: '2025-01-01T09:57:00.000Z',
    uptimeMs: 180_000,
    status: 'running' as const,
  };
  const overview = buildOverview(
    { active: [server, sleeper, escaped], orphaned: [orphan] },
    [terminal('default', 10), terminal('server', 20, { busy: true, command: 'python3 -m http.server' }), terminal('idle', 30)],
    [devServer],
  );

  it('groups processes under their terminals, in the terminal order, closed terminals last', () => {
    assert.deepEqual(
      overview.terminals.map((t) => [t.name, t.shellPid, t.open, t.processes.map((p) => p.pid)]),
      [
        ['default', 10, true, [200]],
        ['server', 20, true, [100]],
        ['idle', 30, true, []],
        ['gone', undefined, false, [300]],
      ],
    );
    assert.equal(overview.terminals[1]!.command, 'python3 -m http.server');
    assert.deepEqual(overview.terminals.map((t) => t.urls), [[], ['http://localhost:8000/'], [], []]);
    assert.deepEqual(overview.orphans.map((p) => p.pid), [400]);
  });

  it('pick rows: a separator per terminal with processes, its server URLs, then the orphans, children one level deeper', () => {
    const rows = pickRows(overview).map((r) =>
      r.kind === 'separator' ? `-- ${r.label}` : r.kind === 'url' ? `url ${r.url} in ${r.terminal}` : `${r.depth}:${r.process.pid}:${r.terminal ?? '-'}:${r.orphan}`,
    );
    assert.deepEqual(rows, [
      '-- default · shell pid 10',
      '0:200:default:false',
      '-- server · shell pid 20',
      'url http://localhost:8000/ in server',
      '0:100:server:false',
      '1:101:server:false',
      '-- gone (closed)',
      '0:300:-:false',
      '-- Orphans (left running by an earlier window)',
      '0:400:-:true',
      '1:401:-:true',
    ]);
  });

  it('finds a process anywhere, knowing its terminal and whether it is an orphan', () => {
    assert.deepEqual([findProcess(overview, 101)?.terminal, findProcess(overview, 101)?.depth], ['server', 1]);
    assert.equal(findProcess(overview, 401)?.orphan, true);
    assert.equal(findProcess(overview, 999), undefined);
  });

  it('tree and orphan helpers', () => {
    assert.deepEqual(treeOf(server).map((p) => p.pid), [100, 101]);
    assert.deepEqual(allOrphans(overview).map((p) => p.pid), [400, 401]);
    assert.equal(terminalHeading({ name: 'x', shellPid: undefined, open: true, busy: false, command: undefined, processes: [], urls: [] }), 'x');
    assert.deepEqual(serverFacts([devServer, { ...devServer, terminal: undefined, status: 'orphaned' }]), { count: 1, servers: [{ url: 'http://localhost:8000/', text: 'python3 -m http.server in server' }] });
  });

  it('empty: no terminal and no orphan (the view shows its welcome)', () => {
    assert.equal(isEmptyOverview(buildOverview({ active: [], orphaned: [] }, [])), true);
    assert.equal(isEmptyOverview(buildOverview({ active: [], orphaned: [] }, [terminal('a', 1)])), false);
    assert.equal(isEmptyOverview(buildOverview({ active: [], orphaned: [orphan] }, [])), false);
  });

  it('a malformed tree (a pid twice) does not loop', () => {
    const loop = proc(1, { children: [proc(2, { children: [proc(1)] })] });
    const rows = pickRows(buildOverview({ active: [loop], orphaned: [] }, [terminal('default', 5)]));
    assert.equal(rows.filter((r) => r.kind === 'process').length, 2);
  });
});
