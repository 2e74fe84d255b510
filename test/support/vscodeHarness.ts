// Runs a real VS Code (code-server = VS Code server + web workbench, see ../shared/real-vscode.md next to this repository)
// for end-to-end tests: a fresh user-data-dir and extensions dir per launch, headless Chromium
// (Debian's, through playwright-core) to open the workbench so the extension host starts, and a
// test-only driver extension (test/support/driverExtension) to run code in the extension host.
//
//   const vsc = await launchVsCode({ workspace, extensions: [repoRoot] });
//   const version = await vsc.driver.evaluate<string>('return vscode.version');
//   await vsc.restart();          // like quitting VS Code and starting it again
//   await vsc.stop();             // kills code-server and everything it started
//
// Every wait is bounded; a launch that fails throws with the tail of code-server's log and leaves
// the logs under test-results/vscode/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureVsCode, findRepoRoot, tail, type VsCodeInstall } from '../../.devtools/scripts/vscodeInstall';
import { procAlive as alive, procStatFields } from './procStat';

/** Whether pid is a live process (a zombie counts as dead). */
export { alive };

export const DRIVER_EXTENSION_DIR = path.join(findRepoRoot(), 'test', 'support', 'driverExtension');
/** Chromium flags for this machine's closed network (see real-vscode.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Environment variable set on code-server and so inherited by everything it starts: how stop()
 * finds processes that left code-server's process tree (reparented shells, daemons). */
export const RUN_ID_ENV = 'TS_HARNESS_RUN_ID';

/** Settings every launch gets (the caller's `settings` override them): quiet, offline, no tours. */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
};

export interface LaunchTimeouts {
  /** code-server answering /healthz (default 30 s). */
  serverMs: number;
  /** The workbench rendered in the page (default 60 s). */
  workbenchMs: number;
  /** The driver extension activated and answering (default 60 s). */
  driverMs: number;
  /** Each `--install-extension` call (default 120 s). */
  installExtensionMs: number;
}

export interface LaunchOptions {
  /** Folder VS Code opens. */
  workspace: string;
  /** Extension folders (each with a package.json) symlinked into a fresh extensions dir as `<publisher>.<name>-<version>`. */
  extensions?: string[];
  /** `.vsix` files installed into the fresh extensions dir with code-server's `--install-extension`. */
  vsix?: string[];
  /** User settings (User/settings.json), written before start, over DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Machine settings (Machine/settings.json): where code-server's remote window reads settings of
   * scope `machine` and `machine-overridable` (it ignores them in User/settings.json). */
  machineSettings?: Record<string, unknown>;
  /** Extension ids (`publisher.name`) allowed to use proposed APIs (`--enable-proposed-api`), for
   * test-only extensions that list them in enabledApiProposals. */
  enableProposedApi?: string[];
  /** Extra environment for code-server, hence for the extension host, pty host and terminals. `undefined` removes a variable.
   * By default TMPDIR and TERMINAL_SHEPHERD_HOME point into the launch's temp dir (removed by stop()) and TS_HARNESS_RUN_ID /
   * TS_TEST_DRIVER_SOCKET are set; npm_*, VSCODE_*, NODE_OPTIONS and the like of the caller are dropped. */
  env?: Record<string, string | undefined>;
  /** Extra code-server arguments, e.g. `['--log', 'debug']` (the extension host's log channels then keep debug lines). */
  serverArgs?: string[];
  /** Load the driver extension and connect to it (default true). */
  driver?: boolean;
  /** Open the workbench in headless Chromium (default true). Without it the extension host does not start. */
  browser?: boolean;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Name for artifacts under test-results/vscode/ (default "vscode"). */
  label?: string;
  timeouts?: Partial<LaunchTimeouts>;
  /** Progress messages (default: stderr). */
  log?: (message: string) => void;
  /** An install from ensureVsCode(); looked up (and completed if needed) when absent. */
  install?: VsCodeInstall;
}

export interface StopOptions {
  /** Copy the logs to test-results/vscode/<label>-<time>/ (also when TS_KEEP_VSCODE_ARTIFACTS=1). */
  keepArtifacts?: boolean;
  /** Same as keepArtifacts; pass `this.currentTest?.state === 'failed'` from a mocha hook. */
  failed?: boolean;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  cmdline: string;
}

export interface DriverHello {
  pid: number;
  vscodeVersion: string;
}

const DEFAULT_TIMEOUTS: LaunchTimeouts = { serverMs: 30_000, workbenchMs: 60_000, driverMs: 60_000, installExtensionMs: 120_000 };

function defaultLog(message: string): void {
  process.stderr.write(`[vscode-harness] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// Small utilities

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Timed out after ${Math.round(ms / 1000)} s: ${what}`)), ms);
    }),
  ]);
}

function portFree(port: number): Promise<boolean> {
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

/** An extension folder's id (`publisher.name`), version, and `<publisher>.<name>-<version>`: the
 * folder name VS Code expects in an extensions dir. */
export function readExtensionIdentity(extensionDir: string): { id: string; version: string; folderName: string } {
  const pj = path.join(extensionDir, 'package.json');
  let manifest: { publisher?: string; name?: string; version?: string };
  try {
    manifest = JSON.parse(fs.readFileSync(pj, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the extension manifest ${pj}: ${(e as Error).message}`);
  }
  if (!manifest.publisher || !manifest.name || !manifest.version) throw new Error(`${pj} needs publisher, name and version`);
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  return { id, version: manifest.version, folderName: `${id}-${manifest.version}` };
}

export function extensionFolderName(extensionDir: string): string {
  return readExtensionIdentity(extensionDir).folderName;
}

/** Packs an extension folder into a minimal .vsix (zip with extension/ and a vsixmanifest), using
 * python3's zipfile (python3 is on every machine that builds code-server's native modules).
 * Files: everything in the folder except node_modules/.git, following nothing fancy (no .vscodeignore). */
export function packVsix(extensionDir: string, outFile: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const vsixManifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />
    <DisplayName>${manifest.displayName ?? manifest.name}</DisplayName>
    <Description xml:space="preserve">${manifest.description ?? ''}</Description>
    <Categories>Other</Categories>
    <GalleryFlags>Public</GalleryFlags>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${manifest.engines?.vscode ?? '*'}" /></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>
  <Dependencies/>
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" /></Assets>
</PackageManifest>
`;
  const contentTypes = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/><Default Extension=".md" ContentType="text/markdown"/><Default Extension=".txt" ContentType="text/plain"/></Types>
`;
  const script = `
import os, sys, zipfile
src, out, manifest, types = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('extension.vsixmanifest', manifest)
    z.writestr('[Content_Types].xml', types)
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in ('node_modules', '.git'))
        for f in sorted(files):
            full = os.path.join(root, f)
            z.write(full, 'extension/' + os.path.relpath(full, src))
`;
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  const r = spawnSync('python3', ['-c', script, extensionDir, outFile, vsixManifest, contentTypes], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`packVsix failed: ${r.error?.message ?? r.stderr}`);
  return outFile;
}

// ---------------------------------------------------------------------------------------------
// Processes (Linux /proc)

function readProc(pid: number, file: string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** All processes, or those whose environment holds `RUN_ID_ENV=runId` (set on code-server, inherited). */
export function listProcesses(runId?: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const marker = runId ? `${RUN_ID_ENV}=${runId}\0` : undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const fields = procStatFields(pid);
    if (!fields || fields[0] === 'Z') continue; // zombies are dead already
    if (marker) {
      const environ = readProc(pid, 'environ');
      if (!environ || !(environ + '\0').includes(marker)) continue;
    }
    out.push({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline: (readProc(pid, 'cmdline') ?? '').split('\0').join(' ').trim() });
  }
  return out;
}

/** Processes started by one launch (and its restarts): those carrying its run id, plus descendants of `rootPid`. */
export function launchProcesses(runId: string, rootPid?: number): ProcessInfo[] {
  const all = listProcesses();
  const marked = new Set(listProcesses(runId).map((p) => p.pid));
  if (rootPid) {
    const children = new Map<number, number[]>();
    for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
    const stack = [rootPid];
    while (stack.length) {
      const pid = stack.pop()!;
      if (all.some((p) => p.pid === pid)) marked.add(pid);
      stack.push(...(children.get(pid) ?? []));
    }
  }
  return all.filter((p) => marked.has(p.pid) && p.pid !== process.pid);
}


function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
}

async function killAll(pids: number[], graceMs: number): Promise<number[]> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(alive)) await sleep(100);
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
  const deadline2 = Date.now() + 5000;
  while (Date.now() < deadline2 && pids.some(alive)) await sleep(100);
  return pids.filter(alive);
}

// ---------------------------------------------------------------------------------------------
// Driver client

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** Client of the driver extension: `evaluate(code)` runs `code` as the body of
 * `async (vscode, require, state) => { ... }` in the extension host and returns its result. */
export class Driver {
  private socket: net.Socket | undefined;
  private buffer = '';
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** The connected extension host. */
  hello: DriverHello | undefined;

  constructor(
    readonly socketPath: string,
    private readonly defaultConnectTimeoutMs: number,
  ) {}

  /** Connects (waiting for the driver to come up, bounded). With `notPid`, waits for a driver in a
   * different extension host than that one (after a window reload or restart). */
  async connect(timeoutMs = this.defaultConnectTimeoutMs, notPid?: number): Promise<DriverHello> {
    if (this.socket && this.hello && this.hello.pid !== notPid) return this.hello;
    this.close();
    return waitFor(`the driver extension to answer on ${this.socketPath} (is the extension host up? did the driver activate?)`, timeoutMs, async () => {
      const hello = await this.tryConnect().catch(() => undefined);
      if (hello && notPid !== undefined && hello.pid === notPid) {
        this.close();
        return undefined;
      }
      return hello;
    }, 250);
  }

  private tryConnect(): Promise<DriverHello> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.socketPath);
      socket.setEncoding('utf8');
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('no hello from the driver'));
      }, 5000);
      let greeted = false;
      socket.on('data', (chunk: string) => {
        this.buffer += chunk;
        let nl;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          const line = this.buffer.slice(0, nl);
          this.buffer = this.buffer.slice(nl + 1);
          if (!line.trim()) continue;
          let msg: { hello?: DriverHello; id?: number; result?: unknown; error?: { name?: string; message: string; stack?: string } };
          try {
            msg = JSON.parse(line);
          } catch {
            continue;
          }
          if (msg.hello && !greeted) {
            greeted = true;
            clearTimeout(timer);
            this.socket = socket;
            this.hello = msg.hello;
            resolve(msg.hello);
            continue;
          }
          const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
          if (!p) continue;
          this.pending.delete(msg.id!);
          clearTimeout(p.timer);
          if (msg.error) {
            const e = new Error(`in the extension host: ${msg.error.message}`);
            e.name = msg.error.name ?? 'Error';
            if (msg.error.stack) e.stack = `${e.name}: in the extension host: ${msg.error.stack.replace(/^[^\n]*\n?/, msg.error.message + '\n')}`;
            p.reject(e);
          } else p.resolve(msg.result);
        }
      });
      socket.on('error', (e) => {
        clearTimeout(timer);
        if (!greeted) reject(e);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        if (!greeted) reject(new Error('driver closed the connection'));
        if (this.socket === socket) {
          this.socket = undefined;
          this.hello = undefined;
          this.buffer = '';
          for (const [, p] of this.pending) {
            clearTimeout(p.timer);
            p.reject(new Error('the driver connection closed (extension host stopped, window reloaded or VS Code stopped)'));
          }
          this.pending.clear();
        }
      });
    });
  }

  /**
   * Runs `code` in the extension host as the body of `async (vscode, require, state) => { ... }`
   * and returns its JSON-serialisable result (undefined stays undefined). `state` is an object kept
   * between calls in that extension host. Throws the extension host's error (message and stack).
   */
  async evaluate<T = unknown>(code: string, options: { timeoutMs?: number } = {}): Promise<T> {
    if (!this.socket) await this.connect();
    const socket = this.socket!;
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`driver.evaluate timed out after ${Math.round(timeoutMs / 1000)} s: ${code.slice(0, 200)}`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      socket.write(JSON.stringify({ id, method: 'evaluate', params: { code } }) + '\n');
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.hello = undefined;
    this.buffer = '';
  }
}

// ---------------------------------------------------------------------------------------------
// code-server

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

// ---------------------------------------------------------------------------------------------
// The handle

const live = new Set<VsCode>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when a test run ends without stop(): kill what is left, synchronously.
  process.on('exit', () => {
    for (const v of live) v.killNow();
  });
}

export class VsCode {
  url = '';
  port = 0;
  serverPid = 0;
  page!: Page;
  browser!: Browser;
  readonly driver: Driver;
  readonly runId = randomUUID();
  readonly runDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly label: string;
  private readonly consoleLog: string[] = [];
  private stopped = false;
  private readonly timeouts: LaunchTimeouts;
  private readonly log: (m: string) => void;
  private readonly dirs: CodeServerDirs;

  constructor(
    readonly install: VsCodeInstall,
    readonly options: LaunchOptions,
  ) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.log = options.log ?? defaultLog;
    this.label = (options.label ?? 'vscode').replace(/[^\w.-]+/g, '-');
    // Short path in the temp dir: Unix socket paths are limited to 107 bytes.
    this.runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsvsc-'));
    this.userDataDir = path.join(this.runDir, 'user-data');
    this.extensionsDir = path.join(this.runDir, 'extensions');
    this.dirs = {
      userDataDir: this.userDataDir,
      extensionsDir: this.extensionsDir,
      configFile: path.join(this.runDir, 'code-server.yaml'),
      logFile: path.join(this.runDir, 'code-server.log'),
    };
    this.driver = new Driver(path.join(this.runDir, 'driver.sock'), this.timeouts.driverMs);
  }

  get workspace(): string {
    return path.resolve(this.options.workspace);
  }

  /** Creates the extensions dir, settings and config; installs .vsix files. */
  async prepare(): Promise<void> {
    if (!fs.existsSync(this.workspace)) throw new Error(`The workspace folder does not exist: ${this.workspace}`);
    fs.mkdirSync(path.join(this.userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(this.extensionsDir, { recursive: true });
    fs.writeFileSync(this.dirs.configFile, 'auth: none\ncert: false\n');
    this.writeUserSettings(this.options.settings ?? {});
    this.writeMachineSettings(this.options.machineSettings ?? {});
    const folders = [...(this.options.extensions ?? [])];
    if (this.options.driver !== false) folders.push(DRIVER_EXTENSION_DIR);
    const linked: Array<{ id: string; version: string; folder: string }> = [];
    for (const dir of folders) {
      const abs = path.resolve(dir);
      const { id, version, folderName } = readExtensionIdentity(abs);
      fs.symlinkSync(abs, path.join(this.extensionsDir, folderName), 'dir');
      linked.push({ id, version, folder: folderName });
    }
    // Symlinks first: code-server's --install-extension then lists them in extensions.json next to
    // the .vsix ones. (An extensions.json that lacks a folder makes VS Code ignore that folder.)
    if ((this.options.vsix ?? []).length > 0) {
      await installVsix(this.install, this.dirs, this.options.vsix ?? [], this.timeouts.installExtensionMs, this.log);
      const manifestFile = path.join(this.extensionsDir, 'extensions.json');
      const entries: Array<{ relativeLocation?: string }> = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      for (const l of linked) {
        if (entries.some((e) => e.relativeLocation === l.folder)) continue;
        entries.push({
          identifier: { id: l.id },
          version: l.version,
          location: { $mid: 1, path: path.join(this.extensionsDir, l.folder), scheme: 'file' },
          relativeLocation: l.folder,
        } as { relativeLocation: string });
      }
      fs.writeFileSync(manifestFile, JSON.stringify(entries));
    }
  }

  /** Rewrites User/settings.json (DEFAULT_SETTINGS under `settings`); a running window picks the change up. */
  writeUserSettings(settings: Record<string, unknown>): void {
    fs.mkdirSync(path.join(this.userDataDir, 'User'), { recursive: true });
    fs.writeFileSync(path.join(this.userDataDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...settings }, null, 2) + '\n');
  }

  /** Rewrites Machine/settings.json (where a remote window reads machine-scoped settings); a running window picks the change up. */
  writeMachineSettings(settings: Record<string, unknown>): void {
    fs.mkdirSync(path.join(this.userDataDir, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(this.userDataDir, 'Machine', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
  }

  /** Starts code-server, opens the workbench and connects the driver (as configured). */
  async start(): Promise<void> {
    const started = Date.now();
    this.stopped = false;
    live.add(this);
    installExitHook();
    this.port = this.options.port ?? (this.port && (await portFree(this.port)) ? this.port : await findFreePort());
    // TMPDIR inside the run dir: VS Code's sockets and temp files (vscode-git-*.sock, ...) go away with it.
    const tmpDir = path.join(this.runDir, 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    const env = codeServerEnv({
      TMPDIR: tmpDir,
      // Terminal Shepherd's per-user folder (its MCP launcher, window records) stays in the run, not the machine's home.
      TERMINAL_SHEPHERD_HOME: path.join(this.runDir, 'terminal-shepherd-home'),
      [RUN_ID_ENV]: this.runId,
      ...(this.options.driver !== false ? { TS_TEST_DRIVER_SOCKET: this.driver.socketPath } : {}),
      ...this.options.env,
    });
    fs.rmSync(this.driver.socketPath, { force: true });
    let server: CodeServerProcess | undefined;
    for (let attempt = 1; !server; attempt++) {
      try {
        server = await startCodeServer(this.install, this.dirs, {
          workspace: this.workspace,
          port: this.port,
          env,
          timeoutMs: this.timeouts.serverMs,
          ...(this.options.enableProposedApi ? { enableProposedApi: this.options.enableProposedApi } : {}),
          ...(this.options.serverArgs ? { extraArgs: this.options.serverArgs } : {}),
        });
      } catch (e) {
        // Another process took the free port between the check and code-server's bind: try another.
        if (this.options.port || attempt >= 3 || !/EADDRINUSE/.test((e as Error).message)) throw e;
        this.port = await findFreePort();
      }
    }
    server.child.unref(); // a test that forgets stop() still lets mocha exit; the exit hook kills it
    this.serverPid = server.pid;
    this.url = `${server.url}?folder=${encodeURI(this.workspace)}`;
    this.log(`code-server (pid ${this.serverPid}) answering at ${this.url} after ${Date.now() - started} ms`);
    if (this.options.browser === false) return;

    this.browser = await withTimeout(
      chromium.launch({ executablePath: this.install.chromiumPath, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 }),
      40_000,
      'launching Chromium',
    );
    this.page = await withTimeout(this.browser.newPage({ viewport: { width: 1400, height: 900 } }), 30_000, 'opening a Chromium page');
    this.page.on('console', (m) => this.pushConsole(`[console.${m.type()}] ${m.text()}`));
    this.page.on('pageerror', (e) => this.pushConsole(`[pageerror] ${e.message}`));
    await this.openWorkbench(started);
    if (this.options.driver !== false) {
      const hello = await this.driver.connect(this.timeouts.driverMs);
      this.log(`driver ready (extension host pid ${hello.pid}, VS Code ${hello.vscodeVersion}) ${Date.now() - started} ms after start`);
    }
  }

  private pushConsole(line: string): void {
    this.consoleLog.push(line);
    if (this.consoleLog.length > 2000) this.consoleLog.splice(0, this.consoleLog.length - 2000);
  }

  private async openWorkbench(started: number): Promise<void> {
    await this.page.goto(this.url, { waitUntil: 'domcontentloaded', timeout: this.timeouts.workbenchMs });
    await this.waitForWorkbench();
    this.log(`workbench ready ${Date.now() - started} ms after start`);
  }

  private async waitForWorkbench(): Promise<void> {
    await this.page.waitForSelector('.monaco-workbench .part.statusbar', { state: 'attached', timeout: this.timeouts.workbenchMs });
  }

  /** Reloads the window (a new extension host starts) and waits for the workbench and the new driver. */
  async reloadWindow(): Promise<void> {
    const oldPid = this.driver.hello?.pid;
    this.driver.close();
    await this.page.reload({ waitUntil: 'domcontentloaded', timeout: this.timeouts.workbenchMs });
    await this.waitForWorkbench();
    if (this.options.driver !== false) await this.driver.connect(this.timeouts.driverMs, oldPid);
  }

  /** code-server's output and the browser console so far. */
  logs(): string {
    let server = '';
    try {
      server = fs.readFileSync(this.dirs.logFile, 'utf8');
    } catch {
      /* removed */
    }
    return `${server}\n--- browser console ---\n${this.consoleLog.join('\n')}\n`;
  }

  /** A short report for a failure: tails of code-server's output and of the extension host's log,
   * and the browser console's errors. */
  failureReport(): string {
    const exthost = this.logFiles().filter((f) => /exthost\.log$/i.test(f));
    const errors = this.consoleLog.filter((l) => /^\[(console\.error|pageerror)\]/.test(l) && !/open-vsx\.org|ERR_NAME_NOT_RESOLVED/.test(l));
    return [
      `--- code-server output (last 40 lines of ${this.dirs.logFile}) ---`,
      tail(this.dirs.logFile, 40),
      ...exthost.map((f) => `--- extension host log (last 25 lines of ${path.basename(f)}) ---\n${tail(f, 25)}`),
      `--- browser console errors (last 15; network errors to open-vsx.org are expected offline) ---`,
      errors.slice(-15).map((l) => l.split('\n')[0]).join('\n'),
    ].join('\n');
  }

  /** The text of every Terminal Shepherd log the extension wrote in this launch (one per window session). */
  extensionLogs(): string[] {
    return this.logFiles()
      .filter((f) => f.endsWith('Terminal Shepherd.log'))
      .map((f) => fs.readFileSync(f, 'utf8'));
  }

  /** Log files VS Code wrote (extension host, pty host, server) under the user-data-dir. */
  logFiles(): string[] {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.log')) out.push(p);
      }
    };
    walk(path.join(this.userDataDir, 'logs'));
    return out;
  }

  async screenshot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await this.page.screenshot({ path: file, timeout: 30_000 });
  }

  /** Live processes of this launch (code-server, extension host, pty host, shells, what they started). */
  processes(): ProcessInfo[] {
    return launchProcesses(this.runId, this.serverPid || undefined);
  }

  /** Closes the browser and stops code-server the way quitting VS Code does; processes that survive
   * that (detached from their terminal) keep running. */
  private async shutDown(): Promise<void> {
    this.driver.close();
    if (this.browser) {
      const b = this.browser;
      await withTimeout(b.close(), 15_000, 'closing Chromium').catch((e) => this.log(`warning: ${e.message}`));
    }
    if (this.serverPid) {
      // Remember the tree: pty host and extension host may not be in code-server's process group.
      const tree = launchProcesses(this.runId, this.serverPid).filter((p) => p.cmdline.includes(this.install.nodeBin) || p.cmdline.includes('code-server'));
      await stopCodeServer(this.serverPid);
      const left = await killAll(tree.map((p) => p.pid).filter(alive), 3000);
      if (left.length) this.log(`warning: VS Code processes still alive after SIGKILL: ${left.join(' ')}`);
      // Shells get SIGHUP when their pty closes; give them a moment.
      await sleep(300);
    }
  }

  /** Stops and starts VS Code again on the same workspace, extensions, settings and user-data-dir,
   * as a user quitting and reopening it. Processes that outlived the first VS Code keep running. */
  async restart(): Promise<void> {
    await this.shutDown();
    this.serverPid = 0;
    await this.start();
  }

  /** Closes the browser, kills code-server and every process this launch started (also ones that
   * left its process tree), removes the temp dirs; keeps the logs when asked or on failure. */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.shutDown();
      const left = launchProcesses(this.runId).map((p) => p.pid);
      if (left.length) {
        const still = await killAll(left, 2000);
        if (still.length) this.log(`warning: processes of this launch still alive after SIGKILL: ${still.join(' ')}`);
      }
    } finally {
      live.delete(this);
      if (options.keepArtifacts || options.failed || process.env.TS_KEEP_VSCODE_ARTIFACTS === '1') this.keepArtifacts();
      fs.rmSync(this.runDir, { recursive: true, force: true });
    }
  }

  /** Copies code-server's log, the browser console and VS Code's logs to test-results/vscode/. */
  keepArtifacts(): string {
    const dest = path.join(this.install.repoRoot, 'test-results', 'vscode', `${this.label}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    try {
      fs.mkdirSync(dest, { recursive: true });
      fs.writeFileSync(path.join(dest, 'code-server-and-console.log'), this.logs());
      const logs = path.join(this.userDataDir, 'logs');
      if (fs.existsSync(logs)) fs.cpSync(logs, path.join(dest, 'vscode-logs'), { recursive: true });
      this.log(`logs kept in ${dest}`);
    } catch (e) {
      this.log(`warning: could not keep logs in ${dest}: ${(e as Error).message}`);
    }
    return dest;
  }

  /** Synchronous kill of everything (process exit hook). */
  killNow(): void {
    if (this.serverPid) signal(-this.serverPid, 'SIGKILL');
    try {
      for (const p of launchProcesses(this.runId, this.serverPid || undefined)) signal(p.pid, 'SIGKILL');
    } catch {
      /* best effort */
    }
  }
}

/** What launchVsCode returns. */
export type VsCodeHandle = VsCode;

/**
 * Starts code-server with a fresh user-data-dir and extensions dir, opens the workbench in headless
 * Chromium, and waits (bounded) until the workbench is up and, unless `driver: false`, the driver
 * extension answers. On failure everything started is stopped and the error carries the log tail.
 */
export async function launchVsCode(options: LaunchOptions): Promise<VsCode> {
  const log = options.log ?? defaultLog;
  const install = options.install ?? (await ensureVsCode({ log }));
  const vsc = new VsCode(install, options);
  try {
    await vsc.prepare();
    await vsc.start();
    return vsc;
  } catch (e) {
    const err = e as Error;
    const report = vsc.failureReport();
    const kept = vsc.keepArtifacts();
    await vsc.stop().catch(() => undefined);
    err.message = `launchVsCode failed: ${err.message}\n(all logs kept in ${kept})\n${report}`;
    throw err;
  }
}
