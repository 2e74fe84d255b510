/**
 * The process ledger's public API, in one place: what the extension, the bridge handlers
 * (process/list, process/kill, process/killOrphans, process/summary) and the views use.
 */
import type { AgentSession, ClientTools, KillResult, LedgerSummary, ListProcessesResult, TrackedProcess } from '../../../../common/src/protocol';
import { settingsTable } from '../../../../common/src/settings';
import type { Disposable, Event } from '../events';
import type { ProcessIdentity, ProcessInfo } from '../processes/types';
import type { DecisionEvent, RunSandbox } from './formats';
import { DEFAULT_MAX_LOG_BYTES } from './ledgerStore';
import type { AppliedCaps, ProcessLimits } from '../processes/processLimits';
import type { TreeUsage } from './usageSampler';

/** Read on every poll, so a settings change applies at once. */
export interface LedgerSettings {
  /** How often a terminal's process tree is polled while a command runs there (ms). */
  readonly pollIntervalMs: number;
  /**
   * How often terminals without a running command but with live tracked processes, escaped
   * processes and orphans are checked (ms): background jobs that exit become `completed`.
   */
  readonly idlePollIntervalMs: number;
  /** Size of process-log.jsonl past which it is rotated to process-log.1.jsonl (bytes). */
  readonly logMaxBytes: number;
  /** Caps set on every new terminal's shell, inherited by what it starts (processes/processLimits.ts). */
  readonly limits?: ProcessLimits;
}

export const defaultLedgerSettings: LedgerSettings = {
  pollIntervalMs: settingsTable['processes.pollIntervalMs'].default,
  idlePollIntervalMs: 5000,
  logMaxBytes: DEFAULT_MAX_LOG_BYTES,
};

export interface LedgerStartup {
  /** Processes a gone window left running, now adopted by this window (policy is the caller's). */
  readonly orphans: TrackedProcess[];
  /** Entries of gone windows whose process had exited or whose pid was reused: logged `closed`. */
  readonly closed: number;
  /** Entries of other live windows, left alone. */
  readonly foreign: number;
  /** Entries of active-processes.json dropped as unusable. */
  readonly skippedEntries: number;
  /** active-processes.json was not readable as a ledger file and was treated as empty. */
  readonly activeFileCorrupt: boolean;
}

/** An MCP client whose own tools' processes the ledger records (service/clientProcesses.ts decides which). */
export interface ClientWatch {
  /** The client process; when it is gone, what it left running becomes orphans. */
  readonly identity: ProcessIdentity;
  /** Where its processes are listed (in place of a terminal's name). */
  readonly label: string;
  readonly clientTools: ClientTools;
  /** The session the client named, recorded as the processes' owner. */
  readonly agentSession?: AgentSession;
  /** The client's own tools' processes in one snapshot of the machine's processes. */
  readonly select: (table: readonly ProcessInfo[]) => ProcessInfo[];
}

export interface ProcessLedger {
  /** This window's session id (names sessions/<id>.json; stamps every log line). */
  readonly sessionId: string;

  /**
   * Reads active-processes.json once: entries of gone windows whose process is alive with the
   * same identity become this window's orphans; gone ones are closed in the log; entries of
   * live windows are left alone. Resolves once the startup events are in the log. Idempotent
   * (later calls return the first result). Call it before terminal events arrive; events that
   * arrive earlier are still tracked.
   */
  start(): Promise<LedgerStartup>;

  /** A managed terminal exists; its shell is the root of what it spawns (not tracked itself). */
  terminalOpened(name: string, shellPid: number | undefined): void;
  /** A command started in the terminal: its tree is polled every pollIntervalMs; what appears there is recorded as `agentSession`'s (the run's caller), and as run in the sandbox when `sandbox` says so. */
  runStarted(name: string, agentSession?: AgentSession, sandbox?: RunSandbox): void;
  /** The command ended: a final snapshot now (background jobs stay tracked at the idle cadence). */
  runEnded(name: string): void;
  /** The terminal closed: its processes still running are killed (identity-checked) and logged `killed`. */
  terminalClosed(name: string): Promise<KillResult>;
  /**
   * Records what an MCP client's own tools start, polled at the idle cadence and on refresh(),
   * until disposed or the client exits; then what still runs becomes orphans (never killed here).
   */
  watchClient(client: ClientWatch): Disposable;

  /**
   * Polls every open terminal (also one without a running command) and checks every live process
   * and its ports now, e.g. before answering process/list.
   */
  refresh(): Promise<void>;

  /** This window's running processes as trees under their shells, and the orphans still alive. From memory. */
  list(): ListProcessesResult;
  /**
   * Kills a tracked process (running or orphaned) and its tree, after re-checking its identity.
   * A pid not known yet gets one refresh() first (it may have appeared since the last poll).
   * Anything else — pid 1, the extension host, a shell, an unknown or ended pid — is refused
   * with a ShepherdError ProcessNotOwned that says what to do instead.
   */
  kill(pid: number): Promise<KillResult>;
  /** Kills every orphan still alive (with its tree). */
  killOrphans(): Promise<KillResult>;
  /** Appends a per-command safety decision to the process log (a `decided` line), beside the runs it allowed. */
  recordDecision(decision: Omit<DecisionEvent, 'event' | 'ts' | 'sessionId'>): void;
  /** What the terminal's live processes cost at the last poll; undefined when none was measured (or the OS cannot tell). From memory. */
  treeUsage(terminalName: string): TreeUsage | undefined;
  /** The caps set on the terminal's shell and tree; undefined when none is (off, or the OS could not). */
  capsOf(terminalName: string): AppliedCaps | undefined;
  /** Running and orphaned processes, one line each. From memory, no I/O: cheap for every tool response. */
  summary(): LedgerSummary;
  /** Fires with the new summary after each change (a process appeared, ended, or its ports changed). */
  readonly onDidChange: Event<LedgerSummary>;

  /** Stops polling and writes active-processes.json and the session summary a last time. Processes keep running. */
  dispose(): Promise<void>;
}
