/**
 * The Windows monitor's PowerShell session against a REAL PowerShell 7 (pwsh 7.6.9 from
 * .vscode-test/pwsh on Linux): spawn, the base64 request framing, JSON, errors, timeouts, restarts
 * after a crash, dispose. Then the whole monitor on it with `Get-CimInstance Win32_Process` from a
 * test shim built from Get-Process (test/fixtures/processes/win32ProcessShim.ps1): real process
 * trees found, identities (creation times) checked, a kill by the monitor's own script. Only the CIM
 * provider is a stand-in; on Windows the same tests run on the real one, without the shim.
 * Ground truth from /proc and from the OS's answer to signal 0, not the monitor's word.
 */
import assert from 'node:assert/strict';
import { readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { ensurePwsh, pwshAvailable, PWSH_MISSING, type PwshInstall } from '../../../.devtools/scripts/pwshInstall';
import { PowerShellSession, PowerShellTimeoutError, type PowerShellChild } from '../../../extension/src/core/processes/powershellSession';
import { toIdentity } from '../../../extension/src/core/processes/types';
import { WindowsProcessMonitor, spawnPowerShell } from '../../../extension/src/core/processes/windowsProcessMonitor';
import { procAlive, procStartTicks } from '../../support/procStat';
import { describeWhere } from '../../support/skips';
import { fixturesDir, killOutcome, ProcessJanitor, waitFor } from './helpers';

const onWindows = process.platform === 'win32';
/** The shim as one stdin line: -Command - runs each line as it comes, so it is dot-sourced from base64. */
const SHIM_LINE = `. ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${readFileSync(path.join(fixturesDir, 'win32ProcessShim.ps1')).toString('base64')}'))))\n`;

/** Alive by the OS (signal 0), for any system; /proc where there is one. */
function osAlive(pid: number): boolean {
  if (process.platform === 'linux') return procAlive(pid);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeWhere(pwshAvailable(), PWSH_MISSING)('the Windows monitor on a real PowerShell 7', function () {
  this.timeout(120_000); // each pwsh starts in about a second, several times that on a busy machine
  let install: Extract<PwshInstall, { ok: true }>;
  const children: Array<PowerShellChild & { pid?: number }> = [];
  const sessions: PowerShellSession[] = [];

  before(async function () {
    const found = await ensurePwsh();
    if (!found.ok) return this.skip();
    install = found;
    Object.assign(process.env, install.env);
  });
  after(() => sessions.splice(0).forEach((s) => s.dispose()));

  /** A session on the real pwsh (through the product's own spawn), with the CIM shim where CIM does not exist. */
  function realSession(options: { timeoutMs?: number; shim?: boolean } = {}): PowerShellSession {
    const session = new PowerShellSession({
      spawn: () => {
        const child = spawnPowerShell(install.pwsh) as PowerShellChild & { pid?: number };
        if (options.shim !== false && !onWindows) child.stdin.write(SHIM_LINE);
        children.push(child);
        return child;
      },
      timeoutMs: options.timeoutMs ?? 30_000,
    });
    sessions.push(session);
    return session;
  }
  const lastPid = (): number => children.at(-1)!.pid!;

  describe('the PowerShell session', () => {
    it('starts the real pwsh once and answers requests in turn: JSON of objects, arrays, text that needs no escaping, nothing', async () => {
      const s = realSession({ shim: false });
      const version = JSON.parse(await s.run('$PSVersionTable.PSVersion.ToString()'));
      if (!onWindows) assert.equal(version, install.version);
      if (process.platform === 'linux') assert.equal(readlinkSync(`/proc/${lastPid()}/exe`), install.pwsh, 'the session child is pwsh itself');
      const tricky = "it's \"quoted\" `$x ✓ 项目\r\nsecond line $(rm -rf /) ' OK ";
      const obj = JSON.parse(await s.run(`[pscustomobject]@{ Text = '${tricky.replace(/'/g, "''")}'; Pid = $PID; N = [uint32]7 }`));
      assert.deepEqual([obj.Text, obj.Pid, obj.N], [tricky, lastPid(), 7]);
      assert.deepEqual(JSON.parse(await s.run('1..3')), [1, 2, 3]);
      assert.equal(await s.run('$null = 1'), '', 'an empty pipeline');
      // Console noise, and a forged answer line with a guessed sentinel, do not end the request.
      const noisy = await s.run("Write-Host 'noise'; [Console]::Out.WriteLine('__TSHEP_0__ OK ' + 'Zm9yZ2Vk'); Write-Output 42");
      assert.equal(noisy, '42');
      assert.equal(s.spawnCount, 1, 'one PowerShell for all of them');
    });

    it('a terminating error and a cmdlet error become ERR answers with the message; the session goes on', async () => {
      const s = realSession({ shim: false });
      await assert.rejects(s.run("throw 'boom from the script'"), /^Error: PowerShell: boom from the script$/);
      await assert.rejects(s.run("Get-Item -LiteralPath '/no/such/tshep-file'"), /PowerShell: Cannot find path '.*tshep-file' because it does not exist/);
      assert.equal(JSON.parse(await s.run("'still here'")), 'still here');
      assert.equal(s.spawnCount, 1);
    });

    it('a request past its timeout is rejected, its stuck pwsh killed, and the next request gets a new one', async () => {
      const s = realSession({ shim: false });
      await s.run('1');
      const stuck = lastPid();
      await assert.rejects(s.run('Start-Sleep -Seconds 20', 1500), PowerShellTimeoutError);
      await waitFor('the stuck pwsh to be gone', () => !osAlive(stuck), 10_000);
      assert.equal(JSON.parse(await s.run('$PID')), lastPid());
      assert.notEqual(lastPid(), stuck);
      assert.equal(s.spawnCount, 2);
    });

    it('pwsh killed from outside (idle, then in the middle of a request): the session restarts it and answers', async () => {
      const s = realSession({ shim: false });
      const first = JSON.parse(await s.run('$PID'));
      const firstChild = children.at(-1) as unknown as { exitCode: number | null; signalCode: string | null };
      process.kill(first, 'SIGKILL');
      // Idle: no request is lost once the session has seen the exit (a request sent in between fails, as the next case shows).
      await waitFor('the session to see the killed pwsh exit', () => firstChild.exitCode !== null || firstChild.signalCode !== null, 10_000);
      const second = JSON.parse(await s.run('$PID'));
      assert.notEqual(second, first);
      const pending = s.run('Start-Sleep -Seconds 20; 1');
      await new Promise((r) => setTimeout(r, 500));
      process.kill(second, 'SIGKILL');
      await assert.rejects(pending, /PowerShell ended before answering/);
      const third = JSON.parse(await s.run('$PID'));
      assert.ok(third !== first && third !== second);
      assert.equal(s.spawnCount, 3);
    });

    it('dispose ends pwsh and refuses further requests', async () => {
      const s = realSession({ shim: false });
      const pid = JSON.parse(await s.run('$PID'));
      s.dispose();
      await waitFor('pwsh to be gone after dispose', () => !osAlive(pid), 10_000);
      await assert.rejects(s.run('1'), /disposed/);
    });
  });

  describeWhere(process.platform === 'linux', "the CIM shim reads Linux's /proc (on Windows the desktop suite runs the monitor on the real CIM)")('the monitor, CIM from the shim', () => {
    const janitor = new ProcessJanitor();
    afterEach(() => janitor.cleanup());

    it('lists this process with its parent, name, command line and a creation time that survives a pwsh restart', async () => {
      const monitor = new WindowsProcessMonitor({ session: realSession(), cacheMs: 0 });
      const self = (await monitor.listAll()).find((p) => p.pid === process.pid);
      assert.ok(self, 'own pid in the snapshot');
      assert.equal(procStartTicks(process.pid) !== undefined, true);
      assert.equal(self.ppid, process.ppid);
      assert.match(self.name, /^node/);
      assert.match(self.commandLine, /mocha|node/);
      assert.match(self.startTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
      // Another monitor on another pwsh: the same identity (what a restarted session must see).
      const again = (await new WindowsProcessMonitor({ session: realSession(), cacheMs: 0 }).listAll()).find((p) => p.pid === process.pid);
      assert.equal(again?.startTime, self.startTime);
      assert.equal(await monitor.isAlive(toIdentity(self)), true);
      assert.equal(await monitor.isAlive({ pid: self.pid, startTime: '2001-01-01T00:00:00.0000000Z' }), false, 'same pid, another creation time');
    });

    it('finds a real three-generation tree, probes its shell, and kills it by identity: every process gone by the OS', async () => {
      const monitor = new WindowsProcessMonitor({ session: realSession(), cacheMs: 0 });
      const root = janitor.spawn('bash', ['-c', 'sleep 9111 & bash -c "sleep 9112 & wait" & wait']);
      const tree = await waitFor(
        'the tree to be complete',
        async () => {
          const d = await monitor.descendants(root.pid!);
          return d.length >= 3 ? d : undefined;
        },
        20_000,
        200,
      );
      tree.forEach((p) => janitor.track(p.pid));
      const byCmd = new Map(tree.map((p) => [p.commandLine, p]));
      const middle = byCmd.get('bash -c sleep 9112 & wait');
      assert.ok(middle && byCmd.get('sleep 9111')?.ppid === root.pid, JSON.stringify(tree));
      assert.equal(byCmd.get('sleep 9112')?.ppid, middle.pid, 'grandchild under the middle bash');
      for (const p of tree) {
        // The creation time is the OS's: /proc's start ticks of that very process.
        assert.ok(Math.abs(Date.parse(p.startedAt) - Date.now()) < 60_000, `${p.pid} started just now (${p.startedAt})`);
      }
      const activity = await monitor.probeShell(root.pid!);
      assert.equal(activity.foreground, 'job');
      const rootInfo = (await monitor.listAll()).find((p) => p.pid === root.pid)!;
      // A stale identity (another creation time) kills nothing.
      const stale = await monitor.killTree({ pid: root.pid!, startTime: '2001-01-01T00:00:00.0000000Z' });
      assert.deepEqual(stale.killed, []);
      assert.ok(osAlive(root.pid!), 'the root lives after a kill with a stale identity');
      const result = killOutcome(await monitor.killTree(toIdentity(rootInfo)));
      const all = [root.pid!, ...tree.map((p) => p.pid)].sort((a, b) => a - b);
      assert.deepEqual(result, { killed: all, failed: [] });
      await waitFor('every process of the tree gone', () => all.every((pid) => !procAlive(pid)), 10_000);
      assert.equal(await monitor.isAlive(toIdentity(rootInfo)), false);
      assert.equal((await monitor.probeShell(root.pid!)).foreground, 'gone');
    });
  });
});
