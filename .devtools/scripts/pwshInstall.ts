// PowerShell 7 for the test suites, from NuGet with the .NET SDK: `dotnet tool install --tool-path
// .vscode-test/pwsh PowerShell --version 7.6.9` (never the person's global tools), then a native
// `pwsh` launcher beside pwsh.dll. The tool's own `pwsh` is a shim that starts `dotnet pwsh.dll` as a
// child process: a terminal on it would be a shim process with the real shell one level down, which
// no installed PowerShell looks like. The launcher is the SDK's apphost template pointed at pwsh.dll,
// what `dotnet build` makes for any app and what Microsoft's own pwsh packages ship: the shell runs
// in the terminal's own process, /proc/PID/exe is that `pwsh`.
//
// Where dotnet is missing, nothing is installed and the suites that need pwsh skip, saying what to
// install; TS_REQUIRE_PWSH=1 (set by .ci/run) turns that into a failure. Idempotent and fast once done
// (a marker), under a lock against concurrent installs (installSteps.ts).
//
// Alone: `node --import tsx .devtools/scripts/pwshInstall.ts` installs and prints the result as JSON.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandOnPath, findRepoRoot, readMarker, run, STEP_TIMEOUT_MS, withLock, writeMarker } from './installSteps';

/** PowerShell 7.6 runs on .NET 10 (a later 7.7 may need .NET 11). Pinned: bump deliberately. */
export const PWSH_VERSION = '7.6.9';
/** The apphost template's placeholder for the app's dll: the SHA-256 of "foobar", 64 bytes. */
const APPHOST_PLACEHOLDER = 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2';

export type PwshInstall =
  | {
      readonly ok: true;
      /** The native launcher: start terminals and sessions with it. */
      readonly pwsh: string;
      readonly version: string;
      /** Environment the launcher needs (DOTNET_ROOT where .NET is not in its default place). */
      readonly env: Record<string, string>;
    }
  | { readonly ok: false; readonly why: string };

/** The sentence a skipped suite prints: what is missing and what to install. */
export const PWSH_MISSING = `PowerShell 7 is not installed here and cannot be: \`dotnet\` (the .NET 10 SDK) is not on PATH. Install the .NET SDK (https://dot.net, or Debian's dotnet-sdk-10.0) and run again: the tests then install PowerShell ${PWSH_VERSION} into .vscode-test/pwsh with \`dotnet tool install\``;

function defaultLog(message: string): void {
  process.stderr.write(`[pwsh-install] ${message}\n`);
}

export function pwshInstallPaths(repoRoot = findRepoRoot()): { toolDir: string; marker: string; launcher: string; dll: string } {
  const toolDir = path.join(repoRoot, '.vscode-test', 'pwsh');
  // Where the PowerShell package keeps pwsh.dll (the tools/<tfm>/any/unix folder).
  const pkg = path.join(toolDir, '.store', 'powershell', PWSH_VERSION, 'powershell', PWSH_VERSION, 'tools');
  const tfm = fs.existsSync(pkg) ? (fs.readdirSync(pkg).find((d) => d.startsWith('net')) ?? 'net10.0') : 'net10.0';
  const unix = path.join(pkg, tfm, 'any', 'unix');
  return { toolDir, marker: path.join(toolDir, '.installed.json'), launcher: path.join(unix, 'pwsh'), dll: path.join(unix, 'pwsh.dll') };
}

/** `$PSVersionTable.PSVersion` as the launcher prints it, or the error. */
function launcherVersion(launcher: string, env: Record<string, string>): { version?: string; error?: string } {
  const r = spawnSync(launcher, ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', '$PSVersionTable.PSVersion.ToString()'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return r.status === 0 ? { version: r.stdout.trim() } : { error: `${r.error?.message ?? ''}${r.stdout}${r.stderr}`.trim() || `exit ${r.status ?? r.signal}` };
}

function installed(p: ReturnType<typeof pwshInstallPaths>): PwshInstall | undefined {
  const m = readMarker(p.marker);
  if (m?.version !== PWSH_VERSION || !fs.existsSync(p.launcher)) return undefined;
  return { ok: true, pwsh: p.launcher, version: PWSH_VERSION, env: (m.env as Record<string, string> | undefined) ?? {} };
}

/** The SDK's apphost template (`sdk/<version>/AppHostTemplate/apphost`) of the newest SDK. */
function apphostTemplate(dotnet: string): string {
  const sdks = spawnSync(dotnet, ['--list-sdks'], { encoding: 'utf8', timeout: 60_000 });
  // Lines like `10.0.401 [/usr/share/dotnet/sdk]`.
  const candidates = sdks.stdout
    .split('\n')
    .map((l) => /^(\S+) \[(.+)\]$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => path.join(m[2]!, m[1]!, 'AppHostTemplate', 'apphost'))
    .filter((f) => fs.existsSync(f));
  const newest = candidates.at(-1);
  if (!newest) throw new Error(`no AppHostTemplate/apphost in the .NET SDKs \`${dotnet} --list-sdks\` names:\n${sdks.stdout}${sdks.stderr}`);
  return newest;
}

/** A native `pwsh` beside pwsh.dll: the apphost template with the placeholder replaced by the dll's name. */
function writeLauncher(template: string, launcher: string): void {
  const host = fs.readFileSync(template);
  const at = host.indexOf(APPHOST_PLACEHOLDER);
  if (at < 0) throw new Error(`${template} has no app path placeholder`);
  const name = Buffer.alloc(APPHOST_PLACEHOLDER.length); // the rest stays NUL-padded
  name.write(path.basename(launcher) + '.dll');
  name.copy(host, at);
  fs.writeFileSync(launcher, host, { mode: 0o755 });
}

async function install(repoRoot: string, dotnet: string, log: (m: string) => void): Promise<PwshInstall> {
  const p = pwshInstallPaths(repoRoot);
  fs.rmSync(p.toolDir, { recursive: true, force: true });
  fs.mkdirSync(p.toolDir, { recursive: true });
  const logFile = path.join(p.toolDir, '..', 'pwsh-install.log');
  log(`installing PowerShell ${PWSH_VERSION} from NuGet into ${p.toolDir} (dotnet tool install, a few seconds; log: ${logFile})`);
  const env = { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1' };
  await run(dotnet, ['tool', 'install', '--tool-path', p.toolDir, 'PowerShell', '--version', PWSH_VERSION], { env, logFile, log, what: 'dotnet tool install PowerShell' });
  const paths = pwshInstallPaths(repoRoot); // now with the package's own target framework folder
  if (!fs.existsSync(paths.dll)) throw new Error(`dotnet tool install finished but ${paths.dll} is missing (log: ${logFile})`);
  writeLauncher(apphostTemplate(dotnet), paths.launcher);
  // The launcher finds .NET in its default place; elsewhere (a per-user install) it needs DOTNET_ROOT.
  let launchEnv: Record<string, string> = {};
  let check = launcherVersion(paths.launcher, launchEnv);
  if (check.error) {
    launchEnv = { DOTNET_ROOT: path.dirname(fs.realpathSync(dotnet)) };
    check = launcherVersion(paths.launcher, launchEnv);
  }
  if (check.version !== PWSH_VERSION) throw new Error(`${paths.launcher} printed ${JSON.stringify(check.version ?? check.error)}, expected ${PWSH_VERSION}`);
  writeMarker(paths.marker, { version: PWSH_VERSION, env: launchEnv });
  return { ok: true, pwsh: paths.launcher, version: PWSH_VERSION, env: launchEnv };
}

/**
 * Linux: PowerShell 7.6.9 in .vscode-test/pwsh, installed when missing and dotnet is there (about 3 s);
 * elsewhere the pwsh on PATH;
 * `{ ok: false, why }` when it cannot be (no dotnet), unless TS_REQUIRE_PWSH=1, which throws.
 */
export async function ensurePwsh(options: { log?: (m: string) => void; repoRoot?: string } = {}): Promise<PwshInstall> {
  const log = options.log ?? defaultLog;
  if (process.platform !== 'linux') {
    // Windows and macOS runners come with PowerShell 7; the launcher built here is Linux's.
    const onPath = commandOnPath(process.platform === 'win32' ? 'pwsh.exe' : 'pwsh');
    return onPath ? { ok: true, pwsh: onPath, version: launcherVersion(onPath, {}).version ?? 'unknown', env: {} } : { ok: false, why: `pwsh is not on PATH (install PowerShell 7)` };
  }
  const repoRoot = options.repoRoot ?? findRepoRoot();
  const p = pwshInstallPaths(repoRoot);
  const done = installed(p);
  if (done) return done;
  const dotnet = commandOnPath('dotnet');
  if (!dotnet) {
    if (process.env.TS_REQUIRE_PWSH === '1') throw new Error(`TS_REQUIRE_PWSH=1 but ${PWSH_MISSING}`);
    return { ok: false, why: PWSH_MISSING };
  }
  fs.mkdirSync(path.dirname(p.toolDir), { recursive: true });
  const started = Date.now();
  // Re-checked under the lock: another process may have finished meanwhile.
  const result = await withLock(`${p.toolDir}.lock`, STEP_TIMEOUT_MS, log, async () => installed(pwshInstallPaths(repoRoot)) ?? install(repoRoot, dotnet, log));
  log(`PowerShell ${PWSH_VERSION} ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${p.launcher}`);
  return result;
}

/** The install as far as it is there now (no install): for mocha's describe-time skip decisions. */
export function pwshAvailable(repoRoot = findRepoRoot()): boolean {
  if (process.platform !== 'linux') return commandOnPath(process.platform === 'win32' ? 'pwsh.exe' : 'pwsh') !== undefined;
  return installed(pwshInstallPaths(repoRoot)) !== undefined || commandOnPath('dotnet') !== undefined;
}

if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  ensurePwsh().then(
    (r) => {
      if (!r.ok) process.stderr.write(`\n!!! [pwsh-install] SKIPPED: ${r.why} !!!\n\n`);
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    },
    (e: Error) => {
      process.stderr.write(`[pwsh-install] FAILED: ${e.message}\n`);
      process.exit(1);
    },
  );
}
