/**
 * The ledger's files under the data dir (`<workspace>/.devtools/`) and their formats. Readers are
 * lenient per record (a bad line or entry is skipped, never fatal) and strict about identities:
 * an entry without pid + OS start time cannot be told apart from a process that reused its pid.
 * Fields added later are optional, so files written before them still load.
 */
import type { AgentSession, ClientTools, SandboxReport } from '../../../../common/src/protocol';

export const LEDGER_FILES = {
  /** Append-only JSONL of LedgerEvents. */
  log: 'process-log.jsonl',
  /** This and the other windows' live processes, rewritten atomically under the lock. */
  active: 'active-processes.json',
  /** Held (O_EXCL) around read-modify-write of the active file and log rotation. */
  lock: 'active-processes.lock',
  /** One SessionSummary per window session. */
  sessions: 'sessions',
  gitignore: '.gitignore',
} as const;

/** Rotated logs kept: process-log.1.jsonl (newer) and process-log.2.jsonl (older). */
export const LOG_GENERATIONS = 2;

export function rotatedLogName(generation: number): string {
  return `process-log.${generation}.jsonl`;
}

/** Users must never commit runtime state; the data dir may also hold tracked files (scripts). */
export const GITIGNORE_CONTENT = [
  '# Terminal Shepherd runtime files (written by the extension; do not commit)',
  LEDGER_FILES.log,
  'process-log.*.jsonl',
  LEDGER_FILES.active,
  LEDGER_FILES.lock,
  `${LEDGER_FILES.sessions}/`,
  'logs/',
  'bridge.json',
  '*.tmp',
  '',
].join('\n');

/**
 * started: a direct child of a terminal's shell appeared; spawned: a deeper descendant did;
 * completed: it exited on its own; killed: Terminal Shepherd ended it; orphaned: found alive
 * after its window was gone; closed: an entry of a gone window whose process is gone (or whose
 * pid now belongs to another process); ports: its TCP listening ports changed.
 * session_started / session_ended: a window session began (pid and startTime are its extension
 * host's: the owner other windows check) or ended cleanly; a session without its end died, and
 * the log replays what it tracked (logReconcile.ts).
 * session_shell: a managed terminal's shell as the session first saw it (its identity and
 * terminal): where another process's environment cannot be read (Windows), a starting window
 * finds what a dead session's shells started by lineage from them (orphanMarks.ts).
 */
export type LedgerEventKind = 'started' | 'spawned' | 'completed' | 'killed' | 'orphaned' | 'closed' | 'ports' | 'session_started' | 'session_ended' | 'session_shell';

export type KillReason = 'kill_request' | 'terminal_closed' | 'orphan_cleanup';
export type CloseReason = 'exited' | 'pid_reused';

export interface LedgerEvent {
  readonly event: LedgerEventKind;
  readonly ts: string;
  readonly sessionId: string;
  readonly pid: number;
  /** Opaque OS start time (see ProcessInfo.startTime); with pid, the process's identity. */
  readonly startTime: string;
  readonly name: string;
  readonly terminal: string;
  readonly cmd?: string;
  readonly parentPid?: number;
  /** When the OS started the process, ISO 8601. */
  readonly startedAt?: string;
  readonly ports?: readonly number[];
  readonly reason?: KillReason | CloseReason;
  /** orphaned and closed: the session that had tracked the process. */
  readonly fromSessionId?: string;
  /** started, spawned, orphaned: the agent session whose run started the process, when its client named one. */
  readonly agentSession?: AgentSession;
  /** started, spawned, orphaned: the MCP client whose own tools started it (outside managed terminals). */
  readonly clientTools?: ClientTools;
  /** started, spawned: the run that started it ran in the sandbox (docs/sandbox.md): why, and whether the network was open. */
  readonly sandbox?: RunSandbox;
}

/** A run in the sandbox as the ledger records it. */
export type RunSandbox = Pick<SandboxReport, 'mode' | 'network'>;

/** A per-command safety decision (the `decided` line): the command, the rules, the answer and how long an allow lasts. */
export interface DecisionEvent {
  readonly event: 'decided';
  readonly ts: string;
  readonly sessionId: string;
  readonly terminal: string;
  readonly cmd: string;
  readonly shell: string;
  readonly cwd?: string;
  readonly decision: 'approved' | 'asked';
  readonly reason: string;
  readonly rules: readonly string[];
  readonly floor?: boolean;
  readonly answer?: string;
  readonly scope?: string;
  readonly via?: string;
  /** The agent session whose call it was, when its client named one. */
  readonly agentSession?: AgentSession;
}

/** A window, told apart from a later process with the same pid by its start time. */
export interface OwnerIdentity {
  readonly pid: number;
  readonly startTime: string;
}

export interface ActiveEntry {
  readonly pid: number;
  readonly startTime: string;
  readonly startedAt: string;
  readonly name: string;
  readonly commandLine: string;
  readonly parentPid: number;
  readonly terminalName: string;
  readonly ports: readonly number[];
  readonly status: 'running' | 'orphaned';
  /** The session (window activation) that owns the entry and alone rewrites it. */
  readonly sessionId: string;
  /** The owning window's extension host; when it is gone, its entries are up for adoption. */
  readonly owner: OwnerIdentity;
  /** For an adopted orphan: the session that first tracked it. */
  readonly originSessionId?: string;
  /** The agent session whose run started it, when its client named one. */
  readonly agentSession?: AgentSession;
  /** The MCP client whose own tools started it (outside managed terminals). */
  readonly clientTools?: ClientTools;
}

export interface ActiveFile {
  readonly version: 1;
  readonly updatedAt: string;
  readonly entries: readonly ActiveEntry[];
}

export interface SessionProcess {
  readonly pid: number;
  readonly startTime: string;
  readonly name: string;
  readonly commandLine: string;
  readonly parentPid: number;
  readonly terminalName: string;
  readonly startedAt: string;
  readonly endedAt?: string;
  readonly status: 'running' | 'completed' | 'killed' | 'orphaned';
  readonly ports: readonly number[];
  readonly agentSession?: AgentSession;
  readonly clientTools?: ClientTools;
}

export interface SessionSummary {
  readonly version: 1;
  readonly sessionId: string;
  readonly owner: OwnerIdentity;
  readonly startedAt: string;
  readonly endedAt?: string;
  readonly updatedAt: string;
  readonly counts: {
    /** Processes tracked in this session, adopted orphans included. */
    readonly tracked: number;
    readonly running: number;
    readonly orphaned: number;
    readonly completed: number;
    readonly killed: number;
    readonly adopted: number;
  };
  /** Live processes and the most recently ended ones (older ended ones are only counted). */
  readonly processes: readonly SessionProcess[];
}

// ---- lenient readers ------------------------------------------------------------------------

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPid = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const ports = (v: unknown): number[] => (Array.isArray(v) ? v.filter((p): p is number => Number.isSafeInteger(p) && p > 0 && p < 65536) : []);

/** A log line's record, or undefined when it is not one (counted as skipped by the reader). */
export function parseLedgerEvent(value: unknown): LedgerEvent | DecisionEvent | undefined {
  if (!isObject(value) || !isText(value.event) || !isText(value.ts) || !isText(value.sessionId)) {
    return undefined;
  }
  if (value.event === 'decided') return isText(value.cmd) ? (value as unknown as DecisionEvent) : undefined;
  return isPid(value.pid) ? (value as unknown as LedgerEvent) : undefined;
}

/** An active-file entry, or undefined when its identity or owner is unusable. */
export function parseActiveEntry(value: unknown): ActiveEntry | undefined {
  if (!isObject(value) || !isPid(value.pid) || !isText(value.startTime) || !isText(value.sessionId)) {
    return undefined;
  }
  const owner = value.owner;
  if (!isObject(owner) || !isPid(owner.pid) || typeof owner.startTime !== 'string') {
    return undefined;
  }
  return {
    pid: value.pid,
    startTime: value.startTime,
    startedAt: str(value.startedAt),
    name: str(value.name),
    commandLine: str(value.commandLine),
    parentPid: Number.isSafeInteger(value.parentPid) ? (value.parentPid as number) : 0,
    terminalName: str(value.terminalName),
    ports: ports(value.ports),
    status: value.status === 'orphaned' ? 'orphaned' : 'running',
    sessionId: value.sessionId,
    owner: { pid: owner.pid, startTime: owner.startTime },
    ...(isText(value.originSessionId) ? { originSessionId: value.originSessionId } : {}),
    ...agentSessionField(value.agentSession),
    ...clientToolsField(value.clientTools),
  };
}

/** An agent session as recorded, or nothing when it is missing or not one. */
function agentSessionField(value: unknown): { agentSession?: AgentSession } {
  if (!isObject(value) || typeof value.client !== 'string' || !isText(value.id)) return {};
  return { agentSession: { client: value.client, id: value.id, from: str(value.from) } };
}

/** The client whose own tools started it, as recorded, or nothing when it is missing or not one. */
function clientToolsField(value: unknown): { clientTools?: ClientTools } {
  if (!isObject(value) || typeof value.client !== 'string' || !isPid(value.pid)) return {};
  return { clientTools: { client: value.client, pid: value.pid, command: str(value.command) } };
}

/** The key under which a process is the same process: pid plus OS start time. */
export function identityKey(id: { readonly pid: number; readonly startTime: string }): string {
  return `${id.pid}|${id.startTime}`;
}
