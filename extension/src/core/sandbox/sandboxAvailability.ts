/**
 * Whether the sandbox can run here, asked before any sandboxed command is typed (fail closed):
 * the OS (Linux and macOS through the runtime; Windows' engine, MXC, is not ours to run), the
 * programs the runtime needs on Linux (bubblewrap, socat, ripgrep), and one real run of the
 * runtime, which shows whether bubblewrap may create its namespaces here. VS Code's messages.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { RunnerCommand } from './sandboxLine';

export type SandboxAvailability =
  | { readonly kind: 'available' }
  | { readonly kind: 'unsupported'; readonly platform: string }
  | { readonly kind: 'missing'; readonly dependencies: readonly string[] }
  | { readonly kind: 'namespaceRefused'; readonly detail: string };

/** The Debian/Ubuntu package of each program the runtime needs on Linux. */
export const LINUX_DEPENDENCIES: ReadonlyArray<{ readonly program: string; readonly packageName: string }> = [
  { program: 'bwrap', packageName: 'bubblewrap' },
  { program: 'socat', packageName: 'socat' },
  { program: 'rg', packageName: 'ripgrep' },
];

const PROBE_TIMEOUT_MS = 10_000;

/** The programs of LINUX_DEPENDENCIES found on none of PATH's folders, by package name. */
export function missingDependencies(pathVariable: string, extraDirs: readonly string[] = []): string[] {
  const dirs = [...pathVariable.split(path.delimiter), ...extraDirs].filter((dir) => dir.length > 0);
  return LINUX_DEPENDENCIES.filter(({ program }) => !dirs.some((dir) => isExecutable(path.join(dir, program)))).map((d) => d.packageName);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The runtime run once on `true` under a policy file the caller wrote: a refusal (bubblewrap's
 * "setting up uid map: Permission denied", AppArmor's user-namespace restriction) shows here.
 */
export function probeRuntime(runner: RunnerCommand, policyPath: string, env: NodeJS.ProcessEnv): Promise<SandboxAvailability> {
  return new Promise((resolve) => {
    execFile(runner.execPath, [runner.runnerPath, policyPath, 'true'], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) resolve({ kind: 'available' });
      else resolve({ kind: 'namespaceRefused', detail: (stderr.trim() || error.message).split('\n').slice(-3).join(' ') });
    });
  });
}
