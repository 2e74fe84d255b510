/**
 * Faults on the real chain: a terminal closed or its shell SIGKILLed mid-run, bridge.json
 * corrupted or stale, the data folder full or read-only, two windows on one folder, the window
 * reloaded mid-call. Each says how the call ended and whether the next one worked.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readlinkSync, copyFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { bridgeFilePath, readBridgeFile } from '../../common/src/bridgeDiscovery';
import type { ListProcessesResult, ListResult, TerminalRunResult } from '../../common/src/protocol';
import { connectMcpServer } from '../support/mcpClient';
import { alive, flatten, openShepherdWindow, waitFor, type ShepherdWindow } from '../support/shepherdE2e';
import { invokeThroughVsCode, startVsCodeMcpServer } from '../support/vscodeMcp';
import { callTool, isClearError, type Outcome } from './calls';
import { latency, type Check } from './report';

const runResultOf = (o: Outcome): TerminalRunResult | undefined => (o.kind === 'result' ? (o.result.structuredContent as unknown as TerminalRunResult) : undefined);

/** A run waiting in a terminal, then the terminal closed by the user (or its shell SIGKILLed). */
export async function terminalEndsMidRun(win: ShepherdWindow, how: 'close' | 'sigkill', times: number): Promise<Check> {
  let lost = 0;
  const codes: string[] = [];
  const ends: number[] = [];
  for (let i = 0; i < times; i++) {
    const name = `${how}-${i}`;
    const started = runResultOf(await callTool(win.mcp.client, 'terminal_run', { command: 'sleep 60', name, waitMode: 'background' }, 60_000));
    if (!started?.pid) {
      lost++;
      continue;
    }
    const waiting = callTool(win.mcp.client, 'terminal_state', { name, wait: true, timeout: 30_000 }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = performance.now();
    if (how === 'close') {
      await win.vscode.driver.evaluate(`vscode.window.terminals.find((t) => t.name === ${JSON.stringify(`Shepherd: ${name}`)})?.dispose();`);
    } else {
      process.kill(started.pid, 'SIGKILL');
    }
    const r = runResultOf(await waiting);
    ends.push(performance.now() - t0);
    codes.push(String(r?.exitCode));
    // Honest: terminal_closed, and never a success for a shell that was killed.
    if (r?.status !== 'terminal_closed' || (how === 'sigkill' && r.exitCode !== undefined)) lost++;
    const again = runResultOf(await callTool(win.mcp.client, 'terminal_run', { command: 'echo again', name }, 60_000));
    if (again?.output !== 'again') lost++;
  }
  await win.vscode.driver.evaluate(`for (const t of vscode.window.terminals) if (/^Shepherd: (close|sigkill)-/.test(t.name)) t.dispose();`);
  return {
    area: 'faults',
    name: how === 'close' ? 'terminal closed by the user mid-run' : "the terminal's shell SIGKILLed mid-run",
    tried: times,
    lost,
    met: lost === 0,
    figures: `status terminal_closed, exit codes [${[...new Set(codes)].join(', ')}] (${how === 'sigkill' ? 'undefined: never a success' : 'as VS Code reports'}); the call ended ${latency(ends)} after; the name ran again`,
  };
}

/** bridge.json corrupted, removed, or stale (a dead window's): repaired by the window, a new MCP client reaches it. */
export async function bridgeFileFaults(win: ShepherdWindow, times: number): Promise<Check> {
  const file = bridgeFilePath(win.workspace);
  const mine = await readBridgeFile(file);
  if (!mine) throw new Error('no bridge.json');
  let lost = 0;
  const repairs: number[] = [];
  const faults: Array<[string, () => void]> = [
    ['corrupt', () => writeFileSync(file, '{"endpoint": "/tmp/x", "tok')],
    ['stale', () => writeFileSync(file, JSON.stringify({ ...mine, endpoint: '/nonexistent/bridge.sock', token: 's'.repeat(43), pid: 2 ** 22 + 17 }))],
    ['removed', () => execFileSync('rm', ['-f', file])],
  ];
  for (let i = 0; i < times; i++) {
    for (const [, damage] of faults) {
      damage();
      const t0 = performance.now();
      const repaired = await waitFor('bridge.json repaired', 15_000, async () => (await readBridgeFile(file))?.token === mine.token).catch(() => false);
      repairs.push(performance.now() - t0);
      if (!repaired) {
        lost++;
        continue;
      }
      const fresh = await connectMcpServer({ workspace: win.workspace });
      try {
        if ((await callTool(fresh.client, 'terminal_list', {}, 30_000)).kind !== 'result') lost++;
      } finally {
        await fresh.close();
      }
    }
  }
  return {
    area: 'faults',
    name: 'bridge.json corrupted, stale (a dead window) or removed',
    tried: times * faults.length,
    lost,
    met: lost === 0,
    figures: `the window restored it ${latency(repairs)} after; a new MCP client reached the window every time`,
  };
}

function mount(args: string[]): void {
  execFileSync('mount', args, { stdio: 'ignore' });
}

/**
 * Remounts `dir` read-only. Linux refuses while any file on it is open for writing ("mount point
 * is busy"), and the window opens its files for moments (a ledger append, a run log closing), so
 * it retries for a bounded time; a file held open longer is named (a leaked descriptor is a bug).
 */
async function remountReadOnly(dir: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
    if (r.status === 0) return;
    if (Date.now() >= deadline) throw new Error(`mount -o remount,ro ${dir} failed for 10 s: ${r.stderr.trim()}; open under it: ${openUnder(dir).join(', ') || 'nothing seen'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** "pid: file" for every descriptor a process holds on a file under `dir` (from /proc). */
function openUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith(`${dir}/`)) found.push(`${pid}: ${target}`);
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}

/** Fills a filesystem: writes until ENOSPC. */
function fill(dir: string): void {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x66);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // full
  } finally {
    closeSync(fd);
  }
}

/**
 * .devtools full, then read-only (a small tmpfs over it, as root; read-only by chmod otherwise,
 * with "full" skipped loudly): runs keep working, each long result says its full output could
 * not be saved, and the user is told once.
 */
export async function dataDirFaults(win: ShepherdWindow, runsEach: number): Promise<Check[]> {
  const devtools = path.join(win.workspace, '.devtools');
  const root = process.getuid?.() === 0;
  let lost = 0;
  const seen: string[] = [];
  const phases: Array<{ name: string; reason: RegExp }> = [];
  let mounted = false;
  try {
    if (root) {
      // A tmpfs over .devtools with what it held (bridge.json stays advertised), then filled up.
      const saved = readdirSync(devtools).filter((f) => !f.endsWith('.lock'));
      const stash = path.join(win.vscode.runDir, 'devtools-stash');
      mkdirSync(stash, { recursive: true });
      for (const f of saved) if (!f.includes('/') && existsSync(path.join(devtools, f)) && !f.startsWith('logs') && !f.startsWith('sessions')) copyFileSync(path.join(devtools, f), path.join(stash, f));
      try {
        mount(['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', devtools]);
      } catch (error) {
        // Root without the right to mount (a locked-down container): chmod does not bind root either.
        const why = `mounting a tmpfs failed (${(error as Error).message.split('\n')[0]}), and chmod does not restrict root`;
        console.warn(`\n!!! SKIPPING ".devtools full / read-only": ${why} !!!\n`);
        return [{ area: 'faults', name: '.devtools full, then read-only', tried: 0, lost: 0, met: true, figures: '', skipped: why }];
      }
      mounted = true;
      for (const f of readdirSync(stash)) copyFileSync(path.join(stash, f), path.join(devtools, f));
      fill(devtools);
      phases.push({ name: 'full', reason: /ENOSPC/ });
    }
    for (const phase of [...phases, { name: 'read-only', reason: /EROFS|EACCES/ }]) {
      if (phase.name === 'read-only') {
        if (root) await remountReadOnly(devtools);
        else execFileSync('chmod', ['-R', 'a-w', devtools]);
      }
      for (let i = 0; i < runsEach; i++) {
        // `(sleep 0.1 &)`: a process for the ledger to log (its writes fail too), without job notices.
        const r = runResultOf(await callTool(win.mcp.client, 'terminal_run', { command: `seq 1 30000; (sleep 0.1 &); echo ${phase.name}-${i}`, name: 'keep-data' }, 60_000));
        const saysSo = r?.message !== undefined && /The full output could not be saved under \.devtools\/logs/.test(r.message) && phase.reason.test(r.message);
        if (r?.status !== 'completed' || r.truncated !== true || r.outputFile !== undefined || !saysSo || !r.output.endsWith(`${phase.name}-${i}`)) {
          lost++;
          seen.push(`${phase.name}: ${JSON.stringify(r?.message ?? r?.status)}`);
        }
      }
    }
  } finally {
    if (mounted) execFileSync('umount', ['-l', devtools]);
    else if (!root) execFileSync('chmod', ['-R', 'u+w', devtools]);
  }
  // Told once: one notification in the whole session, whatever failed how often.
  await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('notifications.showList');`);
  const told = await waitFor('the notification', 10_000, async () => {
    const n = await win.vscode.page.locator('.notifications-center .notification-list-item', { hasText: 'Terminal Shepherd cannot write' }).count();
    return n > 0 ? n : undefined;
  }).catch(() => 0);
  if (told !== 1) lost++;
  await win.vscode.driver.evaluate(`await vscode.commands.executeCommand('notifications.hideList');`);
  // Writable again: the next long run saves its full output.
  const back = runResultOf(await callTool(win.mcp.client, 'terminal_run', { command: 'seq 1 30000', name: 'keep-data' }, 60_000));
  if (!back?.outputFile || !existsSync(back.outputFile)) lost++;
  const tried = (root ? 2 : 1) * runsEach;
  const check: Check = {
    area: 'faults',
    name: root ? '.devtools full (2 MB tmpfs), then read-only' : '.devtools read-only (chmod)',
    tried,
    lost,
    met: lost === 0,
    figures:
      `${tried - seen.length} of ${tried} long runs completed and said their full output could not be saved (and why); the user was told ${told} time(s); ` +
      `writable again, the next run saved its log${seen.length ? `; ${seen.slice(0, 2).join('; ')}` : ''}`,
  };
  if (root) return [check];
  const why = 'a full .devtools needs a tmpfs, and mounting one needs root';
  console.warn(`\n!!! SKIPPING ".devtools full": ${why} !!!\n`);
  return [check, { area: 'faults', name: '.devtools full', tried: 0, lost: 0, met: true, figures: '', skipped: why }];
}

/**
 * A second window on the same folder: each window's MCP server (started by VS Code, with its own
 * window in its environment) reaches its own window, and kill_orphans in one never kills what the
 * other's terminals run.
 */
export async function twoWindows(win: ShepherdWindow): Promise<Check> {
  let lost = 0;
  const notes: string[] = [];
  const second = await openShepherdWindow({ workspace: win.workspace, label: 'soak-second', settings: { 'terminalShepherd.terminal.revealOnCreate': false } });
  try {
    const toolsA = await startVsCodeMcpServer(win);
    const toolsB = await startVsCodeMcpServer(second);
    const structured = async <T>(w: ShepherdWindow, tools: Record<string, string>, tool: string, input: Record<string, unknown>): Promise<T> =>
      JSON.parse((await invokeThroughVsCode(w, tools[tool]!, input)).text) as T;
    await structured(win, toolsA, 'terminal_run', { command: 'sleep 600 &', name: 'two-a' });
    await structured(second, toolsB, 'terminal_run', { command: 'sleep 601 &', name: 'two-b' });
    const ownSleep = async (w: ShepherdWindow, tools: Record<string, string>, name: string): Promise<number | undefined> =>
      waitFor(`the sleep of ${name}`, 20_000, async () =>
        flatten((await structured<ListProcessesResult>(w, tools, 'list_processes', {})).active).find((p) => p.terminalName === name)?.pid,
      ).catch(() => undefined);
    const sleepA = await ownSleep(win, toolsA, 'two-a');
    const sleepB = await ownSleep(second, toolsB, 'two-b');
    const namesA = (await structured<ListResult>(win, toolsA, 'terminal_list', {})).terminals.map((t) => t.name);
    const namesB = (await structured<ListResult>(second, toolsB, 'terminal_list', {})).terminals.map((t) => t.name);
    if (!namesA.includes('two-a') || namesA.includes('two-b') || !namesB.includes('two-b') || namesB.includes('two-a')) {
      lost++;
      notes.push(`window A lists [${namesA.join(', ')}], B [${namesB.join(', ')}]`);
    }
    const killedByB = await structured<{ killed: number[] }>(second, toolsB, 'kill_orphans', {});
    const killedByA = await structured<{ killed: number[] }>(win, toolsA, 'kill_orphans', {});
    if (!sleepA || !sleepB || !alive(sleepA) || !alive(sleepB) || killedByA.killed.length + killedByB.killed.length > 0) {
      lost++;
      notes.push(`sleeps ${sleepA} ${sleepB}, killed by A [${killedByA.killed}] by B [${killedByB.killed}]`);
    }
    // A client outside VS Code (bridge.json) reaches a live window too.
    if ((await callTool(win.mcp.client, 'terminal_list', {}, 30_000)).kind !== 'result') lost++;
    if (sleepA) await structured(win, toolsA, 'kill_process', { pid: sleepA });
  } finally {
    await second.stop(lost > 0);
  }
  return {
    area: 'faults',
    name: "two windows on one folder (each through VS Code's own MCP client)",
    tried: 1,
    lost,
    met: lost === 0,
    figures: `each window's server reached its own window; kill_orphans in each left the other's process alive (checked in /proc)${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}

/** The window reloaded while a call waits: a clear error, and the next call reaches the new window. */
export async function reloadMidCall(win: ShepherdWindow, times: number): Promise<Check> {
  let lost = 0;
  const answers: string[] = [];
  const ended: number[] = [];
  for (let i = 0; i < times; i++) {
    const before = await readBridgeFile(bridgeFilePath(win.workspace));
    const call = callTool(win.mcp.client, 'terminal_run', { command: 'sleep 30', name: `reload-${i}` }, 90_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await win.vscode.reloadWindow();
    const outcome = await call;
    ended.push(outcome.ms - 1500);
    // Clear either way: the terminal closed with the window (the run's own end, saying so), or
    // the wait ended with the window (WindowClosing), or the connection went first (ConnectionLost).
    const closed = runResultOf(outcome);
    const clear = closed
      ? closed.status === 'terminal_closed' && /because the VS Code window is closing or reloading/.test(closed.message ?? '')
      : outcome.kind === 'toolError' && isClearError(outcome.text) && /^(WindowClosing|ConnectionLost): /.test(outcome.text);
    answers.push(closed ? `terminal_closed (${closed.message?.slice(0, 60)}...)` : outcome.kind === 'toolError' ? outcome.text.split(':')[0]! : outcome.kind);
    if (!clear) lost++;
    await waitFor('the new window advertised', 60_000, async () => {
      const now = await readBridgeFile(bridgeFilePath(win.workspace));
      return now !== undefined && now.token !== before?.token;
    });
    const next = await callTool(win.mcp.client, 'terminal_list', {}, 30_000);
    const names = next.kind === 'result' ? (next.result.structuredContent as unknown as ListResult).terminals.map((t) => t.name) : undefined;
    if (!names || names.includes(`reload-${i}`)) lost++;
  }
  return {
    area: 'faults',
    name: 'window reloaded mid-call',
    tried: times,
    lost,
    met: lost === 0,
    figures: `the waiting call ended with [${[...new Set(answers)].join(', ')}] ${latency(ended)} after the reload began; the next call reached the new window`,
  };
}
