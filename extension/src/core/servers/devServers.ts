/**
 * Dev servers under managed terminals: which runs are servers, the duplicate rule (the same
 * normalised command in the same directory is never started twice), restarting one (its tree
 * killed through the ledger, identity-checked), readiness of a new one, who holds a port a start
 * failed on, and the list workspace/info, the reminder and the views show. Free of vscode.
 *
 * A run counts as a server while it is active and was started in background or ready mode, its
 * process tree listens on a port, or it turned into a watcher (a test runner or build in watch
 * mode that completed a cycle). Facts come from the ledger (processes, ports) and the OS
 * (a fast look at the run's tree while readiness waits); URLs from the run's output.
 */
import type { Logger } from '../../../../common/src/logger';
import type { DevServer, PortConflict, PortHolder, ReadyInfo, TrackedProcess } from '../../../../common/src/protocol';
import { samePath } from '../fsUtil';
import type { ProcessLedger } from '../ledger/api';
import { flattenProcesses as flatten } from '../ledger/processForest';
import type { ProcessMonitor } from '../processes/types';
import type { CommandRun } from '../run/commandRun';
import type { TerminalSessionView } from '../terminals/terminalSession';
import { findClientServer, type ClientServer } from './clientServers';
import { commandKey } from './commandKey';
import { probePort, probeUrl, type ProbeResult, type ProbeTimeouts } from './probe';
import { waitUntilReady, type ReadyOutcome } from './readiness';
import { findLocalUrls, findPortInUse } from './serverOutput';
import { planServer, type RunningServer, type ServerAsk, type ServerPlan } from './serverPlan';

export interface DevServerDependencies {
  readonly ledger: Pick<ProcessLedger, 'list' | 'kill' | 'refresh'>;
  readonly monitor: Pick<ProcessMonitor, 'descendants' | 'listeningPorts' | 'portHolders' | 'listAll' | 'socketInodes' | 'workingDirectory'>;
  readonly logger: Logger;
  /** Wall clock (ms since the epoch). Default Date.now. */
  readonly now?: () => number;
  /** Probes; the real loopback ones by default. */
  readonly probes?: { readonly probeUrl: (url: string, t?: ProbeTimeouts) => Promise<ProbeResult>; readonly probePort: (port: number, t?: ProbeTimeouts) => Promise<ProbeResult> };
}

/** What one terminal_run asks of dev-server support (a window without it has noDevServers). */
export type CallServers = Pick<DevServers, 'plan' | 'describe' | 'clientServer' | 'stop' | 'awaitsReady' | 'waitReady' | 'portConflict'>;

/** Processes may carry a start time up to a second off the wall clock (Linux boot time is in whole seconds). */
const START_SLACK_MS = 2000;
const STOP_WAIT_MS = 5000;
const TAIL_LINES = 20;
/** A tree whose sockets did not change still gets its TCP tables read this often (a socket may start listening late). */
const TABLE_REFRESH_MS = 500;
const HEALTH_TIMEOUTS: ProbeTimeouts = { connectMs: 300, answerMs: 1000 };

export class DevServers {
  /** What showed a run ready (its launch facts travel with the run itself). */
  private readonly readyInfo = new WeakMap<CommandRun, ReadyInfo>();
  private readonly now: () => number;
  private readonly probes: NonNullable<DevServerDependencies['probes']>;

  constructor(private readonly deps: DevServerDependencies) {
    this.now = deps.now ?? Date.now;
    this.probes = deps.probes ?? { probeUrl, probePort };
  }

  /** The plan hook: never twice, and what a restart stops (serverPlan.ts). */
  plan(ask: ServerAsk, sessions: readonly TerminalSessionView[]): ServerPlan {
    return planServer(ask, sessions, (command, cwd, open) => this.findRunning(command, cwd, open));
  }

  /** A run started in ready mode that is not ready yet: a wait on it waits for readiness. */
  awaitsReady(run: CommandRun): boolean {
    return run.active && run.launch.waitMode === 'ready' && !this.readyInfo.has(run);
  }

  /** The active run or typed command in a managed terminal with the same normalised command and directory. */
  findRunning(command: string, cwd: string | undefined, sessions: readonly TerminalSessionView[]): RunningServer | undefined {
    const key = commandKey(command);
    for (const session of sessions) {
      if (session.closed) continue;
      const run = session.currentRun;
      if (run?.active) {
        const runCwd = run.launch.cwd ?? session.terminal.cwd;
        if (commandKey(run.command) === key && samePath(runCwd, cwd)) return { session, command: run.command, cwd: runCwd, run };
      }
      for (const typed of session.foreignExecutions) {
        if (commandKey(typed.commandLine) === key && samePath(session.terminal.cwd, cwd)) {
          return { session, command: typed.commandLine, cwd: session.terminal.cwd, run: undefined };
        }
      }
    }
    return undefined;
  }

  /** The server as the already_running result shows it, with the tail of its output. */
  async describe(server: RunningServer): Promise<{ server: DevServer; tail: string }> {
    await this.deps.ledger.refresh().catch((error: unknown) => this.deps.logger.debug('servers: ledger refresh failed', error));
    const output = server.run ? (await server.run.outputSnapshot()).output : '';
    return { server: this.toDevServer(server, output), tail: output.split('\n').slice(-TAIL_LINES).join('\n') };
  }

  /**
   * The same server started by an MCP client's own tools, outside managed terminals
   * (clientServers.ts), from the ledger: after a refresh when `fresh` (a server start may come
   * seconds after the client's, before the idle poll saw it); from memory otherwise.
   */
  async clientServer(command: string, cwd: string | undefined, fresh: boolean): Promise<ClientServer | undefined> {
    if (fresh) await this.deps.ledger.refresh().catch((error: unknown) => this.deps.logger.debug('servers: ledger refresh failed', error));
    const cwdOf = this.deps.monitor.workingDirectory?.bind(this.deps.monitor);
    return findClientServer(command, cwd, this.deps.ledger.list().active, cwdOf, (startedAt) => this.uptime(startedAt));
  }

  /**
   * Stops a server for a restart: its processes killed through the ledger (identity-checked;
   * the shell itself is never touched), then a bounded wait for its run to end, with Ctrl+C to
   * the terminal as the last resort. Resolves true when it ended.
   */
  async stop(server: RunningServer): Promise<boolean> {
    await this.deps.ledger.refresh().catch(() => undefined);
    for (const root of this.rootsOf(server)) {
      try {
        const result = await this.deps.ledger.kill(root.pid);
        this.deps.logger.info(`servers: restart of \`${server.command}\` in terminal "${server.session.name}": killed [${result.killed.join(', ')}]`);
      } catch (error) {
        this.deps.logger.debug(`servers: killing ${root.pid} for a restart failed`, error);
      }
    }
    if (await this.ended(server, STOP_WAIT_MS)) return true;
    server.session.interrupt();
    return this.ended(server, STOP_WAIT_MS);
  }

  /** waitMode "ready" for a run just started: probes its own tree's ports, fast, until ready or a bound. */
  waitReady(run: CommandRun, options: { readonly timeoutMs: number; readonly signal?: AbortSignal; readonly readyPattern?: RegExp }): Promise<ReadyOutcome> {
    const treePorts = new TreePorts(this.deps.monitor, run.shellPid, this.startedAtWall(run));
    return waitUntilReady(
      run,
      {
        treePorts: () => treePorts.look(),
        probeUrl: (url) => this.probes.probeUrl(url),
        probePort: (port) => this.probes.probePort(port),
        now: () => performance.now(),
      },
      options,
    ).then((outcome) => {
      if (outcome.kind === 'ready') this.readyInfo.set(run, outcome.info);
      return outcome;
    });
  }

  /** When `output` says a port was taken: the port and who holds it (this window's terminal, a client's own tools, an orphan of either, or foreign). */
  async portConflict(output: string, command: string): Promise<PortConflict | undefined> {
    const found = findPortInUse(output, command);
    if (found?.port === undefined) return undefined;
    let pids: number[] = [];
    try {
      pids = await this.deps.monitor.portHolders(found.port);
    } catch (error) {
      this.deps.logger.debug(`servers: who holds port ${found.port} is unknown`, error);
    }
    if (pids.length === 0) return { port: found.port, holders: [] };
    const table = new Map((await this.deps.monitor.listAll().catch(() => [])).map((p) => [p.pid, p]));
    const listed = this.deps.ledger.list();
    const active = flatten(listed.active);
    const orphans = flatten(listed.orphaned);
    const holders = pids.map((pid): PortHolder => {
      const info = table.get(pid);
      const mine = active.find((p) => p.pid === pid);
      const orphan = orphans.find((p) => p.pid === pid);
      const base = { pid, name: info?.name ?? mine?.name ?? orphan?.name ?? '', commandLine: info?.commandLine ?? mine?.commandLine ?? orphan?.commandLine ?? '' };
      const known = mine ?? orphan;
      if (!known) return { ...base, owner: 'foreign' };
      // A client's own tools' processes are listed under a label ("claude (own tools)"), no terminal's name.
      const whose = {
        ...(known.clientTools ? { clientTools: known.clientTools } : { terminal: known.terminalName }),
        ...(known.agentSession ? { agentSession: known.agentSession } : {}),
      };
      return { ...base, owner: mine ? (mine.clientTools ? 'client' : 'ledger') : 'orphan', ...whose };
    });
    return { port: found.port, holders };
  }

  /** Servers running now, from memory (no I/O): runs under managed terminals, background jobs and orphans with ports. */
  list(sessions: readonly TerminalSessionView[]): DevServer[] {
    const listed = this.deps.ledger.list();
    const servers: DevServer[] = [];
    const covered = new Set<number>();
    for (const session of sessions) {
      const run = session.currentRun;
      if (session.closed || !run?.active) continue;
      const running: RunningServer = { session, command: run.command, cwd: run.launch.cwd ?? session.terminal.cwd, run };
      const roots = this.rootsOf(running, listed.active);
      const hasPorts = flatten(roots).some((p) => p.ports.length > 0);
      if (!hasPorts && run.launch.waitMode === 'completion' && run.cycles === 0) continue;
      flatten(roots).forEach((p) => covered.add(p.pid));
      servers.push(this.toDevServer(running, '', roots));
    }
    const loose = (status: DevServer['status'], processes: readonly TrackedProcess[]): void => {
      for (const p of processes) {
        const tree = flatten([p]);
        const ports = portsOf(tree);
        if (ports.length === 0 || tree.some((t) => covered.has(t.pid))) continue;
        servers.push({
          ...(status === 'running' ? { terminal: p.terminalName } : {}),
          command: p.commandLine,
          pid: p.pid,
          ports,
          urls: ports.map(localUrl),
          startedAt: p.startedAt,
          uptimeMs: this.uptime(p.startedAt),
          status,
        });
      }
    };
    loose('running', listed.active);
    loose('orphaned', listed.orphaned);
    return servers;
  }

  /** list() with each server's health probed now (bounded, in parallel): for workspace/info. */
  async listWithHealth(sessions: readonly TerminalSessionView[]): Promise<DevServer[]> {
    await this.deps.ledger.refresh().catch(() => undefined);
    return Promise.all(
      this.list(sessions).map(async (server) => {
        if (server.ports.length === 0) return server;
        const url = server.urls[0];
        const result = url !== undefined ? await this.probes.probeUrl(url, HEALTH_TIMEOUTS) : await this.probes.probePort(server.ports[0]!, HEALTH_TIMEOUTS);
        const healthy = result.kind === 'http' ? result.accepted : result.kind === 'tcp';
        return { ...server, healthy };
      }),
    );
  }

  // -------------------------------------------------------------------------------------------

  private toDevServer(server: RunningServer, output: string, roots = this.rootsOf(server)): DevServer {
    const ports = portsOf(flatten(roots));
    const printed = findLocalUrls(output).filter((u) => ports.includes(u.port)).map((u) => u.url);
    const ready = server.run && this.readyInfo.get(server.run);
    const fromReady = ready?.urls.filter((u) => ports.length === 0 || ports.some((p) => u.includes(`:${p}`))) ?? [];
    const urls = [...new Set([...fromReady, ...printed])];
    const startedAt = server.run ? new Date(this.startedAtWall(server.run)).toISOString() : (roots[0]?.startedAt ?? new Date(this.now()).toISOString());
    return {
      terminal: server.session.name,
      command: server.command,
      ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
      ...(roots[0] ? { pid: roots[0].pid } : {}),
      ports,
      urls: urls.length > 0 ? urls : ports.map(localUrl),
      startedAt,
      uptimeMs: this.uptime(startedAt),
      status: 'running',
    };
  }

  /** The top processes of a server's command: this terminal's tracked roots that started with the run. */
  private rootsOf(server: RunningServer, active = this.deps.ledger.list().active): TrackedProcess[] {
    const inTerminal = active.filter((p) => p.terminalName === server.session.name);
    if (!server.run) return inTerminal;
    const startedAtWall = this.startedAtWall(server.run);
    return inTerminal.filter((p) => Date.parse(p.startedAt) >= startedAtWall - START_SLACK_MS);
  }

  /** When an active run started, on this wall clock (processes older than this are not its own). */
  private startedAtWall(run: CommandRun): number {
    return this.now() - run.durationMs;
  }

  private async ended(server: RunningServer, timeoutMs: number): Promise<boolean> {
    if (server.run) {
      await server.run.wait({ timeoutMs, stopAtInput: false });
      return !server.run.active;
    }
    const deadline = this.now() + timeoutMs;
    while (server.session.foreignExecutions.size > 0 && this.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return server.session.foreignExecutions.size === 0;
  }

  private uptime(startedAt: string): number {
    const started = Date.parse(startedAt);
    return Number.isFinite(started) ? Math.max(0, Math.round(this.now() - started)) : 0;
  }
}

/**
 * The ports a run's tree listens on, looked at every few dozen ms while readiness waits. Reading
 * the kernel's TCP tables costs milliseconds on a big machine (Linux generates /proc/net/tcp by
 * walking every connection), so where the OS can list a tree's sockets cheaply the tables are
 * read only when that set changed, and at most every TABLE_REFRESH_MS otherwise.
 */
export class TreePorts {
  private lastSockets: string | undefined;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private lastPorts: number[] = [];

  constructor(
    private readonly monitor: DevServerDependencies['monitor'],
    private readonly shellPid: number | undefined,
    private readonly startedAtWall: number,
  ) {}

  async look(): Promise<number[]> {
    if (this.shellPid === undefined) return [];
    const own = (await this.monitor.descendants(this.shellPid)).filter((p) => Date.parse(p.startedAt) >= this.startedAtWall - START_SLACK_MS);
    if (own.length === 0) return [];
    const pids = own.map((p) => p.pid);
    const sockets = this.monitor.socketInodes ? (await this.monitor.socketInodes(pids)).join(',') : undefined;
    if (sockets === '') return []; // no socket at all: nothing can listen
    const now = performance.now();
    if (sockets !== undefined && sockets === this.lastSockets && now - this.lastReadAt < TABLE_REFRESH_MS) return this.lastPorts;
    const ports = await this.monitor.listeningPorts(pids);
    this.lastSockets = sockets;
    this.lastReadAt = now;
    this.lastPorts = [...new Set([...ports.values()].flat())].sort((a, b) => a - b);
    return this.lastPorts;
  }
}

function portsOf(processes: readonly TrackedProcess[]): number[] {
  return [...new Set(processes.flatMap((p) => p.ports))].sort((a, b) => a - b);
}

function localUrl(port: number): string {
  return `http://localhost:${port}/`;
}
