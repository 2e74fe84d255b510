/**
 * VS Code's terminal sandbox settings (`chat.agent.sandbox.*`, VS Code 1.139), as the vscode/
 * reader hands them to the core, with VS Code's own defaults. Terminal Shepherd honours them for
 * every command it types, whichever MCP client asked.
 */

/** `chat.agent.sandbox.fileSystem.linux` / `.mac`: literal paths (`~` expanded), as VS Code reads them. */
export interface SandboxFileSystemRules {
  readonly denyRead: readonly string[];
  readonly allowRead: readonly string[];
  readonly allowWrite: readonly string[];
  readonly denyWrite: readonly string[];
}

export interface VsCodeSandboxSettings {
  /** `chat.agent.sandbox.enabled` is `on` (user, workspace or policy). */
  readonly enabled: boolean;
  /** `chat.agent.sandbox.enabledWindows` is `on`: the switch VS Code reads on Windows instead. */
  readonly enabledWindows: boolean;
  /** `chat.agent.sandbox.allowNetwork` (VS Code's default: true, every domain). */
  readonly allowNetwork: boolean;
  /** `chat.agent.sandbox.allowUnsandboxedCommands` (default true): a denied command may be offered outside the sandbox, asked. */
  readonly allowUnsandboxedCommands: boolean;
  /** `chat.agent.sandbox.retryWithAllowNetworkRequests` (default true): a command denied the network may be offered again with it, asked. */
  readonly retryWithAllowNetworkRequests: boolean;
  /** `chat.agent.sandbox.allowAutoApprove` (default true): a command that runs in the sandbox needs no approval (the floor still asks). */
  readonly allowAutoApprove: boolean;
  /** `chat.agent.sandbox.fileSystem.linux` on Linux, `.mac` on macOS. */
  readonly fileSystem: SandboxFileSystemRules;
  /** `chat.agent.allowedNetworkDomains` / `deniedNetworkDomains`: the domains a sandbox without allowNetwork may reach. */
  readonly allowedDomains: readonly string[];
  readonly deniedDomains: readonly string[];
  /** `chat.agent.sandbox.advanced.runtime`: passed through to the root of the runtime's configuration. */
  readonly runtime: Readonly<Record<string, unknown>>;
}

export const noFileSystemRules: SandboxFileSystemRules = { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] };

/** What a person who changed nothing has: the sandbox off, and VS Code's defaults for the rest. */
export const defaultVsCodeSandboxSettings: VsCodeSandboxSettings = {
  enabled: false,
  enabledWindows: false,
  allowNetwork: true,
  allowUnsandboxedCommands: true,
  retryWithAllowNetworkRequests: true,
  allowAutoApprove: true,
  fileSystem: noFileSystemRules,
  allowedDomains: [],
  deniedDomains: [],
  runtime: {},
};
