/**
 * The PowerShell 7 installer of the test suites (.devtools/scripts/pwshInstall.ts): where dotnet is
 * missing it installs nothing and says what to install, or fails when CI requires pwsh; where it is
 * there, the pwsh it gives is a native launcher that runs PowerShell in its own process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ensurePwsh, pwshAvailable, PWSH_MISSING, PWSH_VERSION } from '../../../.devtools/scripts/pwshInstall';
import { describeWhere } from '../../support/skips';
import { TempDirs } from '../../support/tempDirs';

describeWhere(process.platform === 'linux', 'the installer builds the Linux launcher')('the PowerShell 7 installer of the tests', function () {
  this.timeout(120_000);
  const dirs = new TempDirs();
  const saved = { PATH: process.env.PATH, TS_REQUIRE_PWSH: process.env.TS_REQUIRE_PWSH };
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.TS_REQUIRE_PWSH === undefined) delete process.env.TS_REQUIRE_PWSH;
    else process.env.TS_REQUIRE_PWSH = saved.TS_REQUIRE_PWSH;
    dirs.cleanup();
  });

  it('without dotnet: nothing installed, the reason names what to install; with TS_REQUIRE_PWSH=1 (CI) a failure', async () => {
    const repoRoot = dirs.make('tshep-no-dotnet-');
    process.env.PATH = dirs.make('tshep-empty-path-');
    delete process.env.TS_REQUIRE_PWSH;
    assert.deepEqual(await ensurePwsh({ repoRoot }), { ok: false, why: PWSH_MISSING });
    assert.match(PWSH_MISSING, /`dotnet` \(the \.NET 10 SDK\) is not on PATH\. Install the \.NET SDK/);
    assert.equal(pwshAvailable(repoRoot), false);
    process.env.TS_REQUIRE_PWSH = '1';
    await assert.rejects(ensurePwsh({ repoRoot }), /^Error: TS_REQUIRE_PWSH=1 but PowerShell 7 is not installed here/);
  });

  it('with dotnet: a native pwsh that runs PowerShell in its own process (not the dotnet tool shim)', async function () {
    if (!pwshAvailable()) return this.skip();
    const install = await ensurePwsh();
    assert.ok(install.ok);
    assert.equal(readFileSync(install.pwsh).subarray(0, 4).toString('latin1'), '\x7fELF');
    const r = spawnSync(install.pwsh, ['-NoProfile', '-NonInteractive', '-Command', '$PSVersionTable.PSVersion.ToString(); [Environment]::ProcessPath; $PID'], {
      encoding: 'utf8',
      env: { ...process.env, ...install.env },
      timeout: 60_000,
    });
    const [version, exe, pid] = r.stdout.trim().split('\n');
    assert.deepEqual([version, exe], [PWSH_VERSION, install.pwsh], r.stderr);
    assert.equal(Number(pid), r.pid, 'PowerShell is the process started, no child of a shim');
  });
});
