// What processes cost, through the real chain in a real VS Code: a `yes > /dev/null` started in the
// background shows its CPU% (list_processes, terminal_state) within two polls, checked against
// /proc; with terminalShepherd.processes.memoryLimitMb set, a new terminal's shell carries the cap
// (ground truth: /proc/<shell>/limits) and a runaway allocation's result says the cap ended it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ListProcessesResult } from '../../common/src/protocol';
import { procStatFields } from '../support/procStat';
import { alive, flatten, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

describe('what processes cost in a real VS Code', function () {
  this.timeout(240_000);
  const leftovers: number[] = [];
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'process-costs' }),
    () => {
      for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  it('a busy background job shows its CPU% and memory within two polls', async () => {
    await win.run('terminal_run', { command: 'yes > /dev/null &', name: 'busy', waitMode: 'background' });
    const yes = await waitFor('yes at a measured CPU%', 30_000, async () => {
      const listed = (await win.run('list_processes', {})) as unknown as ListProcessesResult;
      const p = flatten(listed.active).find((q) => q.name === 'yes');
      if (p) leftovers.push(p.pid);
      return p?.cpuPercent !== undefined && p.cpuPercent > 30 ? p : undefined;
    });
    // Ground truth: /proc says it burns CPU (utime + stime grow).
    const ticks = (): number => Number(procStatFields(yes.pid)![11]) + Number(procStatFields(yes.pid)![12]);
    const before = ticks();
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(ticks() - before > 10, 'yes used CPU time in /proc');
    assert.ok((yes.rssBytes ?? 0) > 0);
    const state = await win.call('terminal_state', { name: 'busy' });
    const text = state.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.match(text, /\d+% CPU/, text);
    const killed = (await win.run('kill_process', { pid: yes.pid })) as unknown as { killed: number[] };
    assert.deepEqual(killed.killed, [yes.pid]);
  });

  it('with a memory cap, a runaway allocation ends and the result says the cap ended it', async () => {
    await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('processes.memoryLimitMb', 200, vscode.ConfigurationTarget.Global);`);
    try {
      const r = await win.run('terminal_run', { command: 'python3 -c "a = bytearray(600 * 1024 * 1024)"', name: 'capped' });
      assert.ok(r.pid, 'the shell pid');
      assert.match(readFileSync(`/proc/${r.pid}/limits`, 'utf8'), /Max data size\s+209715200\s+209715200/, 'the shell carries the cap');
      assert.equal(r.status, 'completed');
      assert.equal(r.cappedBy, 'memory', JSON.stringify(r));
      assert.match(r.message ?? '', /memory cap/);
    } finally {
      await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('processes.memoryLimitMb', undefined, vscode.ConfigurationTarget.Global);`);
    }
  });
});
