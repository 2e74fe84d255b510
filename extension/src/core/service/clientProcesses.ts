/**
 * The processes an MCP client's own tools start (Claude Code's Bash, Codex's shell, ...), outside
 * managed terminals: the MCP server names its client (client/attach, on every connection), and
 * while that connection lasts the ledger records the client's descendants as the client's. Never
 * recorded: the client itself, this MCP server and its launchers, the client's other MCP servers
 * (a child whose command line names MCP, or one started before this server) and their trees.
 * A double-forked child that left the tree at once is still the client's when the client leads its
 * process group (a CLI started from a shell does) and the child kept that group.
 *
 * The client a connection proved (its pid, and the server's path up to it) is also the owner of the
 * connection's calls when they name no session (ownerSession): runs and their processes then still
 * say whose they are, whether or not its own tools are recorded.
 */
import { CLIENT_PROCESS, type AgentSession, type ClientAttachParams, type ClientAttachResult, type TrackedProcess } from '../../../../common/src/protocol';
import type { Logger } from '../../../../common/src/logger';
import type { Disposable } from '../events';
import type { ProcessLedger } from '../ledger';
import type { ProcessInfo, ProcessMonitor } from '../processes/types';

export interface ClientProcessesDeps {
  readonly ledger: Pick<ProcessLedger, 'watchClient'>;
  readonly monitor: Pick<ProcessMonitor, 'listAll'>;
  /** terminalShepherd.processes.trackClientProcesses, read at every attach. */
  readonly enabled: () => boolean;
  readonly logger: Logger;
  /** This window's extension host: a client that is it (or another editor process) is never watched. */
  readonly ownPid: number;
}

/** An MCP server: its command line names MCP (`@playwright/mcp`, `mcp-server-git`, `github-mcp-server`). */
const MCP_SERVER = /mcp/i;

/**
 * An editor's process: its tree holds every extension's processes (language servers, watchers), not
 * an agent's. VS Code's agent runs its commands in terminals, which are not under it.
 */
const EDITOR_PROCESS = /--type=\w|extensionHostProcess|bootstrap-fork|[\\/](code|code-insiders|code-server|cursor|windsurf|electron)(\.exe)?(\s|$)/i;

export class ClientProcesses {
  /** The watch per bridge connection (one MCP server each). */
  private readonly watches = new Map<string, { readonly pid: number; readonly watch: Disposable }>();
  /** The client process of each bridge connection whose attach proved it. */
  private readonly callers = new Map<string, number>();

  constructor(private readonly deps: ClientProcessesDeps) {}

  async attach(params: ClientAttachParams, connection: string): Promise<ClientAttachResult> {
    this.detach(connection);
    const table = await this.deps.monitor.listAll();
    const client = table.find((p) => p.pid === params.pid);
    const server = client && serverOf(table, client, params.serverPath);
    if (client && server) this.callers.set(connection, client.pid);
    if (!this.deps.enabled()) return { watching: false, reason: 'terminalShepherd.processes.trackClientProcesses is off' };
    if (!client) return { watching: false, reason: `the client process ${params.pid} is gone` };
    if (client.pid === this.deps.ownPid || EDITOR_PROCESS.test(client.commandLine)) {
      return { watching: false, reason: `the client process ${client.pid} is an editor's (${client.name}): its tree holds every extension's processes` };
    }
    if (!server) return { watching: false, reason: `pid ${params.serverPath[0]} is not a child of the client process ${client.pid} through its launchers` };
    const agentSession: AgentSession | undefined = params.session ? { client: params.client, ...params.session } : undefined;
    const label = `${params.client || client.name} (own tools)`;
    const watch = this.deps.ledger.watchClient({
      identity: { pid: client.pid, startTime: client.startTime, commandLine: client.commandLine },
      label,
      clientTools: { client: params.client, pid: client.pid, command: client.name },
      ...(agentSession ? { agentSession } : {}),
      select: (snapshot) => clientToolProcesses(snapshot, client, server, this.otherClients(client.pid)),
    });
    this.watches.set(connection, { pid: client.pid, watch });
    this.deps.logger.info(`client processes: recording what ${label} starts (client pid ${client.pid})`);
    return { watching: true };
  }

  /** The connection closed: what the client's tools left running becomes orphans. */
  detach(connection: string): void {
    this.watches.get(connection)?.watch.dispose();
    this.watches.delete(connection);
    this.callers.delete(connection);
  }

  /**
   * The owner recorded for a call on `connection` that names no agent session: its client process
   * (as attach proved it), named `clientName`; undefined when the connection proved none.
   */
  ownerSession(connection: string, clientName: string | undefined): AgentSession | undefined {
    const pid = this.callers.get(connection);
    return pid === undefined ? undefined : { client: (clientName ?? '').slice(0, 200), id: String(pid), from: CLIENT_PROCESS };
  }

  /** A client started by another (Codex run from Claude Code's Bash tool) has its own tree. */
  private otherClients(pid: number): Set<number> {
    return new Set([...this.watches.values()].map((w) => w.pid).filter((p) => p !== pid));
  }

  dispose(): void {
    for (const connection of [...this.watches.keys()]) this.detach(connection);
  }
}

/**
 * The client's child this MCP server runs under (the server itself or its outermost launcher), when
 * the path the server sent leads, parent by parent, to the client; undefined otherwise.
 */
export function serverOf(table: readonly ProcessInfo[], client: ProcessInfo, serverPath: readonly number[]): ProcessInfo | undefined {
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const path = serverPath.map((pid) => byPid.get(pid));
  if (path.some((p) => p === undefined)) return undefined;
  const steps = path as ProcessInfo[];
  const linked = steps.every((p, i) => p.ppid === (i + 1 < steps.length ? steps[i + 1]!.pid : client.pid));
  return linked ? steps[steps.length - 1] : undefined;
}

/**
 * The processes the client's own tools started, in one snapshot: its descendants and the members of
 * the process group it leads, minus itself, `server` (this MCP server's branch), its other MCP
 * servers and whatever it started before `server` (MCP servers start with the client), with their
 * trees; another watched client (`others`) and its tree are that client's.
 */
export function clientToolProcesses(table: readonly ProcessInfo[], client: ProcessInfo, server: ProcessInfo, others: ReadonlySet<number> = new Set()): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const excluded = (child: ProcessInfo): boolean => child.pid === server.pid || MCP_SERVER.test(child.commandLine) || child.startedAt <= server.startedAt;
  const kept = new Map<number, ProcessInfo>();
  const skipped = new Set<number>([client.pid]);
  const walk = (p: ProcessInfo, keep: boolean): void => {
    const mine = keep && !others.has(p.pid);
    if (mine) kept.set(p.pid, p);
    else skipped.add(p.pid);
    for (const child of children.get(p.pid) ?? []) walk(child, mine);
  };
  for (const child of children.get(client.pid) ?? []) walk(child, !excluded(child));
  if (client.pgid === client.pid) {
    // Left the tree (a double fork) but kept the group, so the client's: its pgid is the client's pid.
    for (const p of table) {
      if (p.pgid === client.pid && !kept.has(p.pid) && !skipped.has(p.pid) && !MCP_SERVER.test(p.commandLine) && p.startedAt > server.startedAt) kept.set(p.pid, p);
    }
  }
  return [...kept.values()];
}

/**
 * The orphans a starting window announces (and its orphan policy may kill): not those of a client
 * that still runs, whose MCP server attaches again within seconds and claims them back.
 */
export function orphansToAnnounce(orphans: readonly TrackedProcess[], running: (pid: number) => boolean = pidRunning): TrackedProcess[] {
  return orphans.filter((p) => !p.clientTools || !running(p.clientTools.pid));
}

function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
