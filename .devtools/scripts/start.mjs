#!/usr/bin/env node
// `npm start`: installs npm dependencies when needed, builds, and opens a real VS Code with the
// extension (this repository) loaded on sample-workspace/:
//   - desktop VS Code when a `code` command is on PATH:
//       code --extensionDevelopmentPath=<repo> sample-workspace
//   - otherwise code-server (VS Code 1.139 server + web workbench, installed on first use into
//     .vscode-test/, about 2 minutes) on http://127.0.0.1:8080 (or the next free port). No browser
//     is started: open the printed address yourself. Ctrl+C stops it and everything it started.
//
//   npm start                          as above
//   npm start -- --code-server         code-server even when `code` is on PATH
//   npm start -- --port 9000           first port to try
//   npm start -- --no-build            skip the build (say, `npm run watch` runs elsewhere)
//
// Plain Node ESM for Node 20.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(repoRoot);
const args = process.argv.slice(2);
const forceCodeServer = args.includes('--code-server');
const noBuild = args.includes('--no-build');
const portArg = args.indexOf('--port');
const firstPort = portArg >= 0 ? Number(args[portArg + 1]) : 8080;
const workspace = path.join(repoRoot, 'sample-workspace');
const say = (msg) => process.stderr.write(`[start] ${msg}\n`);

function fail(msg) {
  say(`ERROR: ${msg}`);
  process.exit(1);
}

// 1. npm dependencies
const lockMarker = path.join(repoRoot, 'node_modules', '.package-lock.json'); // written by every npm install/ci
const needDeps = !fs.existsSync(lockMarker) || fs.statSync(path.join(repoRoot, 'package-lock.json')).mtimeMs > fs.statSync(lockMarker).mtimeMs;
if (needDeps) {
  say('installing npm dependencies (npm ci)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (r.status !== 0) fail(`npm ci failed (exit ${r.status ?? r.error?.message})`);
}

// 2. build
if (!noBuild) {
  say('building (node esbuild.mjs)');
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) fail('the build failed: fix the errors above (`npm run build`), then run `npm start` again');
}
if (!fs.existsSync(workspace)) fail(`${workspace} is missing`);

// The shared helpers are TypeScript; tsx (a devDependency, installed above) loads them.
const { tsImport } = await import('tsx/esm/api');
const loadTs = (rel) => tsImport(pathToFileURL(path.join(repoRoot, rel)).href, import.meta.url);
const installer = await loadTs('.devtools/scripts/vscodeInstall.ts');
const installSteps = await loadTs('.devtools/scripts/installSteps.ts');

// 3a. desktop VS Code
const code = forceCodeServer ? undefined : installSteps.commandOnPath('code');
if (code) {
  say(`opening desktop VS Code: ${code} --extensionDevelopmentPath=${repoRoot} ${workspace}`);
  const child = spawn(code, [`--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
  child.on('error', (e) => fail(`cannot start ${code}: ${e.message}`));
  child.on('exit', (c) => process.exit(c ?? 0));
} else {
  await startCodeServer();
}

// 3b. code-server
async function startCodeServer() {
  const launchOptions = await loadTs('test/support/launchOptions.ts');
  const extensionFolders = await loadTs('test/support/extensionFolders.ts');
  const codeServer = await loadTs('test/support/codeServer.ts');
  const processes = await loadTs('test/support/vscodeProcesses.ts');
  say('no `code` command on PATH: using code-server (VS Code server + web workbench) instead');
  let install;
  try {
    install = await installer.ensureVsCode({ log: (m) => say(m) });
  } catch (e) {
    fail(e.message);
  }

  const base = path.join(install.testDir, 'start');
  const dirs = {
    userDataDir: path.join(base, 'user-data'),
    extensionsDir: path.join(base, 'extensions'),
    configFile: path.join(base, 'code-server.yaml'),
    logFile: path.join(base, 'code-server.log'),
  };
  // Fresh extensions dir holding only this repository; the user-data-dir (settings, layout) is kept
  // across starts, minus VS Code's cache of extension manifests, so package.json changes are seen.
  fs.rmSync(dirs.extensionsDir, { recursive: true, force: true });
  fs.mkdirSync(dirs.extensionsDir, { recursive: true });
  fs.rmSync(path.join(dirs.userDataDir, 'CachedProfilesData'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
  const settingsFile = path.join(dirs.userDataDir, 'User', 'settings.json');
  if (!fs.existsSync(settingsFile)) {
    // Quiet and offline defaults only; tool auto-approval is the user's choice, not set here.
    fs.writeFileSync(settingsFile, JSON.stringify(launchOptions.DEFAULT_SETTINGS, null, 2) + '\n');
  }
  fs.writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
  fs.writeFileSync(dirs.logFile, '');
  const folderName = extensionFolders.extensionFolderName(repoRoot);
  fs.symlinkSync(repoRoot, path.join(dirs.extensionsDir, folderName), 'dir');

  const runId = randomUUID();
  const port = await codeServer.findFreePort(Number.isInteger(firstPort) && firstPort > 0 ? firstPort : 8080);
  let server;
  let stopping = false;
  let tailTimer;

  const killEverythingNow = () => {
    if (server) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    for (const p of processes.launchProcesses(runId, server?.pid)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  process.on('exit', killEverythingNow);
  const stop = async (why, exitCode) => {
    if (stopping) return;
    stopping = true;
    say(`${why}: stopping code-server and everything it started`);
    clearInterval(tailTimer);
    const hardStop = setTimeout(() => process.exit(exitCode), 15_000);
    try {
      if (server) await codeServer.stopCodeServer(server.pid);
      const left = processes.launchProcesses(runId).map((p) => p.pid);
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* gone */
        }
      }
      if (left.length) await new Promise((r) => setTimeout(r, 1000));
    } finally {
      clearTimeout(hardStop);
      process.exit(exitCode);
    }
  };
  process.on('SIGINT', () => stop('Ctrl+C', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGHUP', () => stop('SIGHUP', 0));

  // Show code-server's output as it comes.
  let shown = 0;
  tailTimer = setInterval(() => {
    try {
      const size = fs.statSync(dirs.logFile).size;
      if (size <= shown) return;
      const fd = fs.openSync(dirs.logFile, 'r');
      const buf = Buffer.alloc(size - shown);
      fs.readSync(fd, buf, 0, buf.length, shown);
      fs.closeSync(fd);
      shown = size;
      process.stdout.write(buf);
    } catch {
      /* log rotated or removed */
    }
  }, 500);

  try {
    server = await codeServer.startCodeServer(install, dirs, {
      workspace,
      port,
      env: codeServer.codeServerEnv({ [processes.RUN_ID_ENV]: runId }),
      timeoutMs: 30_000,
    });
  } catch (e) {
    clearInterval(tailTimer);
    fail(e.message);
  }
  server.child.on('exit', (c, sig) => stop(`code-server exited (${c ?? sig})`, c === 0 ? 0 : 1));

  const url = `http://127.0.0.1:${port}/?folder=${encodeURI(workspace)}`;
  const line = '='.repeat(Math.max(70, url.length + 6));
  process.stderr.write(
    [
      '',
      line,
      `  VS Code ${install.vscodeVersion} (code-server ${install.codeServerVersion}) with ${folderName.replace(/-[^-]*$/, '')} is running.`,
      `  Open in your browser:`,
      '',
      `     ${url}`,
      '',
      `  Extension loaded from ${repoRoot} (rebuild with \`npm run build\`, then reload the window).`,
      `  Logs: ${dirs.logFile} and ${path.join(dirs.userDataDir, 'logs')}`,
      `  Ctrl+C stops it.`,
      line,
      '',
    ].join('\n') + '\n',
  );
}
