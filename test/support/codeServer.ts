// code-server as a process: the environment a person's window would have, a free port, start
// (answering /healthz) and stop (its whole process group), and `--install-extension` for .vsix files.
// No browser here: vscodeHarness.ts opens the workbench; `npm start` uses these alone.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { tail } from '../../.devtools/scripts/installSteps';
import type { VsCodeInstall } from '../../.devtools/scripts/vscodeInstall';
import { sleep, waitFor, withTimeout } from './boundedWaits';
import { listProcesses, signal } from './vscodeProcesses';

export interface CodeServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  logFile: string;
}

export interface CodeServerDirs {
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
  logFile: string;
}

/**
 * The variables by which tools tell a CI machine (ci-info for jest, std-env for vitest): on one,
 * vitest runs once instead of watching and jest watches without its usage block. A person's VS Code
 * has none of them, so the window the tests drive has none either, wherever the tests run.
 */
const CI_MARKERS = /^(CI|CI_\w+|CONTINUOUS_INTEGRATION|BUILD_ID|BUILD_NUMBER|RUN_ID|GITHUB_ACTIONS|GITLAB_CI|BUILDKITE|CIRCLECI|TRAVIS|JENKINS_URL|TF_BUILD|TEAMCITY_VERSION|APPVEYOR|DRONE|SEMAPHORE|CODEBUILD_BUILD_ID|BITBUCKET_BUILD_NUMBER)$/;

/** Environment for code-server: ours minus what belongs to an enclosing npm, node, VS Code or CI machine. */
export function codeServerEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VSCODE_|ELECTRON_|TS_TEST_DRIVER_|TS_HARNESS_)/i.test(k) || CI_MARKERS.test(k)) continue;
    if (['NODE_OPTIONS', 'INIT_CWD', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'GIT_ASKPASS'].includes(k)) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Installs .vsix files into an extensions dir with code-server's own `--install-extension`. */
export async function installVsix(install: VsCodeInstall, dirs: CodeServerDirs, vsixFiles: string[], timeoutMs: number, log: (m: string) => void): Promise<void> {
  if (vsixFiles.length === 0) return;
  for (const f of vsixFiles) if (!fs.existsSync(f)) throw new Error(`No such .vsix: ${f}`);
  const args = [install.codeServerEntry, '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir, '--config', dirs.configFile];
  for (const f of vsixFiles) args.push('--install-extension', path.resolve(f));
  log(`installing ${vsixFiles.map((f) => path.basename(f)).join(', ')} with code-server --install-extension`);
  const out = fs.openSync(dirs.logFile, 'a');
  fs.writeSync(out, `$ code-server --install-extension ${vsixFiles.join(' ')}\n`);
  const child = spawn(install.nodeBin, args, { stdio: ['ignore', out, out], env: codeServerEnv({}), detached: true });
  fs.closeSync(out);
  const code = await withTimeout(
    new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (c) => resolve(c));
    }),
    timeoutMs,
    'code-server --install-extension',
  ).catch((e) => {
    signal(-child.pid!, 'SIGKILL');
    throw e;
  });
  const text = tail(dirs.logFile, 30);
  if (code !== 0 || /Failed Installing/i.test(text.split('$ code-server --install-extension').pop() ?? '')) {
    throw new Error(`code-server --install-extension failed (exit ${code}):\n${text}`);
  }
}

/** Whether `port` on 127.0.0.1 can be bound now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free TCP port on 127.0.0.1: `preferred`, or the next free one after it, or any free one. */
export async function findFreePort(preferred?: number): Promise<number> {
  if (preferred) {
    for (let p = preferred; p < preferred + 100 && p < 65536; p++) if (await portFree(p)) return p;
  }
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url: string, timeoutMs = 2000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/** Starts code-server (no browser) and waits until it answers /healthz. */
export async function startCodeServer(
  install: VsCodeInstall,
  dirs: CodeServerDirs,
  o: { workspace: string; port: number; env: NodeJS.ProcessEnv; timeoutMs: number; enableProposedApi?: readonly string[]; extraArgs?: readonly string[] },
): Promise<CodeServerProcess> {
  const args = [
    install.codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${o.port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config', dirs.configFile,
    '--extensions-dir', dirs.extensionsDir,
    '--user-data-dir', dirs.userDataDir,
    ...(o.enableProposedApi ?? []).flatMap((id) => ['--enable-proposed-api', id]),
    ...(o.extraArgs ?? []),
    o.workspace,
  ];
  const out = fs.openSync(dirs.logFile, 'a');
  fs.writeSync(out, `\n$ ${install.nodeBin} ${args.join(' ')}   (${new Date().toISOString()})\n`);
  // detached: code-server leads a process group of its own, so stop() can signal all of it.
  const child = spawn(install.nodeBin, args, { cwd: o.workspace, env: o.env, stdio: ['ignore', out, out], detached: true });
  fs.closeSync(out);
  let exited: string | undefined;
  child.on('exit', (code, sig) => (exited = `exited with ${code ?? sig}`));
  child.on('error', (e) => (exited = `failed to start: ${e.message}`));
  const url = `http://127.0.0.1:${o.port}/`;
  await waitFor(`code-server to answer on ${url}healthz`, o.timeoutMs, async () => {
    if (exited) throw new Error(`code-server ${exited}. Last lines of ${dirs.logFile}:\n${tail(dirs.logFile, 40)}`);
    return (await httpStatus(`${url}healthz`)) === 200 ? true : undefined;
  });
  return { child, pid: child.pid!, port: o.port, url, logFile: dirs.logFile };
}

/** Stops a code-server started by startCodeServer: SIGTERM to its process group, SIGKILL after
 * `graceMs`. Its terminals' shells get SIGHUP when the pty host goes, as when VS Code quits. */
export async function stopCodeServer(pid: number, graceMs = 5000): Promise<void> {
  const group = () => listProcesses().filter((p) => p.pgid === pid || p.pid === pid).map((p) => p.pid);
  // Processes of the group that left it meanwhile are handled by the caller (run id).
  signal(-pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && group().length > 0) await sleep(100);
  signal(-pid, 'SIGKILL');
  for (const p of group()) signal(p, 'SIGKILL');
  await waitFor('code-server to exit', 5000, () => (group().length === 0 ? true : undefined), 100).catch(() => undefined);
}

