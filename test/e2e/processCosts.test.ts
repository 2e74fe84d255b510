// What processes cost, through the real chain in a real VS Code: a `yes > /dev/null` started in the
// background shows its CPU% (list_processes, terminal_state) within two polls, checked against
// /proc; with terminalShepherd.processes.memoryLimitMb set, a new terminal's shell carries the cap
// (ground truth: /proc/<shell>/limits) and a runaway allocation's result says the cap ended it; where
// the machine has a writable cgroup (/proc/<shell>/cgroup), two processes under the per-process cap
// but over it together are ended by the tree's cap, and the result says so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ListProcessesResult } from '../../common/src/protocol';
import { detectTreeCap, linuxCgroupFacts } from '../../extension/src/core/processes/treeMemoryCap';
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
      // Per tree too, where this machine has a writable cgroup (the window runs as this test's user, in its cgroup).
      const tree = await linuxCgroupFacts().then(detectTreeCap);
      if (tree.kind === 'none') {
        assert.match(r.message ?? '', /per process only: .*cgroup/, 'says why the cap is not per tree');
        return;
      }
      // Ground truth: the kernel has the shell in a cgroup of its own.
      assert.match(readFileSync(`/proc/${r.pid}/cgroup`, 'utf8'), /\/terminal-shepherd-[^/\n]+$/m);
      const each = 'python3 -c "a = bytearray(b\\"x\\") * (120 * 1048576); import time; time.sleep(3)"';
      const both = await win.run('terminal_run', { command: `${each} & ${each}; s=$?; wait $! || s=$?; test $s = 0`, name: 'capped' });
      assert.equal(both.cappedBy, 'memory', JSON.stringify(both));
      assert.match(both.message ?? '', /processes together may use 200 MB .*per tree: a cgroup v[12] memory controller/);
    } finally {
      await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('processes.memoryLimitMb', undefined, vscode.ConfigurationTarget.Global);`);
    }
  });
});
