/**
 * The bridge protocol between the extension (server) and the MCP server (client): method names,
 * zod schemas for every message, error codes. Both sides import this one module and validate
 * what they receive with it, so a message that drifts fails loudly at the boundary.
 */
import { z } from 'zod';
import { settingsTable, strategyNames } from './settings';

/** Bumped on any incompatible change; a client speaking another version is refused at hello. */
export const PROTOCOL_VERSION = 1;

const timeoutSetting = settingsTable['run.defaultTimeoutMs'];

/** Bounds of tool input; a call's timeout has the range of the default-timeout setting. */
export const limits = {
  commandChars: 100_000,
  inputChars: 100_000,
  nameChars: 64,
  readyPatternChars: 1000,
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
  /** The window is closing or reloading: the call's wait ended with it. */
  WindowClosing: -32016,
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

export const readyPatternSchema = z
  .string()
  .min(1, 'readyPattern must not be empty')
  .max(limits.readyPatternChars, `readyPattern must be at most ${limits.readyPatternChars} characters`)
  .refine(isValidRegExp, 'readyPattern must be a valid JavaScript regular expression (for example "Watching for file changes")');

function isValidRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export const runStatusSchema = z.enum([
  'completed',
  'running',
  'waiting_for_input',
  'timeout',
  'cancelled',
  'terminal_closed',
  /** waitMode "background" or "ready": the same command already runs in that directory; nothing was started. */
  'already_running',
  /** The person declined, dismissed or did not answer the question whether to run it: nothing was typed. */
  'not_approved',
  /** A test runner or build turned watcher finished a cycle (see `watch`); it keeps watching. */
  'watching',
]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** How a terminal runs commands (the names and their order: settings.ts strategyNames). */
export const strategySchema = z.enum(strategyNames);
export type StrategyName = z.infer<typeof strategySchema>;

export const waitModeSchema = z.enum(['completion', 'background', 'ready']);
export type WaitMode = z.infer<typeof waitModeSchema>;

/** What made a server or watcher count as ready (waitMode "ready"). */
export const readyInfoSchema = z.object({
  /** TCP ports the run's process tree listens on (from the OS). */
  ports: z.array(z.number().int()),
  /** Local URLs (from the output, or http://localhost:PORT/ for a port that answered HTTP). */
  urls: z.array(z.string()),
  /** `http`: a URL answered; `tcp`: a port accepts connections but speaks no HTTP; `line`: a ready line of a watcher with no port; `pattern`: the caller's readyPattern matched. */
  via: z.enum(['http', 'tcp', 'line', 'pattern']),
  /** The URL probed and its HTTP status, when via is `http`. */
  http: z.object({ url: z.string(), status: z.number().int() }).optional(),
  /** The output line that marked it ready (via `line` or `pattern`). */
  line: z.string().optional(),
  /** From the start of the wait until ready was confirmed. */
  waitedMs: z.number().int().nonnegative(),
});
export type ReadyInfo = z.infer<typeof readyInfoSchema>;

/** A dev server running under a managed terminal (status already_running, workspace/info). */
export const devServerSchema = z.object({
  /** The managed terminal it runs in (absent for an orphan of an earlier window). */
  terminal: z.string().optional(),
  command: z.string(),
  cwd: z.string().optional(),
  /** Its main process: the top of the command's process tree (or the orphan itself). */
  pid: z.number().int().optional(),
  ports: z.array(z.number().int()),
  urls: z.array(z.string()),
  startedAt: z.string(),
  uptimeMs: z.number().int().nonnegative(),
  status: z.enum(['running', 'orphaned']),
  /** Answered an HTTP or TCP probe just now (workspace/info only; absent when it has no port to probe). */
  healthy: z.boolean().optional(),
});
export type DevServer = z.infer<typeof devServerSchema>;

/** Who holds a TCP port a start failed on. */
export const portHolderSchema = z.object({
  pid: z.number().int(),
  name: z.string(),
  commandLine: z.string(),
  /** `ledger`: started by a managed terminal of this window; `orphan`: left by an earlier window; `foreign`: not started by Terminal Shepherd (never killed). */
  owner: z.enum(['ledger', 'orphan', 'foreign']),
  terminal: z.string().optional(),
});
export type PortHolder = z.infer<typeof portHolderSchema>;

export const portConflictSchema = z.object({
  port: z.number().int(),
  /** Empty when the OS did not say (the holder is another user's, or it already exited). */
  holders: z.array(portHolderSchema),
});
export type PortConflict = z.infer<typeof portConflictSchema>;

/**
 * Where a result's exit code came from: `shell`, the shell's own status of the command (bash's
 * `$?`, PowerShell's `$?` when no native program ran, a process's exit status); `native`, the
 * exit code of the native program PowerShell ran last (`$LASTEXITCODE`, never a stale one);
 * `inferred`, read from other evidence than the shell's word (PowerShell 5.1 set `$?` false only
 * because a program's stderr went through `2>&1` while the program exited 0; a command Terminal
 * Shepherd stopped on Ctrl+C where the OS gives no interrupt status).
 */
export const exitCodeSourceSchema = z.enum(['shell', 'native', 'inferred']);
export type ExitCodeSource = z.infer<typeof exitCodeSourceSchema>;
export const isExitCodeSource = (value: string): value is ExitCodeSource => (exitCodeSourceSchema.options as readonly string[]).includes(value);

/** The per-command safety check's decision, as a result carries it (and the audit records it). */
export const commandSafetySchema = z.object({
  /** `approved`: it ran with no question; `asked`: the person was asked (see answer). */
  decision: z.enum(['approved', 'asked']),
  /** Why, in a sentence: the rules that approved it, or why it asked. */
  reason: z.string(),
  /** The rules that decided, as VS Code names them: `rm` (default), `npm test` (workspace). */
  rules: z.array(z.string()),
  /** On the floor: a line that always asks, whatever the rules and settings. */
  floor: z.boolean().optional(),
  /** The person's answer: the choice (`once`, `subCommand:session`, `line:workspace`, `all:session`, ...), `declined` or `unanswered`. */
  answer: z.string().optional(),
  /** How long what the answer allowed lasts. */
  scope: z.enum(['once', 'session', 'workspace', 'user']).optional(),
  /** Where the person was asked: MCP elicitation in the client, or a modal in the VS Code window. */
  via: z.enum(['elicitation', 'modal']).optional(),
});
export type CommandSafety = z.infer<typeof commandSafetySchema>;
/** The call that continues from a result, exactly as a model should make it (a tool and its arguments). */
export const nextCallSchema = z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) });
export type NextCall = z.infer<typeof nextCallSchema>;

/** A watcher's last completed cycle (status watching): what ran, its counts, and how to go on. */
export const watchCycleSchema = z.object({
  /** The watcher as recognised (vitest, jest, tsc --watch, ...). */
  tool: z.string(),
  /** Cycles completed since the command started, this one included. */
  cycle: z.number().int().positive(),
  /** The cycle's summary lines as the terminal shows them. */
  summary: z.array(z.string()),
  passed: z.number().int().nonnegative().optional(),
  failed: z.number().int().nonnegative().optional(),
  skipped: z.number().int().nonnegative().optional(),
  errors: z.number().int().nonnegative().optional(),
  warnings: z.number().int().nonnegative().optional(),
  /** How to stop it, and how to run it again without editing a file. */
  stop: z.string(),
  rerun: z.string(),
});
export type WatchCycle = z.infer<typeof watchCycleSchema>;

/** An earlier run of the terminal whose end no call reported (its call was cancelled, or returned before it ended). */
export const previousRunSchema = z.object({
  command: z.string(),
  status: runStatusSchema,
  exitCode: z.number().int().optional(),
  durationMs: z.number().int().nonnegative(),
  /** The last lines of its output. */
  output: z.string(),
  outputFile: z.string().optional(),
});
export type PreviousRun = z.infer<typeof previousRunSchema>;

/** The TerminalRunResult every run tool returns: the result of terminal/run, terminal/state and terminal/input. */
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
  /** waitMode "ready": what showed it ready (status running). */
  ready: readyInfoSchema.optional(),
  /** Status already_running: the server already running (its output tail is `output`). */
  server: devServerSchema.optional(),
  /** The command failed because a TCP port was taken: who holds it. */
  portConflict: portConflictSchema.optional(),
  /** Where exitCode came from (present with exitCode). */
  exitCodeSource: exitCodeSourceSchema.optional(),
  /** How the per-command safety check decided about the command (absent where it had nothing to decide, as for an answer to a prompt). */
  safety: commandSafetySchema.optional(),
  /** The command still runs (the client's deadline came first, a timeout, a watcher): the call that waits on. */
  nextCall: nextCallSchema.optional(),
  /** Status watching: the watcher's last completed cycle. */
  watch: watchCycleSchema.optional(),
  /** terminal_run: the terminal's earlier run ended while no call waited on it; how it ended. */
  previous: previousRunSchema.optional(),
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

/** C0 controls other than tab and line breaks, and DEL: typed into a shell they act as keys. */
const keyLikeControlChars = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const commandSchema = z
  .string()
  .max(limits.commandChars, `command must be at most ${limits.commandChars} characters`)
  .refine((s) => s.trim().length > 0, 'command must not be empty')
  .refine(
    (s) => !keyLikeControlChars.test(s),
    'command must not contain control characters other than tab and line breaks (typed into the shell they act as keys); send keys such as Ctrl+C ("\\u0003") with terminal_input',
  );

export const runParamsSchema = z.object({
  command: commandSchema,
  timeoutMs: timeoutMsSchema.optional(),
  name: terminalNameSchema.optional(),
  waitMode: waitModeSchema.optional(),
  cwd: z.string().min(1).optional(),
  /** waitMode "ready": a regular expression; an output line matching it marks the command ready. */
  readyPattern: readyPatternSchema.optional(),
  /** Replace a matching dev server that already runs (its tree is killed first) instead of reporting it. */
  restart: z.boolean().optional(),
}).strict();
export type RunParams = z.infer<typeof runParamsSchema>;

export const stateParamsSchema = z.object({
  name: terminalNameSchema,
  wait: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
}).strict();
export type StateParams = z.infer<typeof stateParamsSchema>;

export const inputParamsSchema = z.object({
  name: terminalNameSchema,
  text: z.string().max(limits.inputChars, `text must be at most ${limits.inputChars} characters`),
  enter: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
}).strict();
export type InputParams = z.infer<typeof inputParamsSchema>;

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

/**
 * What a request carries besides its method's params: sent as a second positional param
 * (`[params, meta]`), never mixed into the params, so every method's params stay strictly
 * validated whatever the client asks for per request.
 */
export const requestMetaSchema = z
  .object({
    /** The client wants terminal/progress notifications for this request, tagged with this id. */
    progressId: z.string().min(1).max(64).optional(),
    /** The MCP client declared elicitation: the person can be asked through it while this request runs (approval/ask tagged with this id). */
    elicitId: z.string().min(1).max(64).optional(),
    /** The MCP client the call came from (its clientInfo): for the log, and for its deadline. */
    client: z.object({ name: z.string().max(200), version: z.string().max(100) }).strict().optional(),
    /** How long that client lets a tool call run before it cuts it (ms), when the MCP server knows; otherwise a setting says. */
    clientDeadlineMs: z.number().int().positive().optional(),
    /** Where clientDeadlineMs comes from (a client's documented default, its environment). */
    deadlineSource: z.string().max(300).optional(),
    /** The call runs as an MCP task: the client follows it to its result, so no deadline applies. */
    task: z.boolean().optional(),
  })
  .strict();
export type RequestMeta = z.infer<typeof requestMetaSchema>;

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

// ---------------------------------------------------------------------------------------------
// workspace/info: the stacks the workspace uses and the dev servers running now.

export const devCommandSchema = z.object({
  /** The command line to run, e.g. `npm run dev`. */
  command: z.string(),
  /** Where to run it, relative to the workspace folder ("." for the folder itself). */
  cwd: z.string(),
  /** Where it comes from, e.g. `package.json script "dev": vite`. */
  source: z.string(),
});
export type DevCommand = z.infer<typeof devCommandSchema>;

export const projectInfoSchema = z.object({
  /** Relative to the workspace folder ("." for the folder itself). */
  path: z.string(),
  stacks: z.array(z.string()),
  /** npm, pnpm, yarn or bun, from the lockfile (or package.json's packageManager). */
  packageManager: z.string().optional(),
  devCommands: z.array(devCommandSchema),
});
export type ProjectInfo = z.infer<typeof projectInfoSchema>;

/** What workspace/info reports of the workspace: its stacks and the processes they run, the projects found and their dev-server commands. */
export const workspaceAnalysisSchema = z.object({
  detectedStacks: z.array(z.string()),
  projectRoot: z.string(),
  expectedProcesses: z.array(z.string()),
  projects: z.array(projectInfoSchema),
  devCommands: z.array(devCommandSchema),
  /** The scan stopped at its bounds (depth, folders or time): nested projects deeper down may be missing. */
  truncated: z.boolean(),
  /** When this analysis was made (ISO 8601) and how long the scan took. */
  analyzedAt: z.string(),
  scanMs: z.number().nonnegative(),
});
export type WorkspaceAnalysis = z.infer<typeof workspaceAnalysisSchema>;

export const workspaceInfoResultSchema = z.object({
  /** Absent when no folder is open. */
  analysis: workspaceAnalysisSchema.optional(),
  servers: z.array(devServerSchema),
});
export type WorkspaceInfoResult = z.infer<typeof workspaceInfoResultSchema>;

// ---------------------------------------------------------------------------------------------
// The method table: one entry per bridge message, with its schemas.

/** The params of a method that takes none: strict like every other, so a stray field is refused. */
export const emptyParamsSchema = z.object({}).strict();

export const methods = {
  hello: { name: 'bridge/hello', params: helloParamsSchema, result: helloResultSchema },
  run: { name: 'terminal/run', params: runParamsSchema, result: terminalRunResultSchema },
  state: { name: 'terminal/state', params: stateParamsSchema, result: terminalRunResultSchema },
  input: { name: 'terminal/input', params: inputParamsSchema, result: terminalRunResultSchema },
  list: { name: 'terminal/list', params: emptyParamsSchema, result: listResultSchema },
  listProcesses: { name: 'process/list', params: emptyParamsSchema, result: listProcessesResultSchema },
  killProcess: { name: 'process/kill', params: killProcessParamsSchema, result: killResultSchema },
  killOrphans: { name: 'process/killOrphans', params: emptyParamsSchema, result: killResultSchema },
  ledgerSummary: { name: 'process/summary', params: emptyParamsSchema, result: ledgerSummarySchema },
  workspaceInfo: { name: 'workspace/info', params: emptyParamsSchema, result: workspaceInfoResultSchema },
} as const;

// ---------------------------------------------------------------------------------------------
// approval/ask: the extension asks the person through the MCP client (elicitation) during a request.

/** One way to approve: run once, or allow for a scope; declining is always possible besides. */
export const approvalChoiceSchema = z.object({ id: z.string().min(1).max(64), label: z.string().min(1).max(300) });
export type ApprovalChoiceInfo = z.infer<typeof approvalChoiceSchema>;

export const approvalAskParamsSchema = z
  .object({
    /** The elicitId of the request this question is for. */
    elicitId: z.string().min(1).max(64),
    command: z.string(),
    terminal: z.string(),
    shell: z.string(),
    cwd: z.string().optional(),
    /** Why it asks: the rule or check that decided. */
    reasons: z.array(z.string()),
    choices: z.array(approvalChoiceSchema).min(1),
    /** The line is on the floor (always asks). */
    floor: z.boolean(),
    /** How long the extension waits for the answer; the MCP server gives the client as long. */
    timeoutMs: z.number().int().positive(),
  })
  .strict();
export type ApprovalAskParams = z.infer<typeof approvalAskParamsSchema>;

export const approvalAskResultSchema = z.object({
  answer: z.enum(['approved', 'declined', 'unanswered']),
  /** With `approved`: the id of the choice taken. */
  choice: z.string().optional(),
});
export type ApprovalAskResult = z.infer<typeof approvalAskResultSchema>;

/** Requests the extension sends to the MCP server (the other direction of the same connection). */
export const serverRequests = {
  approvalAsk: { name: 'approval/ask', params: approvalAskParamsSchema, result: approvalAskResultSchema },
} as const;

export const notifications = {
  progress: { name: 'terminal/progress', params: progressNotificationSchema },
} as const;

export type MethodKey = keyof typeof methods;
export type ParamsOf<K extends MethodKey> = z.infer<(typeof methods)[K]['params']>;
export type ResultOf<K extends MethodKey> = z.infer<(typeof methods)[K]['result']>;

export type ParsedRequest<K extends MethodKey> =
  | { readonly success: true; readonly params: ParamsOf<K>; readonly meta: RequestMeta }
  | { readonly success: false; readonly error: string };

/**
 * The server's reading of a request's positional params (`[params]` or `[params, meta]`; a request
 * sent with params by name arrives as `[params]`), each strictly validated.
 */
export function parseRequestArguments<K extends Exclude<MethodKey, 'hello'>>(key: K, args: readonly unknown[]): ParsedRequest<K> {
  const method = methods[key];
  if (args.length > 2) {
    return { success: false, error: `${method.name} takes its params and at most one metadata object, not ${args.length} positional params` };
  }
  const params = method.params.safeParse(args[0] ?? {});
  if (!params.success) {
    return { success: false, error: describeZodError(params.error) };
  }
  const meta = requestMetaSchema.safeParse(args[1] ?? {});
  if (!meta.success) {
    return { success: false, error: `request metadata: ${describeZodError(meta.error)}` };
  }
  return { success: true, params: params.data as ParamsOf<K>, meta: meta.data };
}

/** Turns a zod failure into one readable sentence per problem, naming the field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    })
    .join('; ');
}
