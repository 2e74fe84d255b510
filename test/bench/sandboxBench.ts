/**
 * The sandbox (core/sandbox/) in plain Node, no VS Code: the overhead of the runtime on `true`,
 * and a daily-work corpus run confined (the policy confineAutoApproved uses: VS Code's defaults,
 * network open) and unconfined in a small real project, with what differs. The corpus decides
 * terminalShepherd.sandbox.confineAutoApproved's default (docs/sandbox.md). And, in a real VS Code
 * with chat.agent.sandbox.enabled on, VS Code's own run_in_terminal and terminal_run side by side
 * (runSandboxSideBySide), both sandboxed, called from the same chat request as Copilot calls them.
 *
 *   npx tsx test/bench/sandboxBench.ts
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/src/logger';
import { CommandSandbox } from '../../extension/src/core/sandbox/commandSandbox';
import { defaultVsCodeSandboxSettings } from '../../extension/src/core/sandboxSettings';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { ChatSession, scriptedChatLaunch } from '../support/chatSession';
import { repoRoot } from '../support/mcpClient';
import { buildSandboxRunner } from '../support/sandboxRunnerBuild';
import { E2E_SETTINGS, makeWorkspace } from '../support/shepherdE2e';
import { TempDirs } from '../support/tempDirs';
import { launchVsCode } from '../support/vscodeHarness';
import { afterApproval } from './copilotBench';
import { measure, summarize, type Stats } from './stats';

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
        bash((await sandbox.prepare(command, 'confined', settings)).line(project, { kind: 'bash', path: undefined }), project);
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

export interface SandboxSideBySide {
  /** From the approval (the call itself when nothing was asked) to the result (ms), per tool. */
  readonly runInTerminal: Stats;
  readonly terminalRun: Stats;
  /** terminal_run's p50 over run_in_terminal's. */
  readonly ratio: number;
  /** Calls whose write outside the workspace was refused (the command printed `confined`), per tool: each should be every call. */
  readonly confined: { readonly runInTerminal: number; readonly terminalRun: number };
  readonly failures: readonly string[];
}

/**
 * One window with VS Code's sandbox on: the same command through run_in_terminal and terminal_run,
 * interleaved call by call from one chat request. The command tries a write outside the workspace
 * and prints `confined` when the sandbox refused it, so each result shows it ran sandboxed.
 */
export async function runSandboxSideBySide(runs = 10): Promise<SandboxSideBySide> {
  await ensureVsCode();
  const outside = mkdtempSync(path.join(tmpdir(), 'tshep-sandbox-side-'));
  const command = `echo x > ${outside}/probe 2>/dev/null || echo confined`;
  const vsc = await launchVsCode({
    workspace: makeWorkspace(),
    settings: { ...E2E_SETTINGS, 'chat.agent.sandbox.enabled': 'on', 'terminalShepherd.log.level': 'info', 'terminalShepherd.terminal.revealOnCreate': false },
    label: 'bench-sandbox',
    ...scriptedChatLaunch([repoRoot]),
  });
  try {
    const chat = new ChatSession(vsc);
    await chat.ready();
    const turns = [];
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? (['run_in_terminal', 'terminal_run'] as const) : (['terminal_run', 'run_in_terminal'] as const);
      for (const tool of order) turns.push({ calls: [{ tool, input: tool === 'terminal_run' ? { command, name: 'bench' } : { command, explanation: 'Benchmark', goal: 'Benchmark', mode: 'sync' } }] });
    }
    const played = await chat.play('Benchmark: both terminal tools in the sandbox.', [...turns, { text: 'Done.' }], { timeoutMs: 30 * 60_000, pollMs: 50 });
    const of = (mine: boolean) => played.calls.filter((c) => c.tool.endsWith('_terminal_run') === mine);
    const confined = (calls: typeof played.calls) => calls.filter((c) => /\bconfined\b/.test(c.text ?? '')).length;
    const runInTerminal = summarize(of(false).map(afterApproval));
    const terminalRun = summarize(of(true).map(afterApproval));
    return {
      runInTerminal,
      terminalRun,
      ratio: terminalRun.p50 / runInTerminal.p50,
      confined: { runInTerminal: confined(of(false)), terminalRun: confined(of(true)) },
      failures: played.calls.flatMap((c) => (c.error !== undefined ? [`${c.tool}: ${c.error}`] : [])),
    };
  } finally {
    await vsc.stop();
    rmSync(outside, { recursive: true, force: true });
  }
}

if (require.main === module && process.argv.includes('--vscode')) {
  void runSandboxSideBySide().then((r) => {
    console.log(`after approval, p50: run_in_terminal ${r.runInTerminal.p50.toFixed(0)} ms, terminal_run ${r.terminalRun.p50.toFixed(0)} ms, ratio ${r.ratio.toFixed(2)}`);
    console.log(JSON.stringify(r));
  });
} else if (require.main === module) {
  void runSandboxBench().then((r) => {
    console.log(`sandboxed true: p50 ${r.sandboxedTrue.p50.toFixed(1)} ms p95 ${r.sandboxedTrue.p95.toFixed(1)} ms; plain: p50 ${r.plainTrue.p50.toFixed(1)} ms p95 ${r.plainTrue.p95.toFixed(1)} ms`);
    for (const row of r.corpus) console.log(`| ${row.label} | ${row.plain.code} (${row.plain.ms.toFixed(0)} ms) | ${row.confined.code} (${row.confined.ms.toFixed(0)} ms) | ${row.confined.denied} |`);
    console.log(JSON.stringify(r.devServer));
  });
}
