#!/usr/bin/env node
// `npm test`: installs npm dependencies when needed, then runs in order, stopping at the first
// failure: build, typecheck, lint, PowerShell 7 (a dotnet tool, when dotnet is there), unit tests,
// integration tests, real-VS-Code e2e tests (code-server; installs it on first use, about 2
// minutes), desktop VS Code test (skipped where none exists).
// A run that changed a tracked file fails, naming it.
//
//   npm test                          everything
//   npm test -- --unit                only unit tests      (also --integration, --e2e, --desktop; combinable)
//   npm test -- --e2e --grep harness  extra arguments go to mocha
//   npm test -- --no-build            skip the build (e.g. e2e harness tests while dist/ is broken)
//
// Plain Node ESM for Node 20; no dependency needed before `npm ci` ran.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(repoRoot);

const SUITES = ['unit', 'integration', 'e2e', 'desktop'];
const args = process.argv.slice(2);
const selected = SUITES.filter((s) => args.includes(`--${s}`));
const noBuild = args.includes('--no-build');
const passThrough = args.filter((a) => !SUITES.includes(a.replace(/^--/, '')) && a !== '--no-build');
const runAll = selected.length === 0;
const wants = (suite) => runAll || selected.includes(suite);

const results = [];
const failures = [];
const retried = [];
const say = (msg) => process.stderr.write(`\n[test] ${msg}\n`);

function run(command, argv, { onStdout, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { stdio: ['inherit', onStdout ? 'pipe' : 'inherit', 'inherit'], cwd: repoRoot, ...options });
    child.stdout?.on('data', (chunk) => {
      process.stdout.write(chunk);
      onStdout(chunk);
    });
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (e) => {
      process.stderr.write(`[test] cannot start ${command}: ${e.message}\n`);
      resolve(127);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 128 + (os.constants.signals[signal] ?? 1));
    });
  });
}

async function step(name, fn) {
  say(`=== ${name} ===`);
  const started = Date.now();
  let status;
  try {
    status = await fn();
  } catch (e) {
    process.stderr.write(`[test] ${name}: ${e?.stack ?? e}\n`);
    status = 1;
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const skipped = status === 'skipped';
  results.push({ name, ok: skipped || status === 0, skipped, secs });
  if (!skipped && status !== 0) finish(`${name} failed (exit ${status})`);
}

/**
 * The tracked files that differ from HEAD, each with a digest of its content now, so a test that
 * writes a tracked file (a picture, a fixture) fails the run; undefined outside a git checkout.
 */
function trackedChanges() {
  const names = spawnSync('git', ['diff', 'HEAD', '--name-only', '-z'], { cwd: repoRoot, encoding: 'utf8' });
  if (names.status !== 0) return undefined;
  const digest = (name) => (fs.existsSync(name) ? createHash('sha256').update(fs.readFileSync(name)).digest('hex') : 'deleted');
  return new Map(names.stdout.split('\0').filter(Boolean).map((name) => [name, digest(name)]));
}
// `npm run screenshots` retakes the tracked pictures on purpose.
const changesBefore = process.env.TS_UPDATE_SCREENSHOTS === '1' ? undefined : trackedChanges();

function finish(failure) {
  const changesAfter = changesBefore && !failure ? trackedChanges() : undefined;
  const written = changesAfter ? [...new Set([...changesBefore.keys(), ...changesAfter.keys()])].filter((name) => changesBefore.get(name) !== changesAfter.get(name)) : [];
  if (written.length > 0) {
    failure = `the tests changed tracked files (npm test leaves the tree as it was: pictures go to test-results/, \`npm run screenshots\` updates media/ on purpose): ${written.join(', ')}`;
  }
  say('=== summary ===');
  for (const r of results) process.stderr.write(`  ${r.skipped ? 'SKIP' : r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(36)} ${r.secs.padStart(6)} s\n`);
  if (retried.length > 0) process.stderr.write(`\n[test] passed only on a retry (flaky: fix them):\n${retried.map((f) => `  ${f}\n`).join('')}`);
  if (failures.length > 0) process.stderr.write(`\n[test] failing tests:\n${failures.map((f) => `  ${f}\n`).join('')}`);
  if (failure) {
    process.stderr.write(`\n[test] FAILED: ${failure}\n`);
    process.exit(1);
  }
  process.stderr.write('\n[test] all passed\n');
  process.exit(0);
}

function testFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) out.push(p);
    }
  };
  walk(path.join(repoRoot, dir));
  return out;
}

const node = process.execPath;
const bin = (pkg, rel) => path.join(repoRoot, 'node_modules', pkg, rel);

async function mocha(suite) {
  if (testFiles(`test/${suite}`).length === 0) {
    process.stderr.write(`[test] no test/${suite}/**/*.test.ts yet: nothing to run\n`);
    return 'skipped';
  }
  let printed = '';
  const status = await run(node, [bin('mocha', 'bin/mocha.js'), '--config', `test/${suite}/.mocharc.json`, ...passThrough], {
    onStdout: (chunk) => (printed += chunk),
  });
  failures.push(...failingTests(suite, printed));
  retried.push(...retriedTests(suite, printed));
  return status;
}

/** The tests that passed only on a retry (test/support/retryReporter.ts), each with its first attempt's error. */
function retriedTests(suite, printed) {
  const lines = printed.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim());
  const firstErrors = new Map();
  lines.forEach((line, i) => {
    const title = line.startsWith('[retrying] ') ? line.slice('[retrying] '.length) : undefined;
    if (title !== undefined && !firstErrors.has(title)) firstErrors.set(title, (lines[i + 1] ?? '').replace(/^\[first attempt\] /, ''));
  });
  return lines.filter((l) => l.startsWith('[retried] ')).map((l) => {
    const title = l.slice('[retried] '.length);
    return `${suite} ${title}\n        first attempt: ${firstErrors.get(title) ?? '(not printed)'}`;
  });
}

/**
 * One line per failing test (its number, titles and the first line of its error) from mocha's spec
 * report, repeated in the summary: a CI log often keeps only its tail, and the failures come first.
 */
function failingTests(suite, printed) {
  const lines = printed.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const start = lines.findIndex((l) => /^\s*\d+ failing$/.test(l));
  if (start < 0) return [];
  const found = [];
  for (let i = start + 1; i < lines.length; i++) {
    const head = /^ {2}(\d+)\) (.*)$/.exec(lines[i]);
    if (!head) continue;
    const titles = [head[2].trim()];
    let j = i + 1;
    while (j < lines.length && !titles[titles.length - 1].endsWith(':') && lines[j].trim()) titles.push(lines[j++].trim());
    while (j < lines.length && !lines[j].trim()) j++;
    const error = (lines[j] ?? '').trim();
    found.push(`${suite} ${head[1]}) ${titles.join(' › ').replace(/:$/, '')}\n        ${error.length > 300 ? `${error.slice(0, 300)}…` : error}`);
    i = j;
  }
  return found;
}

function depsNeedInstall() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json'); // written by every npm install/ci
  if (!fs.existsSync(marker)) return 'node_modules is missing';
  if (fs.statSync(path.join(repoRoot, 'package-lock.json')).mtimeMs > fs.statSync(marker).mtimeMs) return 'package-lock.json is newer than node_modules';
  return undefined;
}

const why = depsNeedInstall();
if (why) await step(`npm ci (${why})`, () => run('npm', ['ci', '--no-audit', '--no-fund']));

if (!noBuild && (runAll || wants('integration') || wants('e2e') || wants('desktop'))) {
  await step('build (node esbuild.mjs)', () => run(node, ['esbuild.mjs']));
}
if (runAll) await step('typecheck (tsc -p .)', () => run(node, [bin('typescript', 'bin/tsc'), '-p', '.']));
if (runAll) await step('lint (eslint)', () => run(node, [bin('eslint', 'bin/eslint.js'), '.']));
// PowerShell 7 (a dotnet tool in .vscode-test/pwsh): the unit tests run the Windows monitor's
// PowerShell session on it, the e2e shell matrix its terminals. Without dotnet it says so and the
// pwsh tests skip loudly (.ci/run sets TS_REQUIRE_PWSH=1: there it fails instead).
if (wants('unit') || wants('e2e')) {
  await step('PowerShell 7 install (dotnet tool)', () => run(node, ['--import', 'tsx', '.devtools/scripts/pwshInstall.ts'], { stdio: ['ignore', 'ignore', 'inherit'] }));
}
if (wants('unit')) await step('unit tests', () => mocha('unit'));
if (wants('integration')) await step('integration tests', () => mocha('integration'));
if (wants('e2e') && process.platform !== 'linux') {
  // The code-server suite reads its ground truth from /proc and drives Debian's Chromium; code-server
  // has no Windows build. The desktop suite below is the real-VS-Code test on this system.
  say(`!!! SKIPPING the code-server e2e suite on ${process.platform}: it needs Linux (/proc for ground truth, Debian's Chromium, code-server has no Windows build); the desktop VS Code suite runs instead !!!`);
  results.push({ name: 'e2e tests (code-server)', ok: true, skipped: true, secs: '0.0' });
} else if (wants('e2e')) {
  await step('real VS Code install (code-server)', () => run(node, ['--import', 'tsx', '.devtools/scripts/vscodeInstall.ts'], { stdio: ['ignore', 'ignore', 'inherit'] }));
  await step('e2e tests (code-server)', () => mocha('e2e'));
}
if (wants('desktop')) {
  await step('desktop VS Code test', async () => {
    // runDesktopTest.ts exits 0 when no desktop VS Code exists here, and says so in this file.
    const skipFile = path.join(os.tmpdir(), `ts-desktop-skip-${process.pid}`);
    fs.rmSync(skipFile, { force: true });
    const code = await run(node, ['--import', 'tsx', 'test/desktop/runDesktopTest.ts'], { env: { ...process.env, TS_DESKTOP_SKIP_FILE: skipFile } });
    const skipped = code === 0 && fs.existsSync(skipFile);
    fs.rmSync(skipFile, { force: true });
    return skipped ? 'skipped' : code;
  });
}
finish();
