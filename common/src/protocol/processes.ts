/** process/*: the ledger of processes that managed terminals spawned. */
import { z } from 'zod';
import { agentSessionSchema } from './basics';

export const processStatusSchema = z.enum(['running', 'completed', 'killed', 'orphaned']);
export type ProcessStatus = z.infer<typeof processStatusSchema>;

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
  /** The agent session whose run started it (or its tree), when its client named one. */
  agentSession: agentSessionSchema.optional(),
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

/** One line per process for the reminder every tool response carries. */
export const ledgerEntrySchema = z.object({
  pid: z.number().int(),
  name: z.string(),
  terminalName: z.string(),
  ports: z.array(z.number().int()),
  startedAt: z.string(),
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
