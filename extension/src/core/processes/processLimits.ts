/**
 * Caps on what an agent's terminal may use, where the OS allows it cheaply: on Linux the shell's
 * own resource limits, set once when the terminal opens (`prlimit --pid`, util-linux), which
 * every command it starts inherits. They are per process, not per tree: RLIMIT_DATA (memory a
 * process may allocate; unlike RLIMIT_AS it leaves V8's and the JVM's address-space reservations
 * alone) and RLIMIT_CPU (CPU seconds: SIGXCPU at the cap, SIGKILL a second later). A cgroup
 * (`systemd-run --user --scope`, a delegated cgroup v2) would cap a whole tree, but needs a user
 * systemd or a writable cgroup with the memory controller, which many machines (containers, CI
 * runners, this project's own test machine) lack; docs/ledger.md says what each OS offers.
 */
import { runCommand, type CommandOutput } from './runCommand';

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

/** Output of a program that could not allocate: Python, Node, C/C++ runtimes, shells. */
const OUT_OF_MEMORY = /MemoryError|out of memory|Cannot allocate memory|bad_alloc|ENOMEM|xmalloc: cannot allocate|Allocation failed/i;
/** 128 + SIGXCPU (24): the shell's exit code for a command the CPU cap stopped. */
const CPU_CAP_EXIT = 152;

/** Which cap most likely ended a command that exited with `exitCode` and printed `output`; undefined when none did. */
export function capThatEnded(limits: ProcessLimits, exitCode: number | undefined, output: string): 'memory' | 'cpuTime' | undefined {
  if (exitCode === undefined || exitCode === 0) return undefined;
  if (limits.cpuSeconds !== undefined && (exitCode === CPU_CAP_EXIT || /CPU time limit exceeded/.test(output))) return 'cpuTime';
  if (limits.memoryBytes !== undefined && OUT_OF_MEMORY.test(output)) return 'memory';
  return undefined;
}

/** What the result says when a cap ended its command. */
export function capMessage(cap: 'memory' | 'cpuTime', limits: ProcessLimits): string {
  return cap === 'cpuTime'
    ? `The CPU-time cap ended it: each process of this terminal may use ${limits.cpuSeconds} CPU seconds (terminalShepherd.processes.cpuTimeLimitSeconds).`
    : `It ran out of memory under the memory cap: each process of this terminal may allocate ${Math.round((limits.memoryBytes ?? 0) / 1048576)} MB (terminalShepherd.processes.memoryLimitMb).`;
}

/** The caps the settings ask for (0 is none). */
export function limitsFromSettings(settings: { readonly memoryLimitMb: number; readonly cpuTimeLimitSeconds: number }): ProcessLimits {
  return {
    ...(settings.memoryLimitMb > 0 ? { memoryBytes: Math.round(settings.memoryLimitMb * 1048576) } : {}),
    ...(settings.cpuTimeLimitSeconds > 0 ? { cpuSeconds: Math.round(settings.cpuTimeLimitSeconds) } : {}),
  };
}
