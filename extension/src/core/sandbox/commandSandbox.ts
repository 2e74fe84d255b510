/**
 * The window's sandbox for the commands Terminal Shepherd types: whether a command runs in it
 * (VS Code's chat.agent.sandbox.enabled, or terminalShepherd.sandbox.confineAutoApproved for a line
 * the rules approved unasked), whether it can (fail closed, with VS Code's messages), and the line
 * it is typed as, under a policy file in a private folder no sandboxed command may write.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../../../../common/src/logger';
import type { CommandSafety } from '../../../../common/src/protocol';
import { sandboxDependenciesError, sandboxNamespaceError, sandboxUnsupportedError, type ShepherdError } from '../errors';
import type { Disposable } from '../events';
import type { ShellInfo } from '../terminals/shellKind';
import { missingDependencies, probeRuntime, type SandboxAvailability } from './sandboxAvailability';
import { sandboxedLine, type RunnerCommand } from './sandboxLine';
import { commandPolicy, type SandboxPlace } from './sandboxPolicy';
import type { VsCodeSandboxSettings } from '../sandboxSettings';
import type { ShepherdSettings } from '../settings';

/** Why a command runs sandboxed: VS Code's sandbox is on, or ours confines a line approved unasked. */
export type SandboxMode = 'vscode' | 'confined';

export const VSCODE_SANDBOX_SETTING = 'chat.agent.sandbox.enabled';
export const VSCODE_SANDBOX_WINDOWS_SETTING = 'chat.agent.sandbox.enabledWindows';
export const CONFINE_SETTING = 'terminalShepherd.sandbox.confineAutoApproved';

/** What the policy file holds: the runtime's configuration and how sandboxRunner.ts starts it. */
export interface RunnerPolicy {
  readonly config: ReturnType<typeof commandPolicy>['config'];
  /** TMPDIR inside (the window's sandbox temp folder). */
  readonly tmpDir: string;
  /** Folders added to PATH for the runtime's own programs (VS Code's ripgrep). */
  readonly pathAppend: readonly string[];
}

export interface CommandSandboxDependencies {
  readonly runner: RunnerCommand;
  readonly platform: NodeJS.Platform;
  /** The folders as the window knows them now (the workspace folders change). */
  readonly place: () => Omit<SandboxPlace, 'tempDir' | 'os'>;
  /** Folders searched for the runtime's programs besides PATH (VS Code's own ripgrep). */
  readonly extraPath: readonly string[];
  readonly env: () => NodeJS.ProcessEnv;
  readonly logger: Logger;
}

/** A command about to be typed in the sandbox. */
export interface PreparedSandbox {
  readonly mode: SandboxMode;
  readonly network: boolean;
  /** The line typed instead of the command, for the terminal's shell and the directory it runs in. */
  line(cwd: string | undefined, shell: Pick<ShellInfo, 'kind' | 'path'>): string;
}

/** The mode a command runs in, or undefined when it runs as typed. */
export function sandboxMode(settings: Pick<ShepherdSettings, 'vscodeSandbox' | 'confineAutoApproved'>, platform: NodeJS.Platform, safety: CommandSafety | undefined): SandboxMode | undefined {
  const vscodeOn = platform === 'win32' ? settings.vscodeSandbox.enabledWindows : settings.vscodeSandbox.enabled;
  if (vscodeOn) return 'vscode';
  // Only what no person looked at: an answered question is the person's own decision.
  if (settings.confineAutoApproved && safety?.decision === 'approved') return 'confined';
  return undefined;
}

export class CommandSandbox implements Disposable {
  private folder: string | undefined;
  private availability: { readonly key: string; readonly answer: Promise<SandboxAvailability> } | undefined;

  constructor(private readonly deps: CommandSandboxDependencies) {}

  /** The command's sandbox, or a ShepherdError (nothing typed) when it cannot run here. */
  async prepare(command: string, mode: SandboxMode, settings: VsCodeSandboxSettings, options: { readonly allowNetwork?: boolean } = {}): Promise<PreparedSandbox> {
    const setting = mode === 'confined' ? CONFINE_SETTING : this.deps.platform === 'win32' ? VSCODE_SANDBOX_WINDOWS_SETTING : VSCODE_SANDBOX_SETTING;
    const os = this.deps.platform === 'linux' ? 'linux' : this.deps.platform === 'darwin' ? 'mac' : undefined;
    if (!os) throw sandboxUnsupportedError(setting, this.deps.platform);
    const folder = this.ensureFolder();
    const place: SandboxPlace = { ...this.deps.place(), os, tempDir: path.join(folder, 'tmp') };
    const availability = await this.checkAvailability(place, settings);
    const refusal = refusalOf(availability, setting);
    if (refusal) throw refusal;
    const policy = commandPolicy(command, settings, place, options);
    const policyPath = this.writePolicy({ config: policy.config, tmpDir: place.tempDir, pathAppend: this.deps.extraPath });
    return { mode, network: policy.network, line: (cwd, shell) => sandboxedLine(this.deps.runner, policyPath, command, cwd, shell.kind, shell.path) };
  }

  dispose(): void {
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
  }

  /** Asked once per PATH (a person who installs bubblewrap and changes nothing else is asked again on the next window). */
  private checkAvailability(place: SandboxPlace, settings: VsCodeSandboxSettings): Promise<SandboxAvailability> {
    const env = this.deps.env();
    const key = env.PATH ?? '';
    if (this.availability?.key !== key) {
      const missing = place.os === 'linux' ? missingDependencies(key, this.deps.extraPath) : [];
      const answer: Promise<SandboxAvailability> =
        missing.length > 0
          ? Promise.resolve({ kind: 'missing', dependencies: missing })
          : probeRuntime(this.deps.runner, this.writePolicy({ config: commandPolicy('true', settings, place).config, tmpDir: place.tempDir, pathAppend: this.deps.extraPath }), env);
      this.availability = { key, answer };
      void answer.then((a) => this.deps.logger.info(`sandbox: ${a.kind === 'available' ? 'available' : JSON.stringify(a)}`));
    }
    return this.availability.answer;
  }

  /** A private folder (0700): the policy files beside `tmp/`, the one place in it a sandboxed command may write. */
  private ensureFolder(): string {
    if (!this.folder) {
      this.folder = mkdtempSync(path.join(tmpdir(), 'terminal-shepherd-sandbox-'));
      mkdirSync(path.join(this.folder, 'tmp'), { mode: 0o700 });
    }
    return this.folder;
  }

  /** Named by its content: the same policy is one file, and a file is never rewritten under a running command. */
  private writePolicy(policy: RunnerPolicy): string {
    const text = JSON.stringify(policy);
    const file = path.join(this.ensureFolder(), `policy-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
    writeFileSync(file, text, { mode: 0o600 });
    return file;
  }
}

function refusalOf(availability: SandboxAvailability, setting: string): ShepherdError | undefined {
  switch (availability.kind) {
    case 'available':
      return undefined;
    case 'unsupported':
      return sandboxUnsupportedError(setting, availability.platform);
    case 'missing':
      return sandboxDependenciesError(setting, availability.dependencies);
    case 'namespaceRefused':
      return sandboxNamespaceError(setting, availability.detail);
  }
}
