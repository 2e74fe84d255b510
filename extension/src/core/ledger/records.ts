/**
 * The tracker's in-memory record of one process and its conversions to the shapes that leave
 * it: the protocol's TrackedProcess, an active-file entry, a log event, a session line.
 */
import type { AgentSession, ClientTools, LedgerSummary, ProcessStatus, TrackedProcess } from '../../../../common/src/protocol';
import type { ProcessIdentity, ProcessInfo } from '../processes/types';
import type { ActiveEntry, LedgerEvent, LedgerEventKind, OwnerIdentity, RunSandbox, SessionProcess } from './formats';

export interface TrackedRecord {
  readonly pid: number;
  readonly startTime: string;
  readonly startedAt: string;
  name: string;
  commandLine: string;
  parentPid: number;
  readonly terminalName: string;
  status: ProcessStatus;
  endedAt?: string;
  ports: number[];
  /** The terminal watch that found it (see TerminalWatch); undefined for adopted orphans. */
  readonly watchId?: number;
  /** For an adopted orphan: the session that first tracked it. */
  readonly originSessionId?: string;
  /** The agent session whose run in its terminal was the last when it appeared. */
  readonly agentSession?: AgentSession;
  /** What it cost at the last poll that measured it (usageSampler.ts); in memory only. */
  usage?: RecordUsage;
  /** Started by an MCP client's own tools, not in a managed terminal: that client. */
  readonly clientTools?: ClientTools;
  /** The run in its terminal when it appeared ran in the sandbox; in the log's discovery line. */
  readonly sandbox?: RunSandbox;
}

/** What a record cost at its last measured poll (usageSampler.ts). */
export interface RecordUsage {
  readonly cpuPercent: number;
  readonly rssBytes: number;
  readonly waitingForTerminal: boolean;
}

export function isLive(record: TrackedRecord): boolean {
  return record.status === 'running' || record.status === 'orphaned';
}

export function identityOf(record: TrackedRecord): ProcessIdentity {
  return { pid: record.pid, startTime: record.startTime, commandLine: record.commandLine };
}

export function recordFromInfo(info: ProcessInfo, terminalName: string, watchId: number | undefined, agentSession?: AgentSession, clientTools?: ClientTools): TrackedRecord {
  return {
    pid: info.pid,
    startTime: info.startTime,
    startedAt: info.startedAt,
    name: info.name,
    commandLine: info.commandLine,
    parentPid: info.ppid,
    terminalName,
    status: 'running',
    ports: [],
    ...(watchId !== undefined ? { watchId } : {}),
    ...(agentSession ? { agentSession } : {}),
    ...(clientTools ? { clientTools } : {}),
  };
}

export function orphanFromEntry(entry: ActiveEntry): TrackedRecord {
  return {
    pid: entry.pid,
    startTime: entry.startTime,
    startedAt: entry.startedAt,
    name: entry.name,
    commandLine: entry.commandLine,
    parentPid: entry.parentPid,
    terminalName: entry.terminalName,
    status: 'orphaned',
    ports: [...entry.ports],
    originSessionId: entry.originSessionId ?? entry.sessionId,
    ...(entry.agentSession ? { agentSession: entry.agentSession } : {}),
    ...(entry.clientTools ? { clientTools: entry.clientTools } : {}),
  };
}

export function toTrackedProcess(record: TrackedRecord): TrackedProcess {
  return {
    pid: record.pid,
    name: record.name,
    commandLine: record.commandLine,
    parentPid: record.parentPid,
    terminalName: record.terminalName,
    startedAt: record.startedAt,
    ...(record.endedAt !== undefined ? { endedAt: record.endedAt } : {}),
    status: record.status,
    ports: [...record.ports],
    ...(record.agentSession ? { agentSession: record.agentSession } : {}),
    ...(record.clientTools ? { clientTools: record.clientTools } : {}),
    ...costOf(record),
  };
}

/** The cost fields of a live record that was measured. */
function costOf(record: TrackedRecord): Partial<RecordUsage> {
  const usage = record.usage;
  return usage && isLive(record) ? { cpuPercent: Math.round(usage.cpuPercent * 10) / 10, rssBytes: usage.rssBytes, waitingForTerminal: usage.waitingForTerminal } : {};
}

/** One line of the summary every tool response carries. */
export type LedgerEntry = LedgerSummary['running'][number];

export function toLedgerEntry(record: TrackedRecord): LedgerEntry {
  return { pid: record.pid, name: record.name, terminalName: record.terminalName, ports: [...record.ports], startedAt: record.startedAt, ...costOf(record) };
}

export function toActiveEntry(record: TrackedRecord, sessionId: string, owner: OwnerIdentity): ActiveEntry {
  return {
    pid: record.pid,
    startTime: record.startTime,
    startedAt: record.startedAt,
    name: record.name,
    commandLine: record.commandLine,
    parentPid: record.parentPid,
    terminalName: record.terminalName,
    ports: [...record.ports],
    status: record.status === 'orphaned' ? 'orphaned' : 'running',
    sessionId,
    owner,
    ...(record.originSessionId !== undefined ? { originSessionId: record.originSessionId } : {}),
    ...(record.agentSession ? { agentSession: record.agentSession } : {}),
    ...(record.clientTools ? { clientTools: record.clientTools } : {}),
  };
}

export function toSessionProcess(record: TrackedRecord): SessionProcess {
  return { ...toTrackedProcess(record), startTime: record.startTime };
}

/** A log event about `record`; discovery events carry the full description, later ones the identity. */
export function eventFor(
  kind: LedgerEventKind,
  record: TrackedRecord | ActiveEntry,
  sessionId: string,
  ts: string,
  extra: Pick<LedgerEvent, 'reason' | 'fromSessionId'> = {},
): LedgerEvent {
  const full = kind === 'started' || kind === 'spawned' || kind === 'orphaned';
  return {
    event: kind,
    ts,
    sessionId,
    pid: record.pid,
    startTime: record.startTime,
    name: record.name,
    terminal: record.terminalName,
    ...(full || kind === 'closed' ? { cmd: record.commandLine, parentPid: record.parentPid, startedAt: record.startedAt } : {}),
    ...(full || kind === 'ports' || kind === 'killed' ? { ports: [...record.ports] } : {}),
    ...(full && record.agentSession ? { agentSession: record.agentSession } : {}),
    ...(full && record.clientTools ? { clientTools: record.clientTools } : {}),
    ...(full && 'sandbox' in record && record.sandbox ? { sandbox: record.sandbox } : {}),
    ...extra,
  };
}
