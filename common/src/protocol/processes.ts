/** process/*: the ledger of processes that managed terminals spawned. */
import { z } from 'zod';
import { agentSessionSchema } from './basics';

export const processStatusSchema = z.enum(['running', 'completed', 'killed', 'orphaned']);
export type ProcessStatus = z.infer<typeof processStatusSchema>;

/** The MCP client whose own tools started a process: its MCP name, its process and that process's command name. */
export const clientToolsSchema = z.object({ client: z.string().max(200), pid: z.number().int(), command: z.string().max(200) });
export type ClientTools = z.infer<typeof clientToolsSchema>;

const trackedProcessFields = {
  pid: z.number().int(),
  name: z.string(),
  commandLine: z.string(),
  parentPid: z.number().int(),
  terminalName: z.string(),
  /** When the OS started the process (ISO 8601); with the pid, its identity. */
  startedAt: z.string(),
  endedAt: z.string().optional(),
  exitCode: z.number().int().optional(),
  status: processStatusSchema,
  /** TCP ports the process listens on, where the OS tells. */
  ports: z.array(z.number().int()),
  /** Its share of one CPU over the last poll (since it started, at the first look), where the OS tells (Linux). */
  cpuPercent: z.number().nonnegative().optional(),
  /** Resident memory, bytes (Linux). */
  rssBytes: z.number().int().nonnegative().optional(),
  /** Stopped or blocked reading its terminal (Linux): it waits for input nobody may send. */
  waitingForTerminal: z.boolean().optional(),
  /** The agent session whose run started it (or its tree), when its client named one. */
  agentSession: agentSessionSchema.optional(),
  /** Started by an MCP client's own tools (its shell tool), outside managed terminals: that client (see client/attach). */
  clientTools: clientToolsSchema.optional(),
};

export type TrackedProcess = z.infer<z.ZodObject<typeof trackedProcessFields>> & { children?: TrackedProcess[] };

export const trackedProcessSchema: z.ZodType<TrackedProcess> = z.lazy(() =>
  z.object({ ...trackedProcessFields, children: z.array(trackedProcessSchema).optional() }),
);

export const listProcessesResultSchema = z.object({
  /** Processes still running under this window's terminals, each with its descendants nested. */
  active: z.array(trackedProcessSchema),
  /** Processes left running by a window that is gone (found again after a reload). */
  orphaned: z.array(trackedProcessSchema),
});
export type ListProcessesResult = z.infer<typeof listProcessesResultSchema>;

export const killProcessParamsSchema = z.object({ pid: z.number().int().positive() }).strict();
export type KillProcessParams = z.infer<typeof killProcessParamsSchema>;

export const killResultSchema = z.object({ killed: z.array(z.number().int()), failed: z.array(z.number().int()) });
export type KillResult = z.infer<typeof killResultSchema>;

/** A terminal's live processes together: "2 processes, 96% CPU, 1.2 GB" (Linux). */
export const treeCostSchema = z.object({
  processes: z.number().int().nonnegative(),
  /** Summed shares of one CPU over the last poll: above 100 when several cores work. */
  cpuPercent: z.number().nonnegative(),
  rssBytes: z.number().int().nonnegative(),
  /** One of them is stopped or blocked reading its terminal. */
  waitingForTerminal: z.boolean(),
});
export type TreeCost = z.infer<typeof treeCostSchema>;

/** One line per process for the reminder every tool response carries. */
export const ledgerEntrySchema = z.object({
  pid: z.number().int(),
  name: z.string(),
  terminalName: z.string(),
  ports: z.array(z.number().int()),
  startedAt: z.string(),
  /** What it costs (Linux): CPU% over the last poll, resident bytes, whether it waits for its terminal. */
  cpuPercent: z.number().nonnegative().optional(),
  rssBytes: z.number().int().nonnegative().optional(),
  waitingForTerminal: z.boolean().optional(),
});
/** A dev server as the per-response reminder names it. */
export const serverEntrySchema = z.object({
  terminal: z.string(),
  command: z.string(),
  pid: z.number().int().optional(),
  ports: z.array(z.number().int()),
  urls: z.array(z.string()),
});
export type ServerEntry = z.infer<typeof serverEntrySchema>;
export const ledgerSummarySchema = z.object({
  running: z.array(ledgerEntrySchema),
  orphaned: z.array(ledgerEntrySchema),
  /** Dev servers running under managed terminals (runs that listen on a port, or started in background or ready mode). */
  servers: z.array(serverEntrySchema).optional(),
});
export type LedgerSummary = z.infer<typeof ledgerSummarySchema>;

/**
 * client/attach: the MCP server names the client process that started it (sent again on every
 * connection), so the window records what that client's own tools start, as the client's.
 */
export const clientAttachParamsSchema = z
  .object({
    /** The client: the MCP server's nearest ancestor that is not a launcher (a shell, npx, cmd). */
    pid: z.number().int().positive(),
    /** The MCP server's own pid, then the launchers between it and the client, nearest first: never recorded. */
    serverPath: z.array(z.number().int().positive()).min(1).max(16),
    /** The client's MCP name (its clientInfo), as agent sessions name it. */
    client: z.string().max(200),
    /** The session the client's environment names for the server's whole life (CLAUDE_CODE_SESSION_ID, ...). */
    session: agentSessionSchema.omit({ client: true }).optional(),
  })
  .strict();
export type ClientAttachParams = z.infer<typeof clientAttachParamsSchema>;

export const clientAttachResultSchema = z.object({
  /** The window records the client's own processes while the connection lasts. */
  watching: z.boolean(),
  /** Why not, when not (the setting is off, the client is an editor's process, it is gone). */
  reason: z.string().optional(),
});
export type ClientAttachResult = z.infer<typeof clientAttachResultSchema>;
