/** The settings the core reads, always fresh (the vscode/ adapter reads them on every use). */
import { settingsTable, type OrphanPolicy, type StrategySetting } from '../../../common/src/settings';
import { defaultVsCodeSandboxSettings, type VsCodeSandboxSettings } from './sandboxSettings';

export type { OrphanPolicy, StrategySetting };

export interface ShepherdSettings {
  readonly gracePeriodMs: number;
  readonly defaultTimeoutMs: number;
  /** How long an MCP client the MCP server does not know lets a call run before it cuts it (ms). */
  readonly clientTimeoutMs: number;
  /** A cancelled call also sends Ctrl+C to its command (opt-in; by default a cancel stops only the waiting). */
  readonly cancelInterrupts: boolean;
  /** The person's own terminalShepherd.output.limitChars; undefined when they set none (then the calling client's limit applies, else the default: output/outputLimit.ts). */
  readonly outputLimitChars: number | undefined;
  /** Shell for new managed terminals; undefined uses the editor's default profile. */
  readonly shellPath: string | undefined;
  readonly shellIntegrationTimeoutMs: number;
  /** The execution strategy a new terminal tries first ('auto': the natural order for its shell). */
  readonly strategy: StrategySetting;
  /** Show a new managed terminal in the panel (without focus) so the user sees what runs. */
  readonly revealOnCreate: boolean;
  /** Process tree poll interval while a command runs (ms). */
  readonly pollIntervalMs: number;
  /** What to do at startup with processes an earlier window left running. */
  readonly orphanPolicy: OrphanPolicy;
  /** Caps per process of a managed terminal, 0 for none (processes/processLimits.ts). */
  readonly memoryLimitMb: number;
  readonly cpuTimeLimitSeconds: number;
  /** Record what MCP clients' own tools start (service/clientProcesses.ts). */
  readonly trackClientProcesses: boolean;
  /** Replace secrets in results and logs by markers (secrets/redaction.ts). */
  readonly redactSecrets: boolean;
  /** More patterns (regular expressions) whose matches are secrets. */
  readonly redactPatterns: readonly string[];
  /** VS Code's chat.tools.terminal.preventShellHistory: agent commands stay out of the person's shell history. */
  readonly preventShellHistory: boolean;
  /** VS Code's chat.tools.global.autoApprove: nobody confirms tool calls, so a prompt for a secret cancels its command. */
  readonly globalAutoApprove: boolean;
  /** VS Code's terminal sandbox (chat.agent.sandbox.*): honoured for every command Terminal Shepherd types (core/sandbox/). */
  readonly vscodeSandbox: VsCodeSandboxSettings;
  /** Lines the rules approve unasked run in the sandbox even with VS Code's off. */
  readonly confineAutoApproved: boolean;
}

/** Every setting at its default (what a user who changed nothing gets). */
export const defaultSettings: ShepherdSettings = {
  gracePeriodMs: settingsTable['run.gracePeriodMs'].default,
  defaultTimeoutMs: settingsTable['run.defaultTimeoutMs'].default,
  clientTimeoutMs: settingsTable['run.clientTimeoutMs'].default,
  cancelInterrupts: settingsTable['run.cancelInterrupts'].default,
  outputLimitChars: undefined,
  shellPath: undefined,
  shellIntegrationTimeoutMs: settingsTable['terminal.shellIntegrationTimeoutMs'].default,
  strategy: settingsTable['terminal.strategy'].default,
  revealOnCreate: settingsTable['terminal.revealOnCreate'].default,
  pollIntervalMs: settingsTable['processes.pollIntervalMs'].default,
  orphanPolicy: settingsTable['processes.orphanPolicy'].default,
  memoryLimitMb: settingsTable['processes.memoryLimitMb'].default,
  cpuTimeLimitSeconds: settingsTable['processes.cpuTimeLimitSeconds'].default,
  trackClientProcesses: settingsTable['processes.trackClientProcesses'].default,
  redactSecrets: settingsTable['secrets.redact'].default,
  redactPatterns: settingsTable['secrets.redactPatterns'].default,
  preventShellHistory: true,
  globalAutoApprove: false,
  vscodeSandbox: defaultVsCodeSandboxSettings,
  confineAutoApproved: settingsTable['sandbox.confineAutoApproved'].default,
};
