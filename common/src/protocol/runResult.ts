/** The result every run tool returns (terminal/run, terminal/state, terminal/input) and its parts. */
import { z } from 'zod';
import { strategyNames } from '../settings';
import { agentSessionSchema } from './basics';
import { clientToolsSchema, treeCostSchema } from './processes';

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

/**
 * Who holds a TCP port a start failed on. `owner`: `ledger`, started in a managed terminal of this
 * window (`terminal`); `client`, started by an MCP client's own tools outside managed terminals
 * (`clientTools`), recorded by this window; `orphan`, either of those whose window or client is
 * gone; `foreign`, not in the ledger (never killed). The first three are the ledger's, so
 * kill_process can end them, identity-checked.
 */
export const portHolderSchema = z.object({
  pid: z.number().int(),
  name: z.string(),
  commandLine: z.string(),
  owner: z.enum(['ledger', 'client', 'orphan', 'foreign']),
  /** The managed terminal it was started in (`ledger`, or an orphan of one). */
  terminal: z.string().optional(),
  /** The agent session whose run or client started it, when one was named. */
  agentSession: agentSessionSchema.optional(),
  /** The MCP client whose own tools started it (`client`, or an orphan of one). */
  clientTools: clientToolsSchema.optional(),
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

/** A command that ran in the sandbox (VS Code's terminal sandbox, or Terminal Shepherd's confinement of auto-approved lines): see docs/sandbox.md. */
export const sandboxReportSchema = z.object({
  /** Why: `vscode` (chat.agent.sandbox.enabled is on) or `confined` (terminalShepherd.sandbox.confineAutoApproved, for a line approved unasked). */
  mode: z.enum(['vscode', 'confined']),
  /** The network was open inside. */
  network: z.boolean(),
  /** What the sandbox denied it: paths (from the runtime's report and the "Read-only file system" / "Operation not permitted" lines), the network when it was closed. */
  denied: z.object({ paths: z.array(z.string()), network: z.boolean(), hosts: z.array(z.string()) }).optional(),
  /** After a denial the person was asked to run it again outside the sandbox (`outside`) or in it with the network (`network`): their answer; approved, the result is that second run's. */
  retry: z.object({ as: z.enum(['outside', 'network']), answer: z.enum(['approved', 'declined', 'unanswered']) }).optional(),
});
export type SandboxReport = z.infer<typeof sandboxReportSchema>;

/** The TerminalRunResult every run tool returns: the result of terminal/run, terminal/state and terminal/input. */
export const terminalRunResultSchema = z.object({
  status: runStatusSchema,
  output: z.string(),
  exitCode: z.number().int().optional(),
  prompt: z.string().optional(),
  /** Status waiting_for_input: the prompt asks for a secret (a password, a passphrase, a token); the person types it in the terminal, terminal_input refuses to. */
  sensitive: z.boolean().optional(),
  pid: z.number().int().optional(),
  name: z.string(),
  command: z.string().optional(),
  durationMs: z.number().int().nonnegative(),
  truncated: z.boolean().optional(),
  outputFile: z.string().optional(),
  /** How many secrets (tokens, keys, passwords, secret variables' values) were replaced by a `‹redacted: …›` marker in this result. */
  redacted: z.number().int().positive().optional(),
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
  /** The command ran in the sandbox: why, and what it was denied. */
  sandbox: sandboxReportSchema.optional(),
  /** The command still runs (the client's deadline came first, a timeout, a watcher): the call that waits on. */
  nextCall: nextCallSchema.optional(),
  /** Status watching: the watcher's last completed cycle. */
  watch: watchCycleSchema.optional(),
  /** terminal_run: the terminal's earlier run ended while no call waited on it; how it ended. */
  previous: previousRunSchema.optional(),
  /** Only when the call asked (a benchmark): milliseconds per stage of the call (service/callTimings.ts). */
  timings: z.record(z.string(), z.number()).optional(),
  /** What the terminal's live processes cost at the last poll (Linux), when it has any: "still running, 2 processes, 96% CPU, 1.2 GB". */
  cost: treeCostSchema.optional(),
  /** A cap of terminalShepherd.processes.* most likely ended the command (the message says which and how big). */
  cappedBy: z.enum(['memory', 'cpuTime']).optional(),
});
export type TerminalRunResult = z.infer<typeof terminalRunResultSchema>;
