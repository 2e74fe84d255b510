/**
 * The sandbox runtime's configuration for one command, built as VS Code's terminal sandbox builds
 * it (chatAgentTools' terminalSandboxService, Linux and macOS): writes only in the workspace
 * folders, the window's sandbox temp folder and what `fileSystem.*.allowWrite` adds; the home
 * folder unreadable except the workspace, the writable folders, the runtime and the caches of the
 * tools the line calls; the network open or closed as `allowNetwork` says.
 */
import { commandWords } from './commandWords';
import type { VsCodeSandboxSettings } from '../sandboxSettings';
import { toolReadPaths, toolRuntimeOptions, type SandboxOs } from './toolPaths';

/** What the runtime reads (the subset of @anthropic-ai/sandbox-runtime's SandboxRuntimeConfig we write). */
export interface SandboxRuntimeConfig {
  /** Absent `allowedDomains` means no network restriction at all (sandboxRunner.ts). */
  readonly network: { readonly allowedDomains?: readonly string[]; readonly deniedDomains: readonly string[]; readonly allowAllUnixSockets?: boolean };
  readonly filesystem: { readonly denyRead: readonly string[]; readonly allowRead: readonly string[]; readonly allowWrite: readonly string[]; readonly denyWrite: readonly string[] };
  readonly [key: string]: unknown;
}

/** Where this window's sandbox stands: the folders it opens, as the vscode/ side knows them. */
export interface SandboxPlace {
  readonly os: SandboxOs;
  readonly home: string;
  readonly workspaceFolders: readonly string[];
  /** The window's sandbox temp folder (TMPDIR inside), writable. */
  readonly tempDir: string;
  /** Read-only places the runtime itself needs inside (VS Code: its app root and exec path when under the home folder). */
  readonly runtimeReadPaths: readonly string[];
}

export interface CommandPolicy {
  readonly config: SandboxRuntimeConfig;
  /** The network is open inside (allowNetwork, or a retry the person allowed). */
  readonly network: boolean;
}

export function commandPolicy(command: string, settings: VsCodeSandboxSettings, place: SandboxPlace, options: { readonly allowNetwork?: boolean } = {}): CommandPolicy {
  const expand = (p: string): string => (p === '~' ? place.home : p.startsWith('~/') ? `${place.home}/${p.slice(2)}` : p);
  const words = commandWords(command);
  const runtime = toolRuntimeOptions(words);
  const rules = settings.fileSystem;
  const allowWrite = unique([...place.workspaceFolders, place.tempDir, ...rules.allowWrite, ...runtime.allowWrite].map(expand));
  const allowRead = unique([...rules.allowRead, ...toolReadPaths(words, place.os), ...place.runtimeReadPaths, ...allowWrite].map(expand));
  // VS Code denies the whole home folder to reads; the allow-list above opens what a command needs of it.
  const denyRead = unique([...rules.denyRead, place.home].map(expand));
  const network = options.allowNetwork === true || settings.allowNetwork;
  const config: SandboxRuntimeConfig = {
    ...settings.runtime,
    network: {
      ...(network ? {} : { allowedDomains: [...settings.allowedDomains] }),
      deniedDomains: [...settings.deniedDomains],
      ...(runtime.allowAllUnixSockets ? { allowAllUnixSockets: true } : {}),
    },
    filesystem: { denyRead, allowRead, allowWrite, denyWrite: unique(rules.denyWrite.map(expand)) },
  };
  return { config, network };
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => p.length > 0))];
}
