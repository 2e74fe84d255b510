/**
 * The memory cap on a terminal's whole tree: where a cgroup for it can go, decided from
 * /proc/self/cgroup, /proc/self/mountinfo and the cgroup files (recorded layouts: this project's
 * test machine, a desktop with systemd's delegated user@.service, a CI runner's undelegated v2),
 * and, where the machine running the tests has one, a real shell's tree capped: two processes
 * that each stay under the cap but together pass it, one ended by the kernel, the result told so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { capMessage, capThatEnded } from '../../../extension/src/core/processes/processLimits';
import { capTree, detectTreeCap, linuxCgroupFacts, type CgroupFacts, type TreeCapSupport } from '../../../extension/src/core/processes/treeMemoryCap';
import { describeWhere } from '../../support/skips';
import { hasCommand } from './helpers';

/** A recorded machine: its two /proc files, the cgroup files' text, and which paths its user may write. */
function machine(selfCgroup: string, mountinfo: string, files: Record<string, string>, writable: readonly string[]): CgroupFacts {
  return { selfCgroup, mountinfo, read: async (file) => files[file], writable: async (file) => writable.includes(file) };
}

/** This project's test machine (a Firecracker VM): cgroup v1 controllers, a v2 hierarchy offering only hugetlb, root. */
const VM_CGROUP = '9:name=systemd:/\n8:pids:/\n4:memory:/process_api/1cf6\n1:cpu:/\n0::/\n';
const VM_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');

/** A desktop: cgroup v2 only, VS Code in a scope of the user manager's app.slice, which systemd delegates (memory included). */
const DESKTOP_CGROUP = '0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-code-1234.scope\n';
const DESKTOP_MOUNTS = '25 21 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot';
const APP_SLICE = '/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice';

describe('per-tree memory cap: where a cgroup can go', () => {
  it('cgroup v1 with a writable memory cgroup (root on this project’s test machine): a child of its own', async () => {
    const own = '/sys/fs/cgroup/memory/process_api/1cf6';
    const found = await detectTreeCap(machine(VM_CGROUP, VM_MOUNTS, {}, [own, `${own}/cgroup.procs`]));
    assert.deepEqual(found, { kind: 'cgroup-v1', parent: own });
  });

  it('the same machine as a user: none, and the reasons for v1 and v2', async () => {
    const found = await detectTreeCap(machine(VM_CGROUP, VM_MOUNTS, { '/sys/fs/cgroup/unified/cgroup.subtree_control': '' }, []));
    assert.deepEqual(found, {
      kind: 'none',
      reason: "cgroup v1: this process's memory cgroup /sys/fs/cgroup/memory/process_api/1cf6 is not writable by this user; cgroup v2: /sys/fs/cgroup/unified hands its children no memory controller (none)",
    });
  });

  it('a desktop’s delegated user@.service: a sibling of VS Code’s scope in app.slice (v2 puts processes only in leaves)', async () => {
    const files = { [`${APP_SLICE}/cgroup.subtree_control`]: 'cpu memory pids\n' };
    assert.deepEqual(await detectTreeCap(machine(DESKTOP_CGROUP, DESKTOP_MOUNTS, files, [APP_SLICE, `${APP_SLICE}/cgroup.procs`])), { kind: 'cgroup-v2', parent: APP_SLICE });
    assert.deepEqual(await detectTreeCap(machine(DESKTOP_CGROUP, DESKTOP_MOUNTS, { [`${APP_SLICE}/cgroup.subtree_control`]: 'pids\n' }, [APP_SLICE, `${APP_SLICE}/cgroup.procs`])), {
      kind: 'none',
      reason: `cgroup v1: no memory controller mounted; cgroup v2: ${APP_SLICE} hands its children no memory controller (only pids)`,
    });
  });

  it('a CI runner’s service cgroup, not delegated: none, said so', async () => {
    const files = { '/sys/fs/cgroup/system.slice/cgroup.subtree_control': 'cpu io memory pids\n' };
    const found = await detectTreeCap(machine('0::/system.slice/actions.runner.service\n', DESKTOP_MOUNTS, files, []));
    assert.deepEqual(found, { kind: 'none', reason: 'cgroup v1: no memory controller mounted; cgroup v2: /sys/fs/cgroup/system.slice is not delegated to this user (not writable)' });
  });
});

/** What this machine offers (the tests below run only where it offers a cgroup). */
const support: Promise<TreeCapSupport> = process.platform === 'linux' ? linuxCgroupFacts().then(detectTreeCap) : Promise.resolve({ kind: 'none', reason: process.platform });
const here = process.platform === 'linux' && hasCommand('python3') && existsSync('/sys/fs/cgroup');

describeWhere(here, 'needs Linux and python3')('per-tree memory cap on a real shell (where this machine has a writable cgroup)', function () {
  this.timeout(30_000);

  it('two processes under the per-process size but over the cap together: the kernel ends one, the result says the tree cap did', async function () {
    const found = await support;
    if (found.kind === 'none') {
      this.skip(); // the reason is the detection's, tested above on recorded layouts
      return;
    }
    const shell = spawn('bash', ['-c', 'read -r go; for i in 1 2; do python3 -c "a = bytearray(b\\"x\\") * (70 * 1048576); import time; time.sleep(3)" & done; wait; echo "done"'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const closed = new Promise<number | null>((resolve) => shell.on('close', resolve));
    const bytes = 100 * 1048576;
    const cap = await capTree(found, shell.pid!, bytes, `test-${process.pid}`);
    try {
      // Ground truth: the kernel put the shell in the new cgroup, capped.
      assert.match(readFileSync(`/proc/${shell.pid}/cgroup`, 'utf8'), new RegExp(`/terminal-shepherd-test-${process.pid}$`, 'm'));
      assert.equal(readFileSync(`${cap.dir}/${found.kind === 'cgroup-v1' ? 'memory.limit_in_bytes' : 'memory.max'}`, 'utf8').trim(), String(bytes));
      cap.mark();
      shell.stdin.write('go\n');
      await closed;
      assert.equal(await cap.endedSinceMark(), true, 'the cgroup counted an OOM kill');
      const caps = { perProcess: { memoryBytes: bytes }, tree: { bytes, cap } };
      assert.equal(capThatEnded(caps, 137, '', true), 'memory');
      assert.match(capMessage('memory', caps, true), /processes together may use 100 MB .*per tree: a cgroup v[12] memory controller/);
      cap.mark();
      assert.equal(await cap.endedSinceMark(), false, 'a new mark: nothing since');
    } finally {
      shell.kill('SIGKILL');
      await closed;
      await cap.dispose();
    }
    assert.equal(existsSync(cap.dir), false, 'the empty cgroup is removed');
  });
});
