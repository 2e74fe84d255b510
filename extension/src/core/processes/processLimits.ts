/**
 * Caps on what an agent's terminal may use, where the OS allows it cheaply, set once when the
 * terminal opens, on its shell, so every command it starts inherits them. On Linux:
 *
 * - per process, always: the shell's resource limits (`prlimit --pid`, util-linux): RLIMIT_DATA
 *   (memory a process may allocate; unlike RLIMIT_AS it leaves V8's and the JVM's address-space
 *   reservations alone: a runaway allocation fails with the program's own out-of-memory error)
 *   and RLIMIT_CPU (CPU seconds: SIGXCPU at the cap, SIGKILL a second later). A cgroup has no
 *   cap on CPU time (only on its rate), so the CPU cap stays per process;
 * - per tree, for memory, where a writable cgroup with the memory controller exists
 *   (treeMemoryCap.ts): the terminal's processes together, the kernel ending one at the cap.
 *
 * What a machine lacks is said, with the reason; docs/ledger.md says what each OS offers.
 */
import { runCommand, type CommandOutput } from './runCommand';
import { capTree, type TreeCap, type TreeCapSupport } from './treeMemoryCap';

export interface ProcessLimits {
  /** Bytes of data a process may allocate; undefined: no cap. */
  readonly memoryBytes?: number;
  /** CPU seconds a process may use; undefined: no cap. */
  readonly cpuSeconds?: number;
}

export type LimitOutcome = { readonly applied: true } | { readonly applied: false; readonly reason: string };

/** The prlimit arguments for `limits` on `pid` (soft = hard for memory; CPU gets SIGXCPU first, SIGKILL a second later). */
export function prlimitArgs(pid: number, limits: ProcessLimits): string[] {
  const args = ['--pid', String(pid)];
  if (limits.memoryBytes !== undefined) args.push(`--data=${limits.memoryBytes}:${limits.memoryBytes}`);
  if (limits.cpuSeconds !== undefined) args.push(`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`);
  return args;
}

/** Sets the caps on a shell; says why not where the OS (or this machine) cannot. */
export async function applyLimits(
  pid: number,
  limits: ProcessLimits,
  platform: NodeJS.Platform = process.platform,
  run: (file: string, args: readonly string[]) => Promise<CommandOutput> = (file, args) => runCommand(file, args, { timeoutMs: 5000 }),
): Promise<LimitOutcome> {
  if (limits.memoryBytes === undefined && limits.cpuSeconds === undefined) return { applied: true };
  if (platform !== 'linux') return { applied: false, reason: `no cheap way to cap another process on ${platform}` };
  const out = await run('prlimit', prlimitArgs(pid, limits));
  if (out.error || out.code !== 0) return { applied: false, reason: `prlimit failed: ${(out.stderr.trim() || out.error?.message) ?? `exit code ${out.code}`}` };
  return { applied: true };
}

/** The caps a terminal's shell got: per process (prlimit), and the memory cap on its whole tree where the machine has a cgroup for it. */
export interface AppliedCaps {
  /** The resource limits its shell carries (each process inherits its own copy); undefined when prlimit failed. */
  readonly perProcess?: ProcessLimits;
  /** The memory cap on the terminal's processes together. */
  readonly tree?: { readonly bytes: number; readonly cap: TreeCap };
  /** Why the memory cap is not per tree (no writable cgroup with the memory controller, ...). */
  readonly noTree?: string;
}

/**
 * Sets `limits` on a terminal's shell: per process, and the memory cap per tree where `support`
 * (found once per window) offers a cgroup. Undefined caps when nothing could be set, with the
 * reasons in `problems`.
 */
export async function applyCaps(
  pid: number,
  limits: ProcessLimits,
  name: string,
  support: () => Promise<TreeCapSupport>,
  platform: NodeJS.Platform = process.platform,
): Promise<{ readonly caps: AppliedCaps | undefined; readonly problems: string[] }> {
  const problems: string[] = [];
  const perProcess = await applyLimits(pid, limits, platform);
  if (!perProcess.applied) problems.push(perProcess.reason);
  let tree: AppliedCaps['tree'];
  let noTree: string | undefined;
  if (limits.memoryBytes !== undefined && platform === 'linux') {
    const found = await support();
    if (found.kind === 'none') noTree = found.reason;
    else {
      const bytes = limits.memoryBytes;
      tree = await capTree(found, pid, bytes, name).then(
        (cap) => ({ bytes, cap }),
        (error: unknown) => void (noTree = `a cgroup under ${found.parent} could not be set up: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    if (noTree) problems.push(`the memory cap is per process, not per tree: ${noTree}`);
  }
  const caps: AppliedCaps = { ...(perProcess.applied ? { perProcess: limits } : {}), ...(tree ? { tree } : {}), ...(noTree ? { noTree } : {}) };
  return { caps: caps.perProcess || caps.tree ? caps : undefined, problems };
}

/** Output of a program that could not allocate: Python, Node, C/C++ runtimes, shells. */
const OUT_OF_MEMORY = /MemoryError|out of memory|Cannot allocate memory|bad_alloc|ENOMEM|xmalloc: cannot allocate|Allocation failed/i;
/** 128 + SIGXCPU (24): the shell's exit code for a command the CPU cap stopped. */
const CPU_CAP_EXIT = 152;

/**
 * Which cap most likely ended a command that exited with `exitCode` and printed `output`
 * (`treeEnded`: the tree's cgroup ended a process during the run); undefined when none did.
 */
export function capThatEnded(caps: AppliedCaps, exitCode: number | undefined, output: string, treeEnded = false): 'memory' | 'cpuTime' | undefined {
  if (exitCode === undefined || exitCode === 0) return undefined;
  const limits = caps.perProcess ?? {};
  if (limits.cpuSeconds !== undefined && (exitCode === CPU_CAP_EXIT || /CPU time limit exceeded/.test(output))) return 'cpuTime';
  if (treeEnded || (limits.memoryBytes !== undefined && OUT_OF_MEMORY.test(output))) return 'memory';
  return undefined;
}

/** What the result says when a cap ended its command: which cap, how big, and whether it held per tree or per process. */
export function capMessage(cap: 'memory' | 'cpuTime', caps: AppliedCaps, treeEnded = false): string {
  if (cap === 'cpuTime') {
    return `The CPU-time cap ended it: each process of this terminal may use ${caps.perProcess?.cpuSeconds} CPU seconds (terminalShepherd.processes.cpuTimeLimitSeconds, a per-process resource limit).`;
  }
  const mb = (bytes: number | undefined): number => Math.round((bytes ?? 0) / 1048576);
  if (treeEnded && caps.tree) {
    return `The memory cap ended it: this terminal's processes together may use ${mb(caps.tree.bytes)} MB (terminalShepherd.processes.memoryLimitMb, per tree: ${caps.tree.cap.mechanism}), and the kernel killed a process at the cap.`;
  }
  const scope = caps.tree ? 'per process as well as per tree' : `per process only: ${caps.noTree ?? 'no per-tree cap here'}`;
  return `It ran out of memory under the memory cap: each process of this terminal may allocate ${mb(caps.perProcess?.memoryBytes)} MB (terminalShepherd.processes.memoryLimitMb, ${scope}).`;
}

/** The caps the settings ask for (0 is none). */
export function limitsFromSettings(settings: { readonly memoryLimitMb: number; readonly cpuTimeLimitSeconds: number }): ProcessLimits {
  return {
    ...(settings.memoryLimitMb > 0 ? { memoryBytes: Math.round(settings.memoryLimitMb * 1048576) } : {}),
    ...(settings.cpuTimeLimitSeconds > 0 ? { cpuSeconds: Math.round(settings.cpuTimeLimitSeconds) } : {}),
  };
}
