/**
 * Windows: every fact comes from one long-lived PowerShell session (CIM, Get-NetTCPConnection).
 *
 * - The process table is ONE Win32_Process query; trees are built in TypeScript from every
 *   snapshot taken so far (processLineage.ts): a process whose parent exited still belongs to the
 *   tree, by identity, and a reused pid is not taken for the parent. Snapshots are cached ~5 s
 *   because a CIM query costs tens to hundreds of ms; a kill invalidates the cache.
 * - Identity checks (isAlive, kill) always query fresh.
 * - Killing is taskkill /T /F semantics (forced, whole tree) but on the tree WE computed and only
 *   for processes whose CreationDate still matches, verified inside the same PowerShell request
 *   that kills them. Console programs have no SIGTERM equivalent, so there is no grace period.
 *   Top-down, in rounds: a killed parent cannot start new children, and what it started meanwhile
 *   is found in the next snapshot. Stop-Process saying the process is already gone
 *   (NoProcessFoundForGivenId) is an outcome, not a failure: it exited by itself.
 * - shellDescendants: after a crash, what a dead window's shells started, by ParentProcessId chain
 *   and CreationDate from the shells the ledger logged (shellLineage.ts), in place of the
 *   environment mark Linux reads.
 * - probeShell: a job holds the shell when it has child processes other than its console host.
 *   Whether a job reads the console is not observable: readingTerminal is 'unknown'.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../../common/src/logger';
import { silentLogger } from '../../../../common/src/logger';
import { PowerShellSession, type PowerShellChild } from './powershellSession';
import { ProcessLineage } from './processLineage';
import { shellDescendants } from './shellLineage';
import { isConsoleHost, parseJsonRows, parseListenRows, parseWin32Processes } from './windowsParsers';
import {
  GONE_ACTIVITY,
  NOTHING_KILLED,
  UNKNOWN_ACTIVITY,
  isActionablePid,
  type KillOptions,
  type LoggedShell,
  type MarkedProcess,
  type ProcessIdentity,
  type ProcessInfo,
  type ProcessMonitor,
  type ShellActivity,
  type TreeKillResult,
} from './types';

const SELECT_PROCESS =
  "Select-Object ProcessId,ParentProcessId,Name,CommandLine,@{Name='CreationDate';Expression={ if ($_.CreationDate) { $_.CreationDate.ToUniversalTime().ToString('o') } else { $null } }}";
const CIM_PROCESS = 'Get-CimInstance -ClassName Win32_Process -Property ProcessId,ParentProcessId,Name,CommandLine,CreationDate';

export const LIST_PROCESSES_SCRIPT = `${CIM_PROCESS} | ${SELECT_PROCESS}`;
export const LISTEN_PORTS_SCRIPT = 'Get-NetTCPConnection -State Listen -ErrorAction SilentlyContinue | Select-Object LocalPort,OwningProcess';

/** A WQL filter over pids only: the numbers are validated, so no quoting is ever needed. */
function pidFilter(pids: readonly number[], field: 'ProcessId' | 'ParentProcessId' = 'ProcessId'): string {
  return pids.map((p) => `${field} = ${Math.trunc(p)}`).join(' OR ');
}

export function queryProcessesScript(filter: string): string {
  return `${CIM_PROCESS} -Filter '${filter}' | ${SELECT_PROCESS}`;
}

/** Verify-then-kill in one request: a pid whose CreationDate changed is reported, not killed. */
export function killScript(targets: ReadonlyArray<{ pid: number; start: string }>): string {
  const data = Buffer.from(JSON.stringify(targets), 'utf8').toString('base64');
  return [
    // No @(...) around ConvertFrom-Json: 5.1 emits a JSON array as ONE object, which @() would nest.
    `$targets = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${data}')) | ConvertFrom-Json`,
    '$now = @{}',
    `${CIM_PROCESS} | ForEach-Object { if ($_.CreationDate) { $now[[int]$_.ProcessId] = $_.CreationDate.ToUniversalTime().ToString('o') } }`,
    'foreach ($t in $targets) {',
    '  $procId = [int]$t.pid', // $pid is PowerShell's own read-only process id
    // pwsh 7's ConvertFrom-Json turns an ISO date string into a DateTime (5.1 keeps the string):
    // back to the same round-trip text, or every target would read as 'changed' and none be killed.
    "  $start = if ($t.start -is [datetime]) { $t.start.ToUniversalTime().ToString('o') } else { [string]$t.start }",
    "  if ($now[$procId] -ne $start) { [pscustomobject]@{ Pid = $procId; Result = 'changed' }; continue }",
    "  try { Stop-Process -Id $procId -Force -ErrorAction Stop; [pscustomobject]@{ Pid = $procId; Result = 'killed' } }",
    "  catch { $gone = $_.FullyQualifiedErrorId -like 'NoProcessFoundForGivenId*'; [pscustomobject]@{ Pid = $procId; Result = $(if ($gone) { 'gone' } else { 'failed' }); Error = [string]$_ } }",
    '}',
  ].join('\n');
}

/** Windows PowerShell by absolute path (present on every supported Windows, not PATH-hijackable), else pwsh. */
export function defaultPowerShell(): string {
  const systemRoot = process.env.SystemRoot ?? 'C:\\Windows';
  const winPs = path.win32.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
  return existsSync(winPs) ? winPs : 'pwsh.exe';
}

/** The session's PowerShell: reads requests from stdin, no profile, never asks. Tests pass a real pwsh's path. */
export function spawnPowerShell(exe = defaultPowerShell()): PowerShellChild {
  const child = spawn(exe, ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', '-'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    cwd: tmpdir(), // never resolve anything relative to a workspace
  });
  return child as unknown as PowerShellChild;
}

export interface WindowsMonitorOptions {
  readonly logger?: Logger;
  /** Injected in tests; defaults to a real PowerShell session. */
  readonly session?: Pick<PowerShellSession, 'run' | 'dispose'>;
  readonly cacheMs?: number;
}

const KILL_VERIFY_DELAY_MS = 150;
const KILL_ROUNDS = 3;

export class WindowsProcessMonitor implements ProcessMonitor {
  private readonly logger: Logger;
  private readonly session: Pick<PowerShellSession, 'run' | 'dispose'>;
  private readonly cacheMs: number;
  private cache: { at: number; table: ProcessInfo[] } | undefined;
  private inFlight: Promise<ProcessInfo[]> | undefined;
  private readonly lineage = new ProcessLineage();

  constructor(options: WindowsMonitorOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.session = options.session ?? new PowerShellSession({ spawn: () => spawnPowerShell(), logger: this.logger });
    this.cacheMs = options.cacheMs ?? 5000;
  }

  async listAll(): Promise<ProcessInfo[]> {
    if (this.cache && Date.now() - this.cache.at < this.cacheMs) {
      return this.cache.table;
    }
    return this.fresh();
  }

  async descendants(rootPid: number, table?: readonly ProcessInfo[]): Promise<ProcessInfo[]> {
    return this.lineage.descendants(table ?? (await this.listAll()), rootPid);
  }

  /** What dead windows' shells started, by CIM lineage from a fresh snapshot (shellLineage.ts): Windows' stand-in for the environment mark. */
  async shellDescendants(shells: readonly LoggedShell[]): Promise<MarkedProcess[]> {
    return shells.length === 0 ? [] : shellDescendants(await this.fresh(), shells);
  }

  async isAlive(id: ProcessIdentity): Promise<boolean> {
    if (!isActionablePid(id.pid) || id.startTime === '') {
      return false;
    }
    const rows = await this.query(pidFilter([id.pid]));
    return rows.some((p) => p.pid === id.pid && p.startTime === id.startTime);
  }

  async killTree(id: ProcessIdentity, _opts?: KillOptions): Promise<TreeKillResult> {
    if (!isActionablePid(id.pid) || id.pid === process.pid || id.startTime === '') {
      return NOTHING_KILLED;
    }
    const table = await this.fresh();
    const root = table.find((p) => p.pid === id.pid);
    if (!root || root.startTime !== id.startTime) {
      this.logger.info(`killTree: pid ${id.pid} is ${root ? 'another process now' : 'gone'}; nothing killed`);
      return NOTHING_KILLED;
    }
    const targets = new Map<number, ProcessInfo>();
    for (const p of [root, ...this.lineage.descendants(table, root.pid)]) {
      if (p.pid !== process.pid && isActionablePid(p.pid) && p.startTime !== '') {
        targets.set(p.pid, p);
      }
    }
    const failedToKill = new Set<number>();
    let round: ProcessInfo[] = [...targets.values()];
    let latest: ProcessInfo[] = table;
    for (let i = 0; i < KILL_ROUNDS && round.length > 0; i++) {
      // Top-down: a killed parent cannot respawn the children killed after it.
      const answer = parseJsonRows(await this.session.run(killScript(round.map((p) => ({ pid: p.pid, start: p.startTime })))));
      for (const row of answer) {
        if (row.Result === 'failed') {
          failedToKill.add(Number(row.Pid));
          this.logger.debug(`killTree: could not kill ${String(row.Pid)}: ${String(row.Error ?? '')}`);
        }
      }
      this.cache = undefined;
      await new Promise((r) => setTimeout(r, KILL_VERIFY_DELAY_MS));
      latest = await this.fresh();
      // Children started meanwhile by a target we just killed: the lineage links them to it by
      // identity, also once it is gone (and never through a newer process that reused its pid).
      round = [];
      for (const t of targets.values()) {
        for (const d of this.lineage.descendants([t, ...latest.filter((p) => p.pid !== t.pid)], t.pid)) {
          if (!targets.has(d.pid) && d.pid !== process.pid && d.startTime !== '') {
            targets.set(d.pid, d);
            round.push(d);
          }
        }
      }
    }
    const alive = new Set(latest.filter((p) => targets.get(p.pid)?.startTime === p.startTime).map((p) => p.pid));
    const killed = [...targets.keys()].filter((p) => !alive.has(p)).sort((a, b) => a - b);
    const failed = [...alive].sort((a, b) => a - b);
    if (failed.length > 0) {
      const denied = failed.filter((p) => failedToKill.has(p));
      this.logger.warn(`killTree ${id.pid}: still alive: ${failed.join(', ')}${denied.length ? ` (Stop-Process failed for ${denied.join(', ')})` : ''}`);
    }
    return { killed, failed, targets: [...targets.values()] };
  }

  async listeningPorts(pids: number[]): Promise<Map<number, number[]>> {
    const wanted = new Set(pids);
    const all = parseListenRows(parseJsonRows(await this.session.run(LISTEN_PORTS_SCRIPT)));
    return new Map([...all].filter(([pid]) => wanted.has(pid)));
  }

  async portHolders(port: number): Promise<number[]> {
    const all = parseListenRows(parseJsonRows(await this.session.run(LISTEN_PORTS_SCRIPT)));
    return [...all].filter(([, ports]) => ports.includes(port)).map(([pid]) => pid);
  }

  async probeShell(shellPid: number): Promise<ShellActivity> {
    if (!isActionablePid(shellPid)) {
      return UNKNOWN_ACTIVITY;
    }
    let rows: ProcessInfo[];
    try {
      rows = await this.query(`${pidFilter([shellPid])} OR ${pidFilter([shellPid], 'ParentProcessId')}`);
    } catch (error) {
      this.logger.debug('probeShell failed', error);
      return UNKNOWN_ACTIVITY;
    }
    return windowsShellActivity(rows, shellPid);
  }

  dispose(): void {
    this.cache = undefined;
    this.session.dispose();
  }

  private async query(filter: string): Promise<ProcessInfo[]> {
    return parseWin32Processes(parseJsonRows(await this.session.run(queryProcessesScript(filter))));
  }

  /** A fresh snapshot, shared by concurrent callers. */
  private fresh(): Promise<ProcessInfo[]> {
    if (!this.inFlight) {
      this.inFlight = this.session
        .run(LIST_PROCESSES_SCRIPT, 30_000)
        .then((text) => {
          const table = parseWin32Processes(parseJsonRows(text));
          this.lineage.remember(table);
          this.cache = { at: Date.now(), table };
          return table;
        })
        .finally(() => {
          this.inFlight = undefined;
        });
    }
    return this.inFlight;
  }
}

/**
 * The shell and its direct children (one CIM query that answered) -> activity. A query that
 * answered without the shell's row says the shell is gone. Pure, for tests.
 */
export function windowsShellActivity(rows: readonly ProcessInfo[], shellPid: number): ShellActivity {
  const shell = rows.find((p) => p.pid === shellPid);
  if (!shell) {
    return GONE_ACTIVITY;
  }
  const shellStart = Date.parse(shell.startedAt);
  const jobs = rows.filter(
    (p) =>
      p.ppid === shellPid &&
      p.pid !== shellPid &&
      !isConsoleHost(p.name) &&
      !(Date.parse(p.startedAt) < shellStart), // an older process pointing at a reused pid is not a child
  );
  if (jobs.length === 0) {
    return { foreground: 'shell', readingTerminal: 'unknown', foregroundPids: [shellPid] };
  }
  return {
    foreground: 'job',
    readingTerminal: 'unknown',
    foregroundPids: jobs.map((p) => p.pid),
    foregroundCommand: jobs[0]!.commandLine,
  };
}
