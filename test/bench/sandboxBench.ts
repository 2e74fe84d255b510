/**
 * The sandbox (core/sandbox/) in plain Node, no VS Code: the overhead of the runtime on `true`,
 * and a daily-work corpus run confined (the policy confineAutoApproved uses: VS Code's defaults,
 * network open) and unconfined in a small real project, with what differs. The corpus decides
 * terminalShepherd.sandbox.confineAutoApproved's default (docs/sandbox.md).
 *
 *   npx tsx test/bench/sandboxBench.ts
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { homedir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/src/logger';
import { CommandSandbox } from '../../extension/src/core/sandbox/commandSandbox';
import { defaultVsCodeSandboxSettings } from '../../extension/src/core/sandboxSettings';
import { buildSandboxRunner } from '../support/sandboxRunnerBuild';
import { TempDirs } from '../support/tempDirs';
import { measure, type Stats } from './stats';

export interface CorpusRow {
  readonly label: string;
  readonly command: string;
  readonly plain: { readonly code: number; readonly ms: number };
  readonly confined: { readonly code: number; readonly ms: number; readonly denied: string };
}

export interface SandboxBenchResult {
  readonly plainTrue: Stats;
  readonly sandboxedTrue: Stats;
  readonly corpus: readonly CorpusRow[];
  readonly devServer: { readonly plain: boolean; readonly confined: boolean; readonly confinedNoNetwork: boolean };
}

function bash(line: string, cwd: string, timeoutMs = 120_000): Promise<{ code: number; ms: number; output: string }> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile('bash', ['-c', line], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 124) : 0, ms: performance.now() - start, output: `${stdout}${stderr}` });
    });
  });
}

/** A small real project: git history, npm scripts (node --test, a build into dist/), a watcher, a server. */
function makeProject(dir: string): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'corpus', version: '1.0.0', scripts: { test: 'node --test', build: 'node build.js', lint: 'node --check src/index.js' } }, null, 2));
  writeFileSync(path.join(dir, 'src', 'index.js'), 'exports.add = (a, b) => a + b;\n');
  writeFileSync(path.join(dir, 'index.test.js'), "const test = require('node:test'); const assert = require('node:assert'); const { add } = require('./src/index.js');\ntest('adds', () => assert.equal(add(1, 2), 3));\n");
  writeFileSync(path.join(dir, 'build.js'), "require('fs').mkdirSync('dist', { recursive: true }); require('fs').copyFileSync('src/index.js', 'dist/index.js'); console.log('built');\n");
  writeFileSync(path.join(dir, 'README.md'), '# corpus\nfoo bar\n');
}

const CORPUS: ReadonlyArray<[string, string]> = [
  ['git status', 'git status --short'],
  ['git log', 'git log --oneline -3'],
  ['git diff', 'echo change >> README.md && git diff --stat && git checkout -- README.md'],
  ['git commit (in the workspace)', 'git commit -q --allow-empty -m corpus && git log --oneline -1'],
  ['ls / cat / grep / find', 'ls -la && cat README.md && grep -rn foo . --include=*.md && find . -name "*.js" -not -path "./node_modules/*"'],
  ['npm test', 'npm test'],
  ['npm run build (writes dist/)', 'npm run build && test -f dist/index.js'],
  ['npm run lint', 'npm run lint'],
  ['npm install (registry, cache in ~/.npm)', 'npm install --no-audit --no-fund left-pad@1.3.0'],
  ['npx (cached tool)', 'npx --yes --offline left-pad --version || npx --version'],
  ['python3 (pyenv shim under ~)', 'python3 -c "print(1)"'],
  ['cargo (under ~/.cargo)', 'cargo --version'],
  ['a watcher (node --watch, 3 s)', 'timeout 3 node --watch src/index.js; test $? -eq 124'],
  ['write ~/.bashrc (should fail)', 'echo "# corpus" >> ~/.bashrc'],
  ['read ~/.ssh (should fail)', 'ls ~/.ssh'],
];

/** A dev server started in the project (in the background, as waitMode "ready" would), reached from outside. */
async function serverReachable(run: (line: string) => Promise<unknown>, port: number): Promise<boolean> {
  const server = run(`timeout 6 node -e "require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')"`);
  let reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    reached = await new Promise<boolean>((resolve) => get({ host: '127.0.0.1', port, timeout: 500 }, (res) => resolve(res.statusCode === 200)).on('error', () => resolve(false)));
  }
  await server;
  return reached;
}

export async function runSandboxBench(): Promise<SandboxBenchResult> {
  const dirs = new TempDirs();
  try {
    const runnerPath = await buildSandboxRunner(dirs.make('tshep-sandbox-bench-'));
    const project = dirs.make('tshep-sandbox-corpus-');
    makeProject(project);
    await bash('git init -q && git add -A && git -c user.email=b@e -c user.name=bench commit -qm init', project);
    const sandbox = new CommandSandbox({
      runner: { execPath: process.execPath, runnerPath },
      platform: process.platform,
      place: () => ({ home: homedir(), workspaceFolders: [project], runtimeReadPaths: [] }),
      extraPath: [],
      env: () => process.env,
      logger: silentLogger,
    });
    try {
      const confined = async (command: string, settings = defaultVsCodeSandboxSettings): Promise<{ code: number; ms: number; output: string }> =>
        bash((await sandbox.prepare(command, 'confined', settings)).line(project, 'bash'), project);
      const plainTrue = await measure(30, () => bash('true', project));
      const sandboxedTrue = await measure(30, () => confined('true'));
      const corpus: CorpusRow[] = [];
      for (const [label, command] of CORPUS) {
        // The confined run first: one that fails must not be masked by what the plain run left behind.
        const inside = await confined(command);
        const plain = label.includes('should fail') ? { code: -1, ms: 0 } : await bash(command, project);
        const denied = [...inside.output.matchAll(/deny \S+ (\S+)/g)].map((m) => m[1]).slice(0, 3).join(', ');
        corpus.push({ label, command, plain: { code: plain.code, ms: plain.ms }, confined: { code: inside.code, ms: inside.ms, denied } });
      }
      const port = 41_000 + Math.floor(Math.random() * 1000);
      const devServer = {
        plain: await serverReachable((line) => bash(line, project), port),
        confined: await serverReachable((line) => confined(line), port + 1),
        confinedNoNetwork: await serverReachable((line) => confined(line, { ...defaultVsCodeSandboxSettings, allowNetwork: false }), port + 2),
      };
      return { plainTrue, sandboxedTrue, corpus, devServer };
    } finally {
      sandbox.dispose();
    }
  } finally {
    dirs.cleanup();
  }
}

if (require.main === module) {
  void runSandboxBench().then((r) => {
    console.log(`sandboxed true: p50 ${r.sandboxedTrue.p50.toFixed(1)} ms p95 ${r.sandboxedTrue.p95.toFixed(1)} ms; plain: p50 ${r.plainTrue.p50.toFixed(1)} ms p95 ${r.plainTrue.p95.toFixed(1)} ms`);
    for (const row of r.corpus) console.log(`| ${row.label} | ${row.plain.code} (${row.plain.ms.toFixed(0)} ms) | ${row.confined.code} (${row.confined.ms.toFixed(0)} ms) | ${row.confined.denied} |`);
    console.log(JSON.stringify(r.devServer));
  });
}
