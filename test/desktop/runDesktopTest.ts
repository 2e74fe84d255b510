// Desktop VS Code (Electron) test through @vscode/test-electron, where a desktop build can be had.
//
// With TSHEP_DESKTOP_DOWNLOAD=1 (the CI workflow sets it) @vscode/test-electron downloads the
// pinned desktop VS Code into .vscode-test/. Here one cannot be downloaded (only the npm registry
// and Debian's packages are reachable), so otherwise this looks for one already on the machine:
//   1. env VSCODE_DESKTOP_PATH: the desktop `code` executable (an error when it does not exist);
//   2. a `.vscode-test/vscode-*` folder from an earlier @vscode/test-electron download;
//   3. `code` on PATH when it resolves to an Electron build (not a remote/CLI shim).
// None found: a loud notice and exit 0 (skipped; the real-VS-Code coverage is the code-server e2e
// suite in test/e2e). Found: runs test/desktop/suite (this system's shell matrix) with the
// repository as the extension under development, on a fresh temp workspace, under Xvfb when there
// is no display.
//
//   node --import tsx test/desktop/runDesktopTest.ts
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import os from 'node:os';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { commandOnPath, findRepoRoot } from '../../.devtools/scripts/installSteps';

const repoRoot = findRepoRoot();
/** The desktop VS Code CI downloads: the same VS Code as the code-server of the e2e suite (vscodeInstall.ts). */
const DESKTOP_VSCODE_VERSION = '1.139.1';

function isElectronBuild(executable: string): boolean {
  // A desktop build has resources/app/package.json next to its executable (Linux, Windows) or in
  // Contents/Resources/app (macOS).
  const dir = path.dirname(executable);
  return (
    fs.existsSync(path.join(dir, 'resources', 'app', 'package.json')) ||
    fs.existsSync(path.join(dir, '..', 'Resources', 'app', 'package.json'))
  );
}

async function findDesktopVsCode(): Promise<{ executable: string; source: string } | undefined> {
  if (process.env.TSHEP_DESKTOP_DOWNLOAD === '1') {
    const executable = await downloadAndUnzipVSCode({ version: DESKTOP_VSCODE_VERSION, cachePath: path.join(repoRoot, '.vscode-test') });
    return { executable, source: `@vscode/test-electron download of ${DESKTOP_VSCODE_VERSION}` };
  }
  const fromEnv = process.env.VSCODE_DESKTOP_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`VSCODE_DESKTOP_PATH=${fromEnv} does not exist`);
    return { executable: path.resolve(fromEnv), source: 'VSCODE_DESKTOP_PATH' };
  }
  const testDir = path.join(repoRoot, '.vscode-test');
  const downloads = fs.existsSync(testDir) ? fs.readdirSync(testDir).filter((d) => d.startsWith('vscode-')).sort().reverse() : [];
  for (const d of downloads) {
    for (const rel of ['code', 'code-insiders', 'VSCode-linux-x64/code', 'VSCode-linux-arm64/code', 'Code.exe', 'Visual Studio Code.app/Contents/MacOS/Electron']) {
      const p = path.join(testDir, d, rel);
      if (fs.existsSync(p) && fs.statSync(p).isFile()) return { executable: p, source: `.vscode-test/${d}` };
    }
  }
  const code = commandOnPath('code');
  if (code) {
    // /usr/bin/code -> /usr/share/code/bin/code (a script) next to /usr/share/code/code (Electron).
    const real = fs.realpathSync(code);
    for (const candidate of [real, path.join(path.dirname(real), '..', 'code')]) {
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile() && isElectronBuild(candidate)) {
        return { executable: path.resolve(candidate), source: `\`code\` on PATH (${code})` };
      }
    }
  }
  return undefined;
}

function skip(): void {
  const bar = '!'.repeat(100);
  process.stderr.write(
    [
      '',
      bar,
      '!!  DESKTOP VS CODE TEST SKIPPED: no desktop VS Code (Electron) build on this machine.',
      '!!  It cannot be downloaded here: only the npm registry and Debian packages are reachable, and',
      '!!  @vscode/test-electron downloads from update.code.visualstudio.com.',
      '!!  The real-VS-Code coverage comes from the code-server e2e suite (test/e2e, `npm test -- --e2e`):',
      '!!  VS Code 1.139 server + web workbench, real terminals, shell integration, MCP.',
      '!!  To run this test, point VSCODE_DESKTOP_PATH at a desktop `code` executable, or put a',
      '!!  @vscode/test-electron download under .vscode-test/vscode-*, or have an Electron `code` on PATH.',
      bar,
      '',
    ].join('\n') + '\n',
  );
  if (process.env.TS_DESKTOP_SKIP_FILE) fs.writeFileSync(process.env.TS_DESKTOP_SKIP_FILE, 'skipped\n');
}

/** On Linux without a display, starts Xvfb (Debian package xvfb) and sets DISPLAY. */
async function ensureDisplay(): Promise<ChildProcess | undefined> {
  if (process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return undefined;
  const xvfb = commandOnPath('Xvfb');
  if (!xvfb) throw new Error('No display (DISPLAY unset) and no Xvfb: install it with `apt-get install -y xvfb`, or run under a desktop session.');
  for (let n = 99; n < 120; n++) {
    if (fs.existsSync(`/tmp/.X11-unix/X${n}`) || fs.existsSync(`/tmp/.X${n}-lock`)) continue;
    const child = spawn(xvfb, [`:${n}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !fs.existsSync(`/tmp/.X11-unix/X${n}`) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    if (fs.existsSync(`/tmp/.X11-unix/X${n}`)) {
      process.env.DISPLAY = `:${n}`;
      return child;
    }
    child.kill('SIGKILL');
  }
  throw new Error('Could not start Xvfb on displays :99 to :119');
}

async function main(): Promise<number> {
  const found = await findDesktopVsCode();
  if (!found) {
    skip();
    return 0;
  }
  process.stderr.write(`[desktop-test] desktop VS Code: ${found.executable} (from ${found.source})\n`);
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: build first (`node esbuild.mjs`)');
  }
  // The extension host loads plain JavaScript: bundle the suite (vscode stays external).
  const suiteOut = path.join(repoRoot, 'out', 'desktop-suite', 'index.js');
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'test', 'desktop', 'suite', 'index.ts')],
    outfile: suiteOut,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  // A fresh workspace: the extension writes its ledger and bridge file under .devtools/ there.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tshep-desktop-'));
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'tshep-desktop-user-'));
  const xvfb = await ensureDisplay();
  try {
    return await runTests({
      vscodeExecutablePath: found.executable,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: suiteOut,
      launchArgs: [workspace, '--user-data-dir', userData, '--disable-extensions', '--disable-gpu', '--disable-dev-shm-usage', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    xvfb?.kill('SIGTERM');
    for (const dir of [workspace, userData]) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    process.stderr.write(`[desktop-test] FAILED: ${e.message}\n`);
    process.exit(1);
  },
);
