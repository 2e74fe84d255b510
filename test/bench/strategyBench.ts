/**
 * Per shell and execution strategy, in one real VS Code window: the overhead of a `true` run
 * through the whole chain (MCP client -> terminal_run -> ... -> the terminal) against the floor
 * of that strategy in the same window:
 * - vscode / shepherd: a bare shellIntegration.executeCommand -> end event on the very terminal
 *   terminal_run used (so the shell, its rc files and its integration script are the same);
 * - pseudoterminal: spawning what it spawns for a command (`script -qefc` running the shell on a
 *   file) from the extension host and waiting for its exit, with nothing around it.
 */
import { existsSync } from 'node:fs';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { openShepherdWindow, useShell } from '../support/shepherdE2e';
import { measure, summarize, type Stats } from './stats';

export interface StrategyCase {
  readonly shell: string;
  readonly shellPath: string;
  readonly strategy: 'vscode' | 'shepherd' | 'pseudoterminal';
}

export interface StrategyBenchResult extends StrategyCase {
  readonly floor: Stats;
  /** Floor executions whose end VS Code never reported within FLOOR_END_WAIT_MS. */
  readonly floorEndsLost: number;
  readonly run: Stats;
}

const CASES: readonly StrategyCase[] = [
  { shell: 'bash', shellPath: '/bin/bash', strategy: 'vscode' },
  { shell: 'bash', shellPath: '/bin/bash', strategy: 'shepherd' },
  { shell: 'bash', shellPath: '/bin/bash', strategy: 'pseudoterminal' },
  { shell: 'zsh', shellPath: '/usr/bin/zsh', strategy: 'shepherd' },
  { shell: 'fish', shellPath: '/usr/bin/fish', strategy: 'vscode' },
  { shell: 'dash', shellPath: '/usr/bin/dash', strategy: 'shepherd' },
  { shell: 'mksh', shellPath: '/usr/bin/mksh', strategy: 'shepherd' },
];

/** How long the floor waits for VS Code to report one execution's end before counting it lost. */
const FLOOR_END_WAIT_MS = 10_000;

/**
 * In the extension host: N bare executeCommand('true') -> end round trips on a managed terminal.
 * An end VS Code never reports (seen for fish on a loaded machine) is counted, not waited for.
 */
const INTEGRATION_FLOOR = (terminalTitle: string, runs: number): string => `
  const term = vscode.window.terminals.find((t) => t.name === ${JSON.stringify(terminalTitle)});
  const si = term.shellIntegration;
  const times = [];
  let lost = 0;
  for (let i = 0; i < ${runs}; i++) {
    const t0 = performance.now();
    const execution = si.executeCommand('true');
    let d, timer;
    const ended = await new Promise((resolve) => {
      d = vscode.window.onDidEndTerminalShellExecution((e) => { if (e.execution === execution) resolve(true); });
      timer = setTimeout(() => resolve(false), ${FLOOR_END_WAIT_MS});
    });
    d.dispose();
    clearTimeout(timer);
    if (ended) times.push(performance.now() - t0);
    else lost++;
  }
  return { times, lost };
`;

/** In the extension host: N spawns of script(1) running the shell on a one-line file, to exit. */
const PTY_FLOOR = (shellPath: string, runs: number): string => `
  const { spawn } = require('child_process');
  const fs = require('fs');
  const file = require('os').tmpdir() + '/tshep-bench-floor.sh';
  fs.writeFileSync(file, 'true\\n');
  const times = [];
  for (let i = 0; i < ${runs}; i++) {
    const t0 = performance.now();
    await new Promise((resolve) => spawn('script', ['-qefc', 'exec ${shellPath} ' + file, '/dev/null'], { stdio: 'ignore' }).on('exit', resolve));
    times.push(performance.now() - t0);
  }
  return { times, lost: 0 };
`;

export async function runStrategyBench(runs = 30): Promise<StrategyBenchResult[]> {
  await ensureVsCode();
  const win = await openShepherdWindow({ label: 'bench-strategies', userLogLevel: true, settings: { 'terminalShepherd.terminal.revealOnCreate': true } });
  const results: StrategyBenchResult[] = [];
  try {
    for (const c of CASES.filter((x) => existsSync(x.shellPath))) {
      await useShell(win, c.shellPath, { 'terminalShepherd.terminal.strategy': c.strategy });
      const name = `bench-${c.shell}-${c.strategy}`;
      const first = await win.run('terminal_run', { command: 'true', name });
      if (first.strategy !== c.strategy) throw new Error(`${name}: got strategy ${String(first.strategy)}`);
      const run = await measure(runs, async () => {
        const r = await win.run('terminal_run', { command: 'true', name });
        if (r.exitCode !== 0) throw new Error(`${name}: exit code ${String(r.exitCode)}`);
      });
      const floor = await win.vscode.driver.evaluate<{ times: number[]; lost: number }>(
        c.strategy === 'pseudoterminal' ? PTY_FLOOR(c.shellPath, runs + 5) : INTEGRATION_FLOOR(`Shepherd: ${name}`, runs + 5),
        { timeoutMs: 120_000 + (runs + 5) * FLOOR_END_WAIT_MS },
      );
      results.push({ ...c, floor: summarize(floor.times.slice(5)), floorEndsLost: floor.lost, run });
    }
  } finally {
    await win.stop(false);
  }
  return results;
}
