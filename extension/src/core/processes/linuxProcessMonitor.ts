/**
 * Linux: everything from /proc, no `ps` (a spawn costs more than reading the whole table).
 *
 * - listAll: /proc/PID/stat + /proc/PID/cmdline per process. A process's entry is reused from the
 *   previous snapshot, and its command line not re-read, while its start time, name, code and
 *   stack addresses, parent and group are unchanged (an exec moves code and stack, and
 *   `process.title`/setproctitle rename comm); that halves the cost of a snapshot.
 * - descendants: /proc/PID/task/TID/children of every thread (a child forked from a non-main
 *   thread, as in Go or Java, is listed under that thread only); without that file (kernels
 *   built without CONFIG_PROC_CHILDREN, some sandboxes) a full snapshot is walked instead.
 * - probeShell: the shell's stat gives its group and the terminal's foreground group (tpgid);
 *   wchan + syscall of the foreground processes tell whether one is blocked reading the tty
 *   (linuxTerminalReads.ts).
 * - ports and port holders: linuxSockets.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { Logger } from '../../../../common/src/logger';
import { silentLogger } from '../../../../common/src/logger';
import { isExitedState, isTerminalDevice, parseBtime, parseChildren, parseCmdline, parseProcStat, ticksToIso, type ProcStat } from './linuxProcParsers';
import { scanMarkedProcesses } from './linuxMarks';
import { LinuxSockets } from './linuxSockets';
import { LinuxTerminalReads } from './linuxTerminalReads';
import { LinuxUsage } from './linuxUsage';
import { ProcReader, YIELD_EVERY, yieldToEventLoop } from './procReader';
import { descendantsFromTable } from './processTree';
import {
  GONE_ACTIVITY,
  UNKNOWN_ACTIVITY,
  isActionablePid,
  type KillOptions,
  type MarkedProcess,
  type ProcessIdentity,
  type ProcessInfo,
  type ProcessMonitor,
  type ProcessUsage,
  type ShellActivity,
  type TreeKillResult,
} from './types';
import { killTreeUnix, sendSignal, sleep } from './unixKill';

export interface LinuxMonitorOptions {
  readonly logger?: Logger;
  /** Where procfs is mounted; tests may point it elsewhere. */
  readonly procRoot?: string;
}

interface CachedInfo {
  readonly stamp: string;
  readonly info: ProcessInfo;
}

const CACHE_LIMIT = 20_000;

export class LinuxProcessMonitor implements ProcessMonitor {
  private readonly logger: Logger;
  private readonly root: string;
  private readonly reader = new ProcReader();
  private readonly sockets: LinuxSockets;
  private readonly costs: LinuxUsage;
  private readonly terminalReads: LinuxTerminalReads;
  private readonly childrenFileSupported: boolean;
  private boot: { key: string; btime: number } | undefined;
  private infos = new Map<number, CachedInfo>();

  constructor(options: LinuxMonitorOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.root = options.procRoot ?? '/proc';
    this.sockets = new LinuxSockets(this.reader, this.root);
    this.costs = new LinuxUsage(this.root, this.reader, (ticks) => this.startKey(ticks));
    this.terminalReads = new LinuxTerminalReads(this.reader, this.root, (pid) => this.taskIds(pid));
    this.childrenFileSupported = existsSync(`${this.root}/${process.pid}/task/${process.pid}/children`);
    if (!this.childrenFileSupported) {
      this.logger.info('processes: /proc/PID/task/TID/children is not available; descendants use full snapshots');
    }
  }

  /** Whether descendants() can use the cheap per-process children lists. */
  get fastDescendants(): boolean {
    return this.childrenFileSupported;
  }

  async listAll(): Promise<ProcessInfo[]> {
    const names = readdirSync(this.root); // throws if procfs is missing: never a silent "no processes"
    const out: ProcessInfo[] = [];
    const next = new Map<number, CachedInfo>();
    let sinceYield = 0;
    for (const name of names) {
      const c = name.charCodeAt(0);
      if (c < 48 || c > 57) {
        continue; // not a pid directory
      }
      const info = this.readProcess(Number(name), false, next);
      if (info) {
        out.push(info);
      }
      if (++sinceYield === YIELD_EVERY) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
    this.infos = next; // also drops entries of processes that are gone
    return out;
  }

  async descendants(rootPid: number, table?: readonly ProcessInfo[]): Promise<ProcessInfo[]> {
    if (table) {
      return descendantsFromTable(table, rootPid);
    }
    if (!this.childrenFileSupported) {
      return descendantsFromTable(await this.listAll(), rootPid);
    }
    const out: ProcessInfo[] = [];
    for (const st of this.walkDescendants(rootPid)) {
      const info = this.toInfo(st, true);
      if (info) {
        out.push(info);
      }
    }
    return out;
  }

  async isAlive(id: ProcessIdentity): Promise<boolean> {
    if (!isActionablePid(id.pid)) {
      return false;
    }
    const st = this.readStat(id.pid);
    return st !== undefined && this.startKey(st.startTicks) === id.startTime;
  }

  async killTree(id: ProcessIdentity, opts?: KillOptions): Promise<TreeKillResult> {
    return killTreeUnix(id, opts, {
      snapshot: () => this.listAll(),
      lookup: async (pids) => {
        const found = new Map<number, ProcessInfo>();
        for (const pid of pids) {
          const info = isActionablePid(pid) ? this.readProcess(pid, false) : undefined;
          if (info) {
            found.set(pid, info);
          }
        }
        return found;
      },
      signal: sendSignal,
      sleep,
      now: Date.now,
      ownPid: process.pid,
      ownPgid: this.readStat(process.pid)?.pgrp,
      logger: this.logger,
    });
  }

  async listeningPorts(pids: number[]): Promise<Map<number, number[]>> {
    return this.sockets.listeningPorts(pids);
  }

  async socketInodes(pids: number[]): Promise<string[]> {
    return this.sockets.socketInodes(pids);
  }

  portHolders(port: number): Promise<number[]> {
    return this.sockets.portHolders(port);
  }

  markedProcesses(names: readonly string[]): Promise<MarkedProcess[]> {
    const describe = (pid: number): { stat: ProcStat; info: ProcessInfo } | undefined => {
      const stat = this.readStat(pid);
      const info = stat && this.toInfo(stat, true);
      return stat && info ? { stat, info } : undefined;
    };
    return scanMarkedProcesses({ root: this.root, reader: this.reader, describe }, names);
  }

  async usage(ids: readonly ProcessIdentity[]): Promise<ProcessUsage[]> {
    return this.costs.read(ids);
  }

  async workingDirectory(pid: number): Promise<string | undefined> {
    return isActionablePid(pid) ? this.reader.readLink(`${this.root}/${pid}/cwd`) : undefined;
  }

  async probeShell(shellPid: number): Promise<ShellActivity> {
    if (!isActionablePid(shellPid)) {
      return UNKNOWN_ACTIVITY;
    }
    const shell = this.readStat(shellPid);
    if (!shell) {
      return this.isGone(shellPid) ? GONE_ACTIVITY : UNKNOWN_ACTIVITY;
    }
    if (shell.ttyNr === 0 || shell.tpgid <= 0) {
      return UNKNOWN_ACTIVITY; // no controlling terminal to own
    }
    let foreground: 'shell' | 'job';
    let members: ProcStat[];
    if (this.childrenFileSupported) {
      const tree = this.walkDescendants(shellPid, shell.numThreads);
      if (shell.tpgid !== shell.pgrp) {
        foreground = 'job';
        members = tree.filter((p) => p.pgrp === shell.tpgid);
      } else {
        // Without job control (bash +m, pwsh) a command runs in the shell's own group. So do
        // jobs a shell started in the background before job control was on (fish generating
        // completions at its first start): those are detached from the terminal, not holding it.
        const tty = this.reader.readLink(`${this.root}/${shellPid}/fd/0`);
        members = tree.filter((p) => p.pgrp === shell.pgrp && (tty === undefined || !isTerminalDevice(tty) || this.terminalReads.usesTerminal(p.pid, tty)));
        foreground = members.length > 0 ? 'job' : 'shell';
      }
    } else {
      // No cheap walk: the foreground group's leader (pid == tpgid) stands for the job.
      const groupLeader = shell.tpgid !== shell.pgrp ? this.readStat(shell.tpgid) : undefined;
      foreground = shell.tpgid !== shell.pgrp ? 'job' : 'shell';
      members = groupLeader && groupLeader.pgrp === shell.tpgid ? [groupLeader] : [];
    }
    if (foreground === 'shell') {
      members = [shell];
    }
    const leader = members.find((p) => p.pid === shell.tpgid) ?? members[0];
    const command = foreground === 'job' && leader ? this.readCommandLine(leader) : undefined;
    return {
      foreground,
      // A shell's own line editor waits in select() at its prompt too: that is only input for a job.
      readingTerminal: members.length > 0 ? this.terminalReads.readsTerminal(members, foreground === 'job') : 'unknown',
      foregroundPids: members.map((p) => p.pid),
      ...(command !== undefined ? { foregroundCommand: command } : {}),
    };
  }

  dispose(): void {
    this.infos.clear();
  }

  // -------------------------------------------------------------------------------------------

  /**
   * The OS says the process is no more: its /proc entry is missing (procfs itself answering, as
   * our own entry shows) or it is a zombie. A stat that merely failed to read proves nothing.
   */
  private isGone(pid: number): boolean {
    const text = this.reader.read(`${this.root}/${pid}/stat`);
    if (text !== undefined) {
      const st = parseProcStat(text);
      return st !== undefined && isExitedState(st.state);
    }
    return !existsSync(`${this.root}/${pid}`) && existsSync(`${this.root}/${process.pid}`);
  }

  private readStat(pid: number): ProcStat | undefined {
    const text = this.reader.read(`${this.root}/${pid}/stat`);
    const st = text === undefined ? undefined : parseProcStat(text);
    return st && !isExitedState(st.state) ? st : undefined;
  }

  private readProcess(pid: number, fresh: boolean, cache?: Map<number, CachedInfo>): ProcessInfo | undefined {
    const st = this.readStat(pid);
    return st ? this.toInfo(st, fresh, cache) : undefined;
  }

  private readCommandLine(st: ProcStat): string | undefined {
    const raw = this.reader.read(`${this.root}/${st.pid}/cmdline`);
    return raw === undefined ? undefined : parseCmdline(raw) || `[${st.comm}]`;
  }

  /**
   * ProcessInfo for a stat record. Unless `fresh`, the previous snapshot's object is reused when
   * the process is visibly the same (start, name, code and stack addresses, parent, group): that
   * skips the command-line read and all allocation, which is most of a snapshot's cost.
   */
  private toInfo(st: ProcStat, fresh: boolean, cache?: Map<number, CachedInfo>): ProcessInfo | undefined {
    const stamp = `${st.startTicks}|${st.startCode}|${st.startStack}|${st.comm}`;
    const cached = this.infos.get(st.pid);
    let info: ProcessInfo;
    if (!fresh && cached && cached.stamp === stamp && cached.info.ppid === st.ppid && cached.info.pgid === st.pgrp) {
      info = cached.info;
    } else {
      const commandLine = this.readCommandLine(st);
      if (commandLine === undefined) {
        return undefined; // vanished between the two reads
      }
      const boot = this.bootInfo();
      info = Object.freeze({
        pid: st.pid,
        ppid: st.ppid,
        pgid: st.pgrp,
        name: st.comm,
        commandLine,
        startTime: `${st.startTicks}@${boot.key}`,
        startedAt: ticksToIso(st.startTicks, boot.btime),
      });
    }
    if (cache) {
      cache.set(st.pid, { stamp, info });
    } else {
      if (this.infos.size >= CACHE_LIMIT) {
        this.infos.clear();
      }
      this.infos.set(st.pid, { stamp, info });
    }
    return info;
  }

  private startKey(startTicks: string): string {
    return `${startTicks}@${this.bootInfo().key}`;
  }

  /** Boot id keeps identities from one boot apart from the next; btime only when it is missing. */
  private bootInfo(): { key: string; btime: number } {
    if (!this.boot) {
      const btime = parseBtime(this.reader.read(`${this.root}/stat`) ?? '') ?? fallbackBtime(this.reader, this.root);
      const bootId = this.reader.read(`${this.root}/sys/kernel/random/boot_id`)?.trim();
      this.boot = { key: bootId ? bootId : `btime:${btime}`, btime };
    }
    return this.boot;
  }

  /** Live descendants as stat records, breadth first (`rootThreads` 0: unknown). */
  private walkDescendants(rootPid: number, rootThreads = 0): ProcStat[] {
    const out: ProcStat[] = [];
    const seen = new Set<number>([rootPid]);
    const queue: Array<{ pid: number; threads: number }> = [{ pid: rootPid, threads: rootThreads }];
    for (let i = 0; i < queue.length; i++) {
      const parent = queue[i]!;
      for (const child of this.childPids(parent.pid, parent.threads)) {
        if (seen.has(child)) {
          continue;
        }
        seen.add(child);
        const st = this.readStat(child);
        if (st && st.ppid === parent.pid) {
          out.push(st);
          queue.push({ pid: child, threads: st.numThreads });
        }
      }
    }
    return out;
  }

  /** Children of every thread of `pid` (`threads` 1 skips listing the task directory). */
  private childPids(pid: number, threads: number): number[] {
    const tids = threads === 1 ? [String(pid)] : this.taskIds(pid);
    const out: number[] = [];
    for (const tid of tids) {
      const text = this.reader.read(`${this.root}/${pid}/task/${tid}/children`, true);
      if (text) {
        out.push(...parseChildren(text));
      }
    }
    return out;
  }

  /** The thread ids of `pid`; none when it exited meanwhile. */
  private taskIds(pid: number): string[] {
    try {
      return readdirSync(`${this.root}/${pid}/task`);
    } catch {
      return [];
    }
  }
}

function fallbackBtime(reader: ProcReader, root: string): number {
  const uptime = Number((reader.read(`${root}/uptime`) ?? '').split(' ')[0]);
  return Math.round(Date.now() / 1000 - (Number.isFinite(uptime) ? uptime : 0));
}

