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
// the logs under test-results/vscode/. This file is the handle (VsCode) and launchVsCode; its parts
// each do one job: launchOptions.ts, codeServer.ts, driverClient.ts, extensionFolders.ts,
// vscodeProcesses.ts (the processes of a launch) and boundedWaits.ts.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tail } from '../../.devtools/scripts/installSteps';
import { ensureVsCode, type VsCodeInstall } from '../../.devtools/scripts/vscodeInstall';
import { sleep, withTimeout } from './boundedWaits';
import { codeServerEnv, findFreePort, installVsix, portFree, startCodeServer, stopCodeServer, type CodeServerDirs, type CodeServerProcess } from './codeServer';
import { DRIVER_EXTENSION_DIR, Driver } from './driverClient';
import { readExtensionIdentity } from './extensionFolders';
import { DEFAULT_SETTINGS, DEFAULT_TIMEOUTS, type LaunchOptions, type LaunchTimeouts, type StopOptions } from './launchOptions';
import { procAlive as alive } from './procStat';
import { killAll, launchProcesses, RUN_ID_ENV, signal, type ProcessInfo } from './vscodeProcesses';

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

function defaultLog(message: string): void {
  process.stderr.write(`[vscode-harness] ${message}\n`);
}

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
    for (const [file, text] of Object.entries(this.options.userDataFiles ?? {})) {
      fs.mkdirSync(path.dirname(path.join(this.userDataDir, file)), { recursive: true });
      fs.writeFileSync(path.join(this.userDataDir, file), text);
    }
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
