// The process ledger through the real chain: processes started by terminal_run in a real VS Code
// are tracked (with parent shell and ports), persisted under .devtools/, killable only when the
// ledger owns them, ended with their terminal, and found again as orphans after VS Code restarts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListProcessesResult } from '../../common/src/protocol';
import { toolText } from '../support/mcpClient';
import { alive, flatten, ledgerEvents, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';
import { connectMcpServer } from '../support/mcpClient';

describe('process ledger in a real VS Code', function () {
  this.timeout(240_000);
  const leftovers: number[] = [];
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'process-ledger' }),
    () => {
      for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  async function processes(): Promise<ListProcessesResult> {
    return (await win.run('list_processes', {})) as unknown as ListProcessesResult;
  }

  let sleepPid = 0;
  let serverPid = 0;
  let jobsShell = 0;

  it('a background job and a server appear with their parent shell and port, and in the ledger files', async () => {
    const jobs = await win.run('terminal_run', { command: 'sleep 300 &', name: 'jobs' });
    jobsShell = jobs.pid!;
    const server = await win.run('terminal_run', {
      command: `node -e "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log('listening on ' + this.address().port) })"`,
      name: 'web',
      waitMode: 'background',
    });
    const port = Number(
      (await waitFor('the server to print its port', 15_000, async () => /listening on (\d+)/.exec((await win.run('terminal_state', { name: 'web' })).output)?.[1])),
    );
    const found = await waitFor('both processes in list_processes', 15_000, async () => {
      const all = flatten((await processes()).active);
      const sleep = all.find((p) => p.name === 'sleep' && p.commandLine === 'sleep 300');
      const node = all.find((p) => p.name === 'node' && p.ports.includes(port));
      return sleep && node ? { sleep, node } : undefined;
    });
    sleepPid = found.sleep.pid;
    serverPid = found.node.pid;
    leftovers.push(sleepPid, serverPid);
    assert.equal(found.sleep.parentPid, jobsShell, 'the sleep is a child of the "jobs" shell');
    assert.equal(found.sleep.terminalName, 'jobs');
    assert.equal(found.node.parentPid, server.pid, 'the server is a child of the "web" shell');
    assert.equal(found.node.status, 'running');
    assert.ok(Date.parse(found.node.startedAt) > Date.now() - 120_000);

    // The reminder on every response names them.
    const listed = await win.call('terminal_list', {});
    assert.match(toolText(listed), new RegExp(`- node, pid ${serverPid}, listening on ${port}, terminal "web"`));

    await waitFor('the ledger files to show both', 5000, () => {
      const events = ledgerEvents(win.workspace);
      const active = JSON.parse(readFileSync(path.join(win.workspace, '.devtools', 'active-processes.json'), 'utf8'));
      const activePids = active.entries.map((e: { pid: number }) => e.pid);
      return events.some((e) => e.pid === sleepPid) && events.some((e) => e.pid === serverPid) && activePids.includes(sleepPid) && activePids.includes(serverPid);
    });
    assert.match(readFileSync(path.join(win.workspace, '.devtools', '.gitignore'), 'utf8'), /process-log/);
  });

  it('kill_process kills the tree it owns and nothing else, and refuses what it does not own', async () => {
    for (const pid of [1, process.pid, jobsShell, 999_999]) {
      const refused = await win.call('kill_process', { pid });
      assert.equal(refused.isError, true, `pid ${pid} must be refused`);
      assert.match(toolText(refused), /^ProcessNotOwned: /);
    }
    const killed = await win.run('kill_process', { pid: serverPid });
    assert.deepEqual(killed.killed, [serverPid]);
    assert.equal(alive(serverPid), false);
    assert.equal(alive(sleepPid), true, 'the sleep in another terminal is untouched');
    assert.ok(ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === serverPid));
    const web = await waitFor('the "web" run to end after its server died', 10_000, async () => {
      const s = await win.run('terminal_state', { name: 'web' });
      return s.status === 'completed' ? s : undefined;
    });
    assert.notEqual(web.exitCode, 0);
  });

  it('closing a terminal ends the processes it spawned', async () => {
    await win.vscode.driver.evaluate(`vscode.window.terminals.find((t) => t.name === 'Shepherd: jobs').dispose();`);
    await waitFor('the sleep to die with its terminal', 15_000, () => !alive(sleepPid));
    await waitFor('a killed event for it', 5000, () => ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === sleepPid));
  });

  it('after VS Code stops and starts again, a process left running is an orphan, and kill_orphans ends it', async () => {
    await win.run('terminal_run', { command: 'nohup sleep 301 >/dev/null 2>&1 &', name: 'survivor' });
    const survivor = await waitFor('the nohup sleep in the ledger', 15_000, async () => flatten((await processes()).active).find((p) => p.commandLine === 'sleep 301'));
    leftovers.push(survivor.pid);
    await waitFor('active-processes.json to hold it', 5000, () =>
      JSON.parse(readFileSync(path.join(win.workspace, '.devtools', 'active-processes.json'), 'utf8')).entries.some((e: { pid: number }) => e.pid === survivor.pid),
    );
    const bridgeFile = path.join(win.workspace, '.devtools', 'bridge.json');
    const oldWindow = JSON.parse(readFileSync(bridgeFile, 'utf8')).pid;
    await win.mcp.close();
    await win.vscode.restart();
    assert.equal(alive(survivor.pid), true, 'nohup kept it alive through the restart');
    await waitFor('the new window to advertise its bridge', 60_000, () => existsSync(bridgeFile) && JSON.parse(readFileSync(bridgeFile, 'utf8')).pid !== oldWindow);
    const mcp = await connectMcpServer({ workspace: win.workspace });
    try {
      const listed = (await mcp.client.callTool({ name: 'list_processes', arguments: {} })) as unknown as { structuredContent: ListProcessesResult };
      const orphan = listed.structuredContent.orphaned.find((p) => p.pid === survivor.pid);
      assert.ok(orphan, `orphaned: ${JSON.stringify(listed.structuredContent)}`);
      assert.equal(orphan.status, 'orphaned');
      assert.equal(orphan.terminalName, 'survivor');
      const killed = (await mcp.client.callTool({ name: 'kill_orphans', arguments: {} })) as unknown as { structuredContent: { killed: number[] } };
      assert.ok(killed.structuredContent.killed.includes(survivor.pid));
      assert.equal(alive(survivor.pid), false);
      const events = ledgerEvents(win.workspace);
      assert.ok(events.some((e) => e.event === 'orphaned' && e.pid === survivor.pid));
      assert.ok(events.some((e) => e.event === 'killed' && e.pid === survivor.pid));
    } finally {
      await mcp.close();
    }
  });
});
