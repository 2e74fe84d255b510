/**
 * The bridge protocol between the extension (server) and the MCP server (client): method names,
 * zod schemas for every message, error codes. Both sides import this one module and validate
 * what they receive with it, so a message that drifts fails loudly at the boundary.
 */
import { z } from 'zod';
import { settingsTable } from './settings';

/** Bumped on any incompatible change; a client speaking another version is refused at hello. */
export const PROTOCOL_VERSION = 1;

/** Environment variables through which VS Code hands the bridge to the MCP server it starts. */
export const BRIDGE_ENV = {
  endpoint: 'TERMINAL_SHEPHERD_BRIDGE',
  token: 'TERMINAL_SHEPHERD_TOKEN',
  workspace: 'TERMINAL_SHEPHERD_WORKSPACE',
} as const;

/** Where the extension advertises its bridge, relative to the first workspace folder. */
export const DEVTOOLS_DIR = '.devtools';
export const BRIDGE_FILE = 'bridge.json';

const timeoutSetting = settingsTable['run.defaultTimeoutMs'];

/** Bounds of tool input; a call's timeout has the range of the default-timeout setting. */
export const limits = {
  commandChars: 100_000,
  inputChars: 100_000,
  nameChars: 64,
  minTimeoutMs: timeoutSetting.minimum,
  maxTimeoutMs: timeoutSetting.maximum,
  defaultTimeoutMs: timeoutSetting.default,
} as const;

/** Named error codes carried by bridge ResponseErrors (JSON-RPC server error range). */
export const BridgeErrorCode = {
  Unauthorized: -32001,
  ProtocolVersionMismatch: -32002,
  InvalidInput: -32003,
  TerminalBusy: -32010,
  TerminalNotFound: -32011,
  ShellIntegrationUnavailable: -32012,
  TerminalClosed: -32013,
  WorkspaceUntrusted: -32014,
  NoActiveRun: -32015,
  /** The caller cancelled before anything was started (LSP's RequestCancelled). */
  Cancelled: -32800,
  ProcessNotOwned: -32020,
  /** Client side: no VS Code window with the extension could be reached. */
  Unreachable: -32050,
  /** Client side: the connection closed while a call was in flight. */
  ConnectionLost: -32051,
  Internal: -32099,
} as const;
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

export const bridgeErrorNames: Record<number, string> = Object.fromEntries(
  Object.entries(BridgeErrorCode).map(([name, code]) => [code, name]),
);

// ---------------------------------------------------------------------------------------------
// Shared field schemas

const noControlChars = (s: string): boolean => !/[\u0000-\u001f\u007f]/.test(s);

export const terminalNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(limits.nameChars, `name must be at most ${limits.nameChars} characters`)
  .refine(noControlChars, 'name must not contain control characters');

export const timeoutMsSchema = z
  .number()
  .int('timeout must be a whole number of milliseconds')
  .min(limits.minTimeoutMs, `timeout must be at least ${limits.minTimeoutMs} ms`)
  .max(limits.maxTimeoutMs, `timeout must be at most ${limits.maxTimeoutMs} ms (1 hour); for longer work use waitMode "background" and terminal_state`);

export const runStatusSchema = z.enum([
  'completed',
  'running',
  'waiting_for_input',
  'timeout',
  'cancelled',
  'terminal_closed',
]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/**
 * How a terminal runs commands, chosen per terminal (first that works, in this order):
 * `vscode` VS Code's own shell integration; `shepherd` Terminal Shepherd's init scripts emitting
 * the same sequences where VS Code's did not activate; `pseudoterminal` an extension-owned
 * terminal that runs each command itself (no shell hooks needed).
 */
export const strategySchema = z.enum(['vscode', 'shepherd', 'pseudoterminal']);
export type StrategyName = z.infer<typeof strategySchema>;

export const waitModeSchema = z.enum(['completion', 'background']);
export type WaitMode = z.infer<typeof waitModeSchema>;

/** The result of terminal/run, terminal/state and terminal/input (the blueprint's TerminalRunResult). */
export const terminalRunResultSchema = z.object({
  status: runStatusSchema,
  output: z.string(),
  exitCode: z.number().int().optional(),
  prompt: z.string().optional(),
  pid: z.number().int().optional(),
  name: z.string(),
  command: z.string().optional(),
  durationMs: z.number().int().nonnegative(),
  truncated: z.boolean().optional(),
  outputFile: z.string().optional(),
  message: z.string().optional(),
  /** How the terminal ran the command (see strategySchema). */
  strategy: strategySchema,
});
export type TerminalRunResult = z.infer<typeof terminalRunResultSchema>;

// ---------------------------------------------------------------------------------------------
// bridge/hello: the first request on every connection; nothing else is served before it.

export const helloParamsSchema = z.object({
  token: z.string().min(1),
  protocolVersion: z.number().int(),
  client: z.object({ name: z.string(), version: z.string() }).optional(),
});
export type HelloParams = z.infer<typeof helloParamsSchema>;

export const helloResultSchema = z.object({
  protocolVersion: z.number().int(),
  extensionVersion: z.string(),
  windowPid: z.number().int(),
  workspaceFolder: z.string().optional(),
  trusted: z.boolean(),
});
export type HelloResult = z.infer<typeof helloResultSchema>;

// ---------------------------------------------------------------------------------------------
// terminal/*

export const runParamsSchema = z.object({
  command: z
    .string()
    .max(limits.commandChars, `command must be at most ${limits.commandChars} characters`)
    .refine((s) => s.trim().length > 0, 'command must not be empty'),
  timeoutMs: timeoutMsSchema.optional(),
  name: terminalNameSchema.optional(),
  waitMode: waitModeSchema.optional(),
  cwd: z.string().min(1).optional(),
  /** Set by the client when it wants terminal/progress notifications for this request. */
  progressId: z.string().optional(),
});
export type RunParams = z.infer<typeof runParamsSchema>;

export const stateParamsSchema = z.object({
  name: terminalNameSchema,
  wait: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
  progressId: z.string().optional(),
});
export type StateParams = z.infer<typeof stateParamsSchema>;

export const inputParamsSchema = z.object({
  name: terminalNameSchema,
  text: z.string().max(limits.inputChars, `text must be at most ${limits.inputChars} characters`),
  enter: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
  progressId: z.string().optional(),
});
export type InputParams = z.infer<typeof inputParamsSchema>;

export const listParamsSchema = z.object({}).strict();

export const terminalInfoSchema = z.object({
  name: z.string(),
  pid: z.number().int().optional(),
  busy: z.boolean(),
  cwd: z.string().optional(),
  shellIntegration: z.boolean(),
  /** The shell's kind (bash, zsh, fish, sh, pwsh, cmd, or the executable's name). */
  shell: z.string(),
  strategy: strategySchema,
  command: z.string().optional(),
  status: runStatusSchema.optional(),
  exitCode: z.number().int().optional(),
});
export type TerminalInfo = z.infer<typeof terminalInfoSchema>;

export const listResultSchema = z.object({ terminals: z.array(terminalInfoSchema) });
export type ListResult = z.infer<typeof listResultSchema>;

/** Server-to-client notification while a request with a progressId waits. */
export const progressNotificationSchema = z.object({
  progressId: z.string(),
  elapsedMs: z.number().int().nonnegative(),
  outputChars: z.number().int().nonnegative(),
  lastLine: z.string().optional(),
});
export type ProgressNotification = z.infer<typeof progressNotificationSchema>;

// ---------------------------------------------------------------------------------------------
// process/*: the ledger of processes that managed terminals spawned.

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

export const killProcessParamsSchema = z.object({ pid: z.number().int().positive() });
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
export const ledgerSummarySchema = z.object({
  running: z.array(ledgerEntrySchema),
  orphaned: z.array(ledgerEntrySchema),
});
export type LedgerSummary = z.infer<typeof ledgerSummarySchema>;

// ---------------------------------------------------------------------------------------------
// The method table: one entry per bridge message, with its schemas.

export const methods = {
  hello: { name: 'bridge/hello', params: helloParamsSchema, result: helloResultSchema },
  run: { name: 'terminal/run', params: runParamsSchema, result: terminalRunResultSchema },
  state: { name: 'terminal/state', params: stateParamsSchema, result: terminalRunResultSchema },
  input: { name: 'terminal/input', params: inputParamsSchema, result: terminalRunResultSchema },
  list: { name: 'terminal/list', params: listParamsSchema, result: listResultSchema },
  listProcesses: { name: 'process/list', params: z.object({}).strict(), result: listProcessesResultSchema },
  killProcess: { name: 'process/kill', params: killProcessParamsSchema, result: killResultSchema },
  killOrphans: { name: 'process/killOrphans', params: z.object({}).strict(), result: killResultSchema },
  ledgerSummary: { name: 'process/summary', params: z.object({}).strict(), result: ledgerSummarySchema },
} as const;

export const notifications = {
  progress: { name: 'terminal/progress', params: progressNotificationSchema },
} as const;

export type MethodKey = keyof typeof methods;
export type ParamsOf<K extends MethodKey> = z.infer<(typeof methods)[K]['params']>;
export type ResultOf<K extends MethodKey> = z.infer<(typeof methods)[K]['result']>;

// ---------------------------------------------------------------------------------------------
// bridge.json: how an MCP client started outside VS Code finds the window.

export const bridgeFileSchema = z.object({
  endpoint: z.string().min(1),
  token: z.string().min(16),
  protocolVersion: z.number().int(),
  pid: z.number().int(),
  extensionVersion: z.string(),
  workspaceFolder: z.string(),
  createdAt: z.string(),
});
export type BridgeFile = z.infer<typeof bridgeFileSchema>;

/** Turns a zod failure into one readable sentence per problem, naming the field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    })
    .join('; ');
}
