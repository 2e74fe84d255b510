/**
 * What every bridge message shares: the protocol version, the input bounds, the named error codes,
 * and the connection's own messages (hello, each request's metadata, progress).
 */
import { z } from 'zod';
import { settingsTable } from '../settings';

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
  /** terminal_input into a prompt that asks for a secret: only the person types there. */
  SensitivePrompt: -32017,
  /** The sandbox is on (VS Code's chat.agent.sandbox.enabled, or confinement of auto-approved lines) and cannot run here: nothing was typed. */
  SandboxUnavailable: -32018,
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

/** Turns a zod failure into one readable sentence per problem, naming the field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    })
    .join('; ');
}

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
// Every request: its metadata beside the params, and its progress while it waits.

/**
 * One agent session of one client: the MCP server derives it for each call (the client's name, and
 * the id its _meta or, once at start, its environment gives) and the window records it on the
 * runs and the processes they start, so a session can list what is its own.
 */
export const agentSessionSchema = z
  .object({
    /** The MCP client's name (its clientInfo). */
    client: z.string().max(200),
    /** The session's id as the client names it. */
    id: z.string().min(1).max(300),
    /** Where the id came from: `_meta.vscode.conversationId`, `env.CLAUDE_CODE_SESSION_ID`, ... */
    from: z.string().max(80),
  })
  .strict();
export type AgentSession = z.infer<typeof agentSessionSchema>;

/**
 * `from` of the owner the window records for a call whose client names no session: the client
 * process (its pid, as client/attach proved it) stands for that client's one session.
 */
export const CLIENT_PROCESS = 'client.pid';

/** `from` of a VS Code chat conversation's id: a call of VS Code's own client without one comes from outside a chat. */
export const VSCODE_CONVERSATION = '_meta.vscode.conversationId';

/** Whether two calls belong to the same agent session (where the id came from does not matter). */
export function sameAgentSession(a: Pick<AgentSession, 'client' | 'id'> | undefined, b: Pick<AgentSession, 'client' | 'id'> | undefined): boolean {
  return a !== undefined && b !== undefined && a.client === b.client && a.id === b.id;
}

/** terminal/list and process/list: `session: "mine"` keeps what the calling agent session started (all when absent). */
export const listingParamsSchema = z.object({ session: z.enum(['mine', 'all']).optional() }).strict();
export type ListingParams = z.infer<typeof listingParamsSchema>;

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
    /** The most characters of output that client's results should carry, when the MCP server knows (the person's output.limitChars setting wins). */
    clientOutputLimitChars: z.number().int().positive().optional(),
    /** The call runs as an MCP task: the client follows it to its result, so no deadline applies. */
    task: z.boolean().optional(),
    /** The agent session (a chat conversation, a CLI session, a thread) the call belongs to; absent when the client names none. */
    agentSession: agentSessionSchema.optional(),
    /** The caller wants the call's stage timings in its result (benchmarks: `timings`). */
    timings: z.boolean().optional(),
    /**
     * The MCP server wants the ledger summary as this request's answer leaves: a ledger/reminder
     * notification just before the response, instead of a process/summary round trip after it.
     */
    reminder: z.boolean().optional(),
  })
  .strict();
export type RequestMeta = z.infer<typeof requestMetaSchema>;
/** What the caller says about a call (its client, the client's deadline and output limit, an MCP task, its agent session); the connection adds the progress and elicitation ids and the reminder. */
export type CallMeta = Omit<RequestMeta, 'progressId' | 'elicitId' | 'reminder'>;

/** Server-to-client notification while a request with a progressId waits. */
export const progressNotificationSchema = z.object({
  progressId: z.string(),
  elapsedMs: z.number().int().nonnegative(),
  outputChars: z.number().int().nonnegative(),
  lastLine: z.string().optional(),
});
export type ProgressNotification = z.infer<typeof progressNotificationSchema>;
