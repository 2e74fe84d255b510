/**
 * The OS layer's vocabulary: what a process is, how it is identified across pid reuse, what a
 * shell's terminal is doing, and the one interface every platform implements. Plain data only,
 * so the run logic above can be tested with fakes and the ledger can persist identities as JSON.
 */
import type { KillResult } from '../../../../common/src/protocol';

export interface ProcessInfo {
  readonly pid: number;
  /** Parent pid as the OS reports it. On Windows it may name a dead parent whose pid was reused. */
  readonly ppid: number;
  /** Process group (Unix only). */
  readonly pgid?: number;
  /** Short executable name: Linux comm (15 chars), macOS p_comm (16 chars), Windows Name (node.exe). */
  readonly name: string;
  /** Arguments joined with spaces; `[name]` when the OS has none (kernel threads). */
  readonly commandLine: string;
  /**
   * Exact, opaque identity key, compared by string equality only:
   * Linux `<start ticks since boot>@<boot id>` (or `@btime:<epoch s>` without a boot id),
   * macOS the process's lstart in UTC, Windows CreationDate as ISO 8601 UTC with 100 ns digits.
   */
  readonly startTime: string;
  /** When the process started, ISO 8601 (UTC), for display and ordering. */
  readonly startedAt: string;
}

/**
 * Who a process is, not just its number: a pid whose start time differs is another process.
 * `commandLine` is carried for messages and ledgers but is not compared: exec, `process.title`
 * and setproctitle legitimately change it while the process stays the same, and every platform's
 * start time is already exact enough that a pid cannot be reused within one tick of it.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
  readonly commandLine?: string;
}

export interface ShellActivity {
  /**
   * `shell`: the shell owns the terminal (idle at its prompt or running a builtin); `job`: a
   * command does; `gone`: the OS answered and the shell process no longer exists (exited, killed,
   * or a zombie): nothing will own that terminal again; `unknown`: the OS could not tell.
   */
  readonly foreground: 'shell' | 'job' | 'gone' | 'unknown';
  /** Whether the foreground is blocked reading the terminal (an interactive prompt). */
  readonly readingTerminal: boolean | 'unknown';
  /** The processes of the terminal's foreground group (the shell itself when foreground is `shell`). */
  readonly foregroundPids?: number[];
  /** Command line of the foreground job's leader, when foreground is `job` and it could be read. */
  readonly foregroundCommand?: string;
}

/**
 * The protocol's answer to a kill, as one tree kill gives it: `killed` are the processes of the
 * tree verifiably gone afterwards, `failed` those still alive (same identity) at the end (not
 * permitted, or unkillable: D state).
 */
export interface TreeKillResult extends KillResult {
  /**
   * Every process the kill aimed at, as seen before it was signalled: `killed` and `failed` are
   * their pids. With their identities a caller can log exactly who died, also a child born since
   * it last looked or a process that reused a pid it knew.
   */
  readonly targets: readonly ProcessInfo[];
}

export const NOTHING_KILLED: TreeKillResult = Object.freeze({ killed: [], failed: [], targets: [] });

export interface KillOptions {
  /** How long processes get to exit after SIGTERM before SIGKILL (Unix). Default 1500 ms. */
  readonly graceMs?: number;
}

/**
 * Queries reject when the OS cannot be asked at all (no procfs, ps or PowerShell failing): an
 * empty answer always means "none", never "could not look". probeShell never rejects: it answers
 * 'unknown' instead, since it is polled; it answers 'gone' only when the OS said so.
 */
export interface ProcessMonitor {
  /** One snapshot of the machine's processes (zombies excluded). */
  listAll(): Promise<ProcessInfo[]>;
  /** Every descendant of `rootPid`, any depth, root excluded; from `table` when given. */
  descendants(rootPid: number, table?: readonly ProcessInfo[]): Promise<ProcessInfo[]>;
  /** True only if a live process has the same pid AND the same start time. */
  isAlive(id: ProcessIdentity): Promise<boolean>;
  /**
   * Ends the process and its whole tree. Does nothing when the root's identity changed, and never
   * signals a pid whose identity changed since it was seen.
   */
  killTree(id: ProcessIdentity, opts?: KillOptions): Promise<TreeKillResult>;
  /** TCP ports in LISTEN state per pid; pids without any are absent from the map. */
  listeningPorts(pids: number[]): Promise<Map<number, number[]>>;
  /**
   * Pids of every process this user may see that listens on the TCP port (any address): who
   * holds a port a server failed to bind. Costs a scan of all processes' sockets; not for polling.
   */
  portHolders(port: number): Promise<number[]>;
  /**
   * Optional, cheap: the socket inodes these processes hold (Linux). A caller that polls ports
   * fast can skip the costly TCP tables while the set is unchanged: a listening port needs a socket.
   */
  socketInodes?(pids: number[]): Promise<string[]>;
  /** What the terminal of this shell is doing right now. Cheap: called every few hundred ms. */
  probeShell(shellPid: number): Promise<ShellActivity>;
  /**
   * Optional (Linux, macOS): the user's own processes whose environment carries any of the
   * variables `names`, with their values. Reads every process's environment: for startup, never
   * for polling.
   */
  markedProcesses?(names: readonly string[]): Promise<MarkedProcess[]>;
  /**
   * Optional (Windows, where another process's environment cannot be read cheaply): the live
   * processes that descend from these shells of gone windows (shellLineage.ts), each with its
   * shell's marks. For startup, never for polling.
   */
  shellDescendants?(shells: readonly LoggedShell[]): Promise<MarkedProcess[]>;
  /** Optional (Linux): the process's working directory; undefined when gone or hidden. Cheap: one readlink. */
  workingDirectory?(pid: number): Promise<string | undefined>;
  /** Optional (Linux): CPU time, memory and state of these processes; gone or reused pids are absent. */
  usage?(ids: readonly ProcessIdentity[]): Promise<ProcessUsage[]>;
  dispose(): void;
}

/** A process found by the mark in its environment. */
export interface MarkedProcess {
  readonly info: ProcessInfo;
  /** The marks' values, by variable name (only those present). */
  readonly marks: Readonly<Record<string, string>>;
  /**
   * A session leader that owns a controlling terminal: a terminal's shell itself (the pty made
   * it so), not something the shell started (a `setsid` child has no terminal).
   */
  readonly terminalShell: boolean;
}

/** A terminal shell a gone window logged: its identity, and the marks its processes would carry. */
export interface LoggedShell {
  readonly pid: number;
  /** Its identity start time as the monitor gives it (Windows: the CIM CreationDate key, ordered as text). */
  readonly startTime: string;
  /** The session and terminal it belonged to, by mark name (ledger/processMarks.ts). */
  readonly marks: Readonly<Record<string, string>>;
}

/** What a process costs right now. */
export interface ProcessUsage {
  readonly pid: number;
  readonly startTime: string;
  /** User plus system CPU time since it started, in seconds. */
  readonly cpuSeconds: number;
  readonly rssBytes: number;
  /** Stopped (`T`: e.g. a background job that tried to read its terminal) or blocked reading its terminal. */
  readonly waitingForTerminal: boolean;
}

export const DEFAULT_KILL_GRACE_MS = 1500;

export const UNKNOWN_ACTIVITY: ShellActivity = Object.freeze({ foreground: 'unknown', readingTerminal: 'unknown' });

/** The shell process is gone: nothing runs in its terminal, and nothing will. */
export const GONE_ACTIVITY: ShellActivity = Object.freeze({ foreground: 'gone', readingTerminal: false });

export function toIdentity(info: ProcessInfo): ProcessIdentity {
  return { pid: info.pid, startTime: info.startTime, commandLine: info.commandLine };
}

/** A usable pid to act on: a positive integer, never init (1) or the scheduler (0). */
export function isActionablePid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 1;
}
