/**
 * The one table of Terminal Shepherd's settings: key, type, default, range and description.
 * The extension reads its settings through it, the bridge protocol and the MCP tool descriptions
 * take their numbers from it, and a unit test checks that package.json's
 * contributes.configuration says exactly the same (so the two cannot drift).
 */

export const SETTINGS_SECTION = 'terminalShepherd';

interface BaseSetting {
  readonly scope: 'window' | 'machine-overridable';
  readonly markdownDescription: string;
}
export interface NumberSetting extends BaseSetting {
  readonly type: 'number';
  readonly default: number;
  readonly minimum: number;
  readonly maximum: number;
}
export interface StringSetting extends BaseSetting {
  readonly type: 'string';
  readonly default: string;
}
export interface EnumSetting<T extends string = string> extends BaseSetting {
  readonly type: 'string';
  readonly enum: readonly T[];
  readonly enumDescriptions?: readonly string[];
  readonly default: T;
}
export interface BooleanSetting extends BaseSetting {
  readonly type: 'boolean';
  readonly default: boolean;
}
export interface StringListSetting extends BaseSetting {
  readonly type: 'array';
  readonly items: { readonly type: 'string' };
  readonly default: readonly string[];
}
export type SettingSpec = NumberSetting | StringSetting | EnumSetting | BooleanSetting | StringListSetting;

/**
 * How a terminal runs commands, chosen per terminal (first that works, in this order):
 * `vscode` VS Code's own shell integration; `shepherd` Terminal Shepherd's init scripts emitting
 * the same sequences where VS Code's did not activate; `pseudoterminal` an extension-owned
 * terminal that runs each command itself (no shell hooks needed). The protocol's strategySchema
 * takes them from here; the setting adds `auto`.
 */
export const strategyNames = ['vscode', 'shepherd', 'pseudoterminal'] as const;

const orphanPolicies = ['report', 'ask', 'kill'] as const;
const strategies = ['auto', ...strategyNames] as const;
const logLevels = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** Keys are relative to SETTINGS_SECTION ("run.gracePeriodMs" is terminalShepherd.run.gracePeriodMs). */
export const settingsTable = {
  'run.gracePeriodMs': {
    type: 'number',
    default: 3000,
    minimum: 0,
    maximum: 60_000,
    scope: 'window',
    markdownDescription:
      'Longest wait, in milliseconds, after a command reports its exit code before a run counts as completed. A new execution starting in the terminal during the wait restarts it. It is a ceiling: when the shell is confirmed idle at its prompt (from the OS), the run returns after a short settle instead.',
  },
  'run.defaultTimeoutMs': {
    type: 'number',
    default: 120_000,
    minimum: 100,
    maximum: 3_600_000,
    scope: 'window',
    markdownDescription:
      'How long a `terminal_run` call waits, in milliseconds, when the caller gives no `timeout`. On timeout the command keeps running and stays reachable through `terminal_state`.',
  },
  'run.clientTimeoutMs': {
    type: 'number',
    default: 60_000,
    minimum: 2000,
    maximum: 3_600_000,
    scope: 'window',
    markdownDescription:
      'How long an MCP client that Terminal Shepherd does not know lets a tool call run before it gives up, in milliseconds (the MCP SDK\'s default request timeout is 60000). A call returns status `running` (with the output so far and the exact call that waits on) a little before this, so the client never cuts it; the command keeps running either way. Known clients (VS Code, Claude Code, Claude Desktop, Codex, Gemini CLI) use their own figure, and MCP tasks have no deadline.',
  },
  'run.cancelInterrupts': {
    type: 'boolean',
    default: false,
    scope: 'window',
    markdownDescription:
      'When an MCP client cancels a call (the person pressed Stop, or the client gave up), also send Ctrl+C to the command. Off (default): a cancel stops the waiting, never the command; it keeps running in its terminal, and stopping it is an explicit act (`terminal_input` with Ctrl+C, `kill_process`, or you in the terminal).',
  },
  'output.limitChars': {
    type: 'number',
    default: 16_000,
    minimum: 1000,
    maximum: 1_000_000,
    scope: 'window',
    markdownDescription:
      "Most characters of output a result carries. Longer output keeps its head and tail with one marker line in between; the whole output is written to a log file under `.devtools/` whose path is in the result. Left unset, the limit follows the MCP client: 2,000 for Copilot in VS Code's agent host and 7,000 for the Copilot CLI, whose runtime hands the model both the text and the structured content (each carries the output) and passes a result whole only up to 8 KB in the agent host and 20 KB in the Copilot CLI (past that, a file and a 500-character preview); every other client (VS Code's own chat, Claude Code, Codex, Gemini CLI, opencode) gets this default. A value you set applies to every client.",
  },
  'terminal.shellPath': {
    type: 'string',
    default: '',
    scope: 'machine-overridable',
    markdownDescription:
      'Shell for new managed terminals (for example `/bin/bash` or `pwsh`). Empty uses VS Code\'s default terminal profile. In a remote window (Remote-SSH, WSL, Dev Containers, code-server) set it in the **Remote** settings (machine settings), where the terminals run: user settings do not apply there.',
  },
  'terminal.strategy': {
    type: 'string',
    enum: strategies,
    enumDescriptions: [
      'VS Code\'s shell integration where it activates, else Terminal Shepherd\'s own, else an extension-owned terminal (default).',
      'Start with VS Code\'s shell integration (bash, zsh, fish, pwsh).',
      'Start with Terminal Shepherd\'s own shell integration (bash, zsh, fish, sh, dash, ksh, mksh).',
      'An extension-owned terminal that runs each command itself (any shell; no shell hooks).',
    ],
    default: 'auto',
    scope: 'window',
    markdownDescription:
      'How new managed terminals run commands. Each terminal tries the chosen strategy first and falls back to the next one that works for its shell; results and `terminal_list` say which one a terminal uses.',
  },
  'terminal.shellIntegrationTimeoutMs': {
    type: 'number',
    default: 10_000,
    minimum: 1000,
    maximum: 120_000,
    scope: 'window',
    markdownDescription:
      'How long to wait, in milliseconds, for shell integration to activate in a new managed terminal before falling back to the next strategy (Terminal Shepherd\'s own integration, then an extension-owned terminal).',
  },
  'terminal.revealOnCreate': {
    type: 'boolean',
    default: true,
    scope: 'window',
    markdownDescription:
      'Show a new managed terminal in the terminal panel (without taking focus), so you see what the agent runs. Off keeps it in the terminal list only (a visible terminal costs rendering time on every command).',
  },
  'processes.pollIntervalMs': {
    type: 'number',
    default: 1000,
    minimum: 200,
    maximum: 60_000,
    scope: 'window',
    markdownDescription:
      'How often, in milliseconds, the process tree under a terminal is read while a command runs there. New processes are logged and reach `.devtools/active-processes.json` within about a second of being seen. On Linux a read costs well under a millisecond.',
  },
  'processes.orphanPolicy': {
    type: 'string',
    enum: orphanPolicies,
    enumDescriptions: [
      'Show a notification listing the processes an earlier window left running (default).',
      'Ask whether to kill them.',
      'Kill them without asking and say what was killed.',
    ],
    default: 'report',
    scope: 'window',
    markdownDescription: 'What to do at startup with processes that a closed or reloaded window\'s terminals left running (orphans).',
  },
  'processes.trackClientProcesses': {
    type: 'boolean',
    default: true,
    scope: 'window',
    markdownDescription:
      "Record the processes an MCP client's own tools start (Claude Code's Bash tool, Codex's shell, Gemini CLI, the Copilot CLI), outside managed terminals, as that client's: `list_processes` and the Processes view show them, and once the client exits (or its MCP connection ends) they are orphans that `kill_orphans` can end. The client itself and its MCP servers are never recorded, and an editor's extension host is never watched. See docs/ledger.md.",
  },
  'processes.memoryLimitMb': {
    type: 'number',
    default: 0,
    minimum: 0,
    maximum: 1_048_576,
    scope: 'window',
    markdownDescription:
      "Cap, in MB, on the memory of a managed terminal's processes (Linux). Each process: the shell's `RLIMIT_DATA`, set with `prlimit` when the terminal opens and inherited by every command (a program over it fails to allocate). The whole tree as well, where the machine has a writable cgroup with the memory controller (cgroup v1, or a delegated cgroup v2): the shell gets a cgroup of its own of that size, and the kernel ends a process when they pass it together; elsewhere the log says why the cap is per process only. The result says when the cap ended a command. 0: no cap. Not available on macOS and Windows (the log says so). See docs/ledger.md.",
  },
  'processes.cpuTimeLimitSeconds': {
    type: 'number',
    default: 0,
    minimum: 0,
    maximum: 604_800,
    scope: 'window',
    markdownDescription:
      "Cap, in CPU seconds, on each process started in a managed terminal (Linux: the shell's `RLIMIT_CPU`, set with `prlimit` when the terminal opens; a process over it gets SIGXCPU, and the result says the cap ended it). Per process, not per tree; the shell counts its own time too. 0: no cap. Not available on macOS and Windows. See docs/ledger.md.",
  },
  'safety.perCommandCheck': {
    type: 'boolean',
    default: true,
    scope: 'window',
    markdownDescription:
      'Check every command `terminal_run` types (and every line `terminal_input` ends at a shell prompt) the way VS Code\'s own terminal tool does, with the rules of `#chat.tools.terminal.autoApprove#`: a command they do not approve is asked about first. Off runs every command unasked except the few that always ask (recursive deletion of `/`, `~` or the workspace, `mkfs`, a download piped into a shell, a fork bomb, ...).',
  },
  'secrets.redact': {
    type: 'boolean',
    default: true,
    scope: 'window',
    markdownDescription:
      'Replace secrets by a `‹redacted: …›` marker naming their kind before anything leaves the terminal for the model or the disk: results, the log files under `.devtools/logs`, the process log and the Terminal Shepherd log. Found: well-known token formats (GitHub, OpenAI, Anthropic, AWS, GitLab, Slack, npm, Stripe, Google, JWTs, private keys, bearer credentials, URL passwords), the values of secret-named environment variables (`*_TOKEN`, `*_SECRET`, `*_KEY`, `*PASSWORD`, ...) and of secret-named assignments (`API_KEY=…` in `printenv` or `cat .env`). Results say how many (`redacted`). The terminal you see is never changed. See docs/secrets.md.',
  },
  'secrets.redactPatterns': {
    type: 'array',
    items: { type: 'string' },
    default: [],
    scope: 'window',
    markdownDescription:
      'More secrets to redact: JavaScript regular expressions (for example `ACME-[0-9]{8}`); each match becomes `‹redacted: custom pattern›`. A pattern that does not compile is skipped and named in the Terminal Shepherd log.',
  },
  'sandbox.confineAutoApproved': {
    type: 'boolean',
    default: false,
    scope: 'window',
    markdownDescription:
      'Run the lines the rules approve without asking inside the sandbox even when VS Code\'s `#chat.agent.sandbox.enabled#` is off: writes only in the workspace folders and a sandbox temp folder, the home folder unreadable except the tools\' caches, the network as `#chat.agent.sandbox.allowNetwork#` says. A line the person was asked about runs as approved. Needs bubblewrap, socat and ripgrep on Linux; where the sandbox cannot run, an auto-approved line is not run. See docs/sandbox.md.',
  },
  'log.level': {
    type: 'string',
    enum: logLevels,
    default: 'info',
    scope: 'window',
    markdownDescription:
      'Least severe message written to the Terminal Shepherd log (command **Terminal Shepherd: Show Log**). The output channel\'s own level (**Developer: Set Log Level**) applies too.',
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof settingsTable;
export type OrphanPolicy = (typeof orphanPolicies)[number];
export type StrategySetting = (typeof strategies)[number];

/** A number from the user's settings, rounded and held to the table's range; the default when unusable. */
export function clampSetting(spec: NumberSetting, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return spec.default;
  return Math.min(spec.maximum, Math.max(spec.minimum, Math.round(value)));
}

/** An enum value from the user's settings, or the default when it is not one of the table's. */
export function enumSetting<T extends string>(spec: EnumSetting<T>, value: unknown): T {
  return spec.enum.includes(value as T) ? (value as T) : spec.default;
}
