/**
 * macOS: one `ps` call per snapshot (no /proc), `lsof` for listening ports. ps runs in the C
 * locale and UTC so lstart, the identity key, reads the same whatever the user's settings.
 * Killing shares the Unix algorithm with Linux (unixKill.ts).
 */
import { existsSync } from 'node:fs';
import type { Logger } from '../../../../common/src/logger';
import { silentLogger } from '../../../../common/src/logger';
import { DARWIN_MARK_COLUMNS, parseDarwinMarkedPs } from './darwinMarks';
import { DARWIN_PS_COLUMNS, darwinForeground, darwinPsEnv, parseDarwinPs, parseLsofListen } from './darwinParsers';
import { descendantsFromTable } from './processTree';
import { runCommand } from './runCommand';
import {
  GONE_ACTIVITY,
  UNKNOWN_ACTIVITY,
  isActionablePid,
  type KillOptions,
  type MarkedProcess,
  type ProcessIdentity,
  type ProcessInfo,
  type ProcessMonitor,
  type ShellActivity,
  type TreeKillResult,
} from './types';
import { killTreeUnix, sendSignal, sleep } from './unixKill';

/** Absolute paths first: a workspace must not be able to shadow the tools through PATH. */
const PS = existsSync('/bin/ps') ? '/bin/ps' : 'ps';
const LSOF = existsSync('/usr/sbin/lsof') ? '/usr/sbin/lsof' : 'lsof';

export class DarwinProcessMonitor implements ProcessMonitor {
  private readonly logger: Logger;
  private readonly run: typeof runCommand;
  private readonly env = darwinPsEnv();
  private ownPgid: number | undefined | null = null;

  /** `run` runs ps and lsof; tests hand it recorded macOS output where no Mac is at hand. */
  constructor(options: { logger?: Logger; run?: typeof runCommand } = {}) {
    this.logger = options.logger ?? silentLogger;
    this.run = options.run ?? runCommand;
  }

  async listAll(): Promise<ProcessInfo[]> {
    const out = await this.run(PS, ['-axww', '-o', DARWIN_PS_COLUMNS], { env: this.env });
    if (out.error || out.code !== 0) {
      // Never answer "no processes" for "could not look": a ledger would mark everything dead.
      throw new Error(`ps failed (${out.error?.message ?? `exit ${out.code}`}): ${out.stderr.trim()}`);
    }
    return parseDarwinPs(out.stdout);
  }

  async descendants(rootPid: number, table?: readonly ProcessInfo[]): Promise<ProcessInfo[]> {
    return descendantsFromTable(table ?? (await this.listAll()), rootPid);
  }

  async isAlive(id: ProcessIdentity): Promise<boolean> {
    return (await this.lookup([id.pid])).get(id.pid)?.startTime === id.startTime;
  }

  async killTree(id: ProcessIdentity, opts?: KillOptions): Promise<TreeKillResult> {
    return killTreeUnix(id, opts, {
      snapshot: () => this.listAll(),
      lookup: (pids) => this.lookup(pids),
      signal: sendSignal,
      sleep,
      now: Date.now,
      ownPid: process.pid,
      ownPgid: await this.callerPgid(),
      logger: this.logger,
    });
  }

  async listeningPorts(pids: number[]): Promise<Map<number, number[]>> {
    const wanted = [...new Set(pids.filter(isActionablePid))];
    if (wanted.length === 0) {
      return new Map();
    }
    // -a: AND the pid filter with the socket filter (lsof ORs selections by default).
    const out = await this.run(LSOF, ['-nP', '-a', '-p', wanted.join(','), '-iTCP', '-sTCP:LISTEN', '-F', 'pn']);
    if (out.error) {
      throw new Error(`lsof failed: ${out.error.message}`);
    }
    return parseLsofListen(out.stdout); // exit 1 with no output is "no listening sockets"
  }

  async portHolders(port: number): Promise<number[]> {
    const out = await this.run(LSOF, ['-nP', `-iTCP:${Math.trunc(port)}`, '-sTCP:LISTEN', '-F', 'pn']);
    if (out.error) {
      throw new Error(`lsof failed: ${out.error.message}`);
    }
    return [...parseLsofListen(out.stdout)].filter(([, ports]) => ports.includes(port)).map(([pid]) => pid);
  }

  async probeShell(shellPid: number): Promise<ShellActivity> {
    if (!isActionablePid(shellPid)) {
      return UNKNOWN_ACTIVITY;
    }
    const out = await this.run(PS, ['-o', 'stat=,tpgid=,pgid=', '-p', String(shellPid)], { env: this.env, timeoutMs: 5000 });
    const foreground = darwinForeground({ code: out.code, stdout: out.stdout, failed: out.error !== undefined });
    if (foreground === 'gone') {
      return GONE_ACTIVITY;
    }
    // macOS exposes no wait channel to unprivileged readers: whether a job reads the tty is unknown.
    return { foreground, readingTerminal: 'unknown' };
  }

  /**
   * One `ps -E` over the user's own processes (darwinMarks.ts), then one plain lookup of the
   * marked ones: their command lines without the environment, and only where the identity is
   * still the scanned one (a pid reused in between is not taken).
   */
  async markedProcesses(names: readonly string[]): Promise<MarkedProcess[]> {
    const out = await this.run(PS, ['-E', '-x', '-ww', '-o', DARWIN_MARK_COLUMNS], { env: this.env, timeoutMs: 30_000 });
    if (out.error || out.code !== 0) {
      throw new Error(`ps -E failed (${out.error?.message ?? `exit ${out.code}`}): ${out.stderr.trim()}`);
    }
    const rows = parseDarwinMarkedPs(out.stdout, names);
    const fresh = await this.lookup(rows.map((r) => r.pid));
    return rows.flatMap(({ pid, startTime, marks, terminalShell }) => {
      const info = fresh.get(pid);
      return info?.startTime === startTime ? [{ info, marks, terminalShell }] : [];
    });
  }

  dispose(): void {
    // Nothing long-lived: every query is its own short ps/lsof process.
  }

  /** Fresh rows for these pids in one ps call; dead pids are simply absent. */
  private async lookup(pids: number[]): Promise<Map<number, ProcessInfo>> {
    const wanted = [...new Set(pids.filter(isActionablePid))];
    const found = new Map<number, ProcessInfo>();
    if (wanted.length === 0) {
      return found;
    }
    const out = await this.run(PS, ['-ww', '-o', DARWIN_PS_COLUMNS, '-p', wanted.join(',')], { env: this.env });
    if (out.error) {
      throw new Error(`ps -p failed: ${out.error.message}`); // exit 1 alone only means some pids are gone
    }
    for (const row of parseDarwinPs(out.stdout)) {
      found.set(row.pid, row);
    }
    return found;
  }

  /** Node has no getpgrp(): ask ps once. */
  private async callerPgid(): Promise<number | undefined> {
    if (this.ownPgid === null) {
      this.ownPgid = (await this.lookup([process.pid])).get(process.pid)?.pgid;
    }
    return this.ownPgid;
  }
}
