/**
 * Dev-server benchmarks: how soon terminal_run (waitMode "ready") returns after a server's port
 * answers, through the real chain; what the fast look at a run's tree and a loopback probe cost;
 * stack detection on a generated workspace of 10,000 files (cold and cached); and the duplicate
 * check every background/ready run pays.
 *
 * "Port answering" is the server's own listen callback, which prints Date.now() into its output;
 * "returned" is the MCP client's Date.now() when the call resolves (one machine, one clock).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { silentLogger } from '../../common/src/logger';
import { LinuxProcessMonitor } from '../../extension/src/core/processes/linuxProcessMonitor';
import type { CommandRun } from '../../extension/src/core/run/commandRun';
import { DevServers, TreePorts } from '../../extension/src/core/servers/devServers';
import { probeUrl } from '../../extension/src/core/servers/probe';
import { analyzeWorkspace, defaultDetectOptions } from '../../extension/src/core/stacks/detectStacks';
import { WorkspaceStacks } from '../../extension/src/core/stacks/workspaceStacks';
import { shellInfo } from '../../extension/src/core/terminals/shellKind';
import { strategies } from '../../extension/src/core/terminals/strategies';
import type { TerminalSessionView } from '../../extension/src/core/terminals/terminalSession';
import { freePort, openShepherdWindow } from '../support/shepherdE2e';
import { measure, summarize, type Stats } from './stats';

export interface ReadyChainResult {
  readonly runs: number;
  /** Port answering (listen callback) -> tool returned, for a server that prints its URL after listening. */
  readonly printsUrl: Stats;
  /** The same for a server that prints no URL (the result waits up to 150 ms for one). */
  readonly printsNoUrl: Stats;
}

export interface DevServerLocalResult {
  /** One look at a run's tree while readiness waits: descendants + listening ports (Linux /proc). */
  readonly treeLook: Stats;
  /** The same with the kernel's TCP tables read (when the tree's sockets changed, and every 500 ms). */
  readonly treeLookTables: Stats;
  /** One loopback HTTP probe of a local server. */
  readonly httpProbe: Stats;
  readonly files: number;
  readonly detectCold: Stats;
  readonly detectCached: Stats;
  readonly sessions: number;
  readonly duplicateCheck: Stats;
}

/** A server that binds after `delayMs` and prints its listen time (and its URL, if asked). */
function serverCommand(port: number, delayMs: number, printUrl: boolean): string {
  const url = printUrl ? ` + ' http://127.0.0.1:${port}/'` : '';
  return `node -e "setTimeout(() => require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1', () => console.log('LISTENING ' + Date.now()${url})), ${delayMs})"`;
}

export async function runReadyChainBench(options: { runs?: number } = {}): Promise<ReadyChainResult> {
  const runs = options.runs ?? 15;
  await ensureVsCode();
  const win = await openShepherdWindow({ label: 'bench-ready', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': false } });
  try {
    const once = async (printUrl: boolean): Promise<number> => {
      const port = await freePort();
      const result = await win.run('terminal_run', { command: serverCommand(port, 300 + Math.floor(Math.random() * 300), printUrl), name: 'bench-ready', waitMode: 'ready', timeout: 30_000 });
      const returnedAt = Date.now();
      const listened = Number(/LISTENING (\d+)/.exec(result.output)?.[1]);
      if (result.status !== 'running' || !Number.isFinite(listened)) throw new Error(`bench server not ready: ${result.status} ${result.message ?? ''}`);
      const stopped = await win.run('terminal_input', { name: 'bench-ready', text: '\u0003' });
      if (stopped.status !== 'completed') throw new Error(`bench server did not stop: ${stopped.status}`);
      return returnedAt - listened;
    };
    await once(true); // warm: the terminal, the JIT
    const printsUrl: number[] = [];
    const printsNoUrl: number[] = [];
    for (let i = 0; i < runs; i++) {
      printsUrl.push(await once(true));
      printsNoUrl.push(await once(false));
    }
    return { runs, printsUrl: summarize(printsUrl), printsNoUrl: summarize(printsNoUrl) };
  } finally {
    await win.stop(false);
  }
}

/** A workspace like a monorepo: `packages` packages, each with a package.json, a tsconfig and `perPackage` source files. */
function generateWorkspace(root: string, packages: number, perPackage: number): number {
  let files = 0;
  const write = (file: string, text: string): void => {
    writeFileSync(file, text);
    files++;
  };
  write(path.join(root, 'package.json'), JSON.stringify({ name: 'mono', private: true, scripts: { build: 'pnpm -r build' } }));
  write(path.join(root, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n");
  for (let p = 0; p < packages; p++) {
    const dir = path.join(root, 'packages', `pkg${p}`);
    mkdirSync(dir, { recursive: true });
    write(path.join(dir, 'package.json'), JSON.stringify({ name: `pkg${p}`, scripts: { dev: 'vite', build: 'vite build', test: 'vitest run' } }));
    write(path.join(dir, 'tsconfig.json'), '{}');
    const perFolder = 20;
    for (let f = 0; f < perPackage; f++) {
      const sub = path.join(dir, 'src', `part${Math.floor(f / perFolder)}`);
      if (f % perFolder === 0) mkdirSync(sub, { recursive: true });
      write(path.join(sub, `file${f}.ts`), `export const v${f} = ${f};\n`);
    }
    // Dependencies the scan must skip (not counted in the workspace's files).
    mkdirSync(path.join(dir, 'node_modules', 'dep', 'lib'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', 'dep', 'package.json'), '{}');
  }
  return files;
}

export async function runDevServerLocalBench(): Promise<DevServerLocalResult> {
  // The tree look: a shell whose child serves on a port, as a terminal's would.
  const port = await freePort();
  // `; true` keeps bash as the parent (it would exec a last command in its place).
  const shell = spawn('bash', ['-c', `node -e "require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')"; true`], { stdio: 'ignore' });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tshep-bench-stacks-'));
  const monitor = new LinuxProcessMonitor();
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    // What readiness pays per look while nothing changes (sockets listed, TCP tables skipped) ...
    const look = new TreePorts(monitor, shell.pid, 0);
    const treeLook = await measure(200, () => look.look());
    // ... and when the tables are read (the tree's sockets changed, or every 500 ms).
    const treeLookTables = await measure(50, async () => {
      const tree = await monitor.descendants(shell.pid!);
      await monitor.listeningPorts(tree.map((p) => p.pid));
    });
    const httpProbe = await measure(100, () => probeUrl(`http://127.0.0.1:${port}/`));

    const files = generateWorkspace(tmp, 50, 200);
    const detectCold = await measure(20, () => analyzeWorkspace([tmp], defaultDetectOptions), 3);
    const stacks = new WorkspaceStacks({ roots: () => [tmp], logger: silentLogger });
    const detectCached = await measure(1000, () => stacks.analysis());
    stacks.dispose();

    // The duplicate check: 20 terminals each running something, none matching.
    const servers = new DevServers({ ledger: { list: () => ({ active: [], orphaned: [] }), kill: async () => ({ killed: [], failed: [] }), refresh: async () => undefined }, monitor, logger: silentLogger });
    const sessions = Array.from({ length: 20 }, (_, i): TerminalSessionView => ({
      name: `t${i}`,
      shellPid: 1000 + i,
      terminal: { cwd: path.join(tmp, `app${i}`) } as TerminalSessionView['terminal'],
      currentRun: { active: true, command: `npm run dev -- --port ${3000 + i}` } as unknown as CommandRun,
      foreignExecutions: new Set(),
      closed: false,
      shell: shellInfo('/bin/bash'),
      strategy: strategies.vscode,
      busyReason: () => undefined,
      interrupt: () => undefined,
      type: () => undefined,
    }));
    const duplicateCheck = await measure(5000, () => servers.findRunning('npm run dev', path.join(tmp, 'app'), sessions));
    return { treeLook, treeLookTables, httpProbe, files, detectCold, detectCached, sessions: sessions.length, duplicateCheck };
  } finally {
    // The server this benchmark started, by pid, then its shell.
    for (const child of await monitor.descendants(shell.pid!).catch(() => [])) process.kill(child.pid, 'SIGKILL');
    shell.kill('SIGKILL');
    monitor.dispose();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function waitForHttp(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => http.get(url, (r) => resolve(r.resume() !== undefined)).on('error', () => resolve(false)));
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`bench server at ${url} never answered`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
