/**
 * A memory cap on a terminal's whole process tree (Linux), where the machine offers one cheaply: a
 * cgroup of its own for the terminal's shell, which every process it starts inherits, so ten
 * processes share the cap instead of each having it. Two ways, found once per window:
 *
 * - cgroup v1: the memory controller's hierarchy, where this process's own memory cgroup is
 *   writable (root, or a delegated hierarchy): a child cgroup there (`memory.limit_in_bytes`);
 * - cgroup v2: the parent of this process's own cgroup, when it is writable and hands the memory
 *   controller to its children (`cgroup.subtree_control`): a sibling cgroup (`memory.max`). A
 *   process moves only between cgroups under a common ancestor it may write, and v2 puts
 *   processes only in leaves, hence the sibling (systemd's delegated `user@.service` subtree).
 *
 * At the cap the kernel's OOM killer ends a process of the tree (SIGKILL); the cgroup's `oom_kill`
 * counter (v1 `memory.oom_control`, v2 `memory.events`) tells a result that the cap ended it.
 * Elsewhere (no writable cgroup, memory not delegated, a user systemd alone: moving a running
 * shell into a transient scope needs a D-Bus call and a shell inside the user manager's tree,
 * which this does not do) detection says why, and the caps stay per process (processLimits.ts).
 */
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type TreeCapSupport = { readonly kind: 'cgroup-v1' | 'cgroup-v2'; readonly parent: string } | { readonly kind: 'none'; readonly reason: string };

/** What detection reads from the OS (the real one: linuxCgroupFacts). */
export interface CgroupFacts {
  /** /proc/self/cgroup */
  readonly selfCgroup: string;
  /** /proc/self/mountinfo */
  readonly mountinfo: string;
  readonly read: (file: string) => Promise<string | undefined>;
  readonly writable: (file: string) => Promise<boolean>;
}

/** The cgroup folders this window creates are named so (a sweep removes empty ones a gone window left). */
export const CGROUP_PREFIX = 'terminal-shepherd-';

export function linuxCgroupFacts(): Promise<CgroupFacts> {
  const read = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);
  return Promise.all([read('/proc/self/cgroup'), read('/proc/self/mountinfo')]).then(([selfCgroup, mountinfo]) => ({
    selfCgroup: selfCgroup ?? '',
    mountinfo: mountinfo ?? '',
    read,
    writable: (file) => access(file, constants.W_OK).then(() => true, () => false),
  }));
}

/** Where a per-tree memory cap can go, or why none can. */
export async function detectTreeCap(facts: CgroupFacts): Promise<TreeCapSupport> {
  const mounts = parseMounts(facts.mountinfo);
  const lines = facts.selfCgroup.split('\n').map((l) => /^(\d+):([^:]*):(.*)$/.exec(l.trim())).filter((m) => m !== null);
  const why: string[] = [];
  const v1Path = lines.find((m) => m[2]!.split(',').includes('memory'))?.[3];
  const v1Mount = mounts.find((m) => m.type === 'cgroup' && m.options.split(',').includes('memory'))?.point;
  if (v1Path !== undefined && v1Mount !== undefined) {
    const own = path.join(v1Mount, v1Path);
    if ((await facts.writable(own)) && (await facts.writable(path.join(own, 'cgroup.procs')))) return { kind: 'cgroup-v1', parent: own };
    why.push(`cgroup v1: this process's memory cgroup ${own} is not writable by this user`);
  } else {
    why.push('cgroup v1: no memory controller mounted');
  }
  const v2Path = lines.find((m) => m[1] === '0' && m[2] === '')?.[3];
  const v2Mount = mounts.find((m) => m.type === 'cgroup2')?.point;
  if (v2Path !== undefined && v2Mount !== undefined) {
    const parent = path.resolve(v2Mount, `.${path.dirname(v2Path)}`);
    const handed = (await facts.read(path.join(parent, 'cgroup.subtree_control')))?.trim().split(/\s+/).filter(Boolean) ?? [];
    if (!handed.includes('memory')) {
      why.push(`cgroup v2: ${parent} hands its children no memory controller (${handed.length > 0 ? `only ${handed.join(', ')}` : 'none'})`);
    } else if (!(await facts.writable(parent)) || !(await facts.writable(path.join(parent, 'cgroup.procs')))) {
      why.push(`cgroup v2: ${parent} is not delegated to this user (not writable)`);
    } else {
      return { kind: 'cgroup-v2', parent };
    }
  } else {
    why.push('cgroup v2: not mounted');
  }
  return { kind: 'none', reason: why.join('; ') };
}

interface Mount {
  readonly point: string;
  readonly type: string;
  readonly options: string;
}

/** mountinfo: `id parent dev root point opts [tags] - type source superopts` (octal escapes in paths). */
function parseMounts(mountinfo: string): Mount[] {
  const unescape = (s: string): string => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
  const out: Mount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    const point = left?.split(' ')[4];
    const [type, , superOptions] = right?.split(' ') ?? [];
    if (point !== undefined && type !== undefined) out.push({ point: unescape(point), type, options: superOptions ?? '' });
  }
  return out;
}

/** A terminal's tree in its own cgroup with a memory cap. */
export interface TreeCap {
  /** How the tree is capped, for logs and results: "a cgroup v1 memory controller". */
  readonly mechanism: string;
  readonly dir: string;
  /** Remembers how many processes the cap has ended so far (at a run's start). */
  mark(): void;
  /** Whether the cap ended a process since the last mark(). */
  endedSinceMark(): Promise<boolean>;
  /** Removes the cgroup once it is empty (the kernel refuses while a process is in it). */
  dispose(): Promise<void>;
}

/** Puts `pid` (a terminal's shell) in a new cgroup capped at `bytes`; what its tree inherits. */
export async function capTree(support: Exclude<TreeCapSupport, { kind: 'none' }>, pid: number, bytes: number, name: string): Promise<TreeCap> {
  const v1 = support.kind === 'cgroup-v1';
  const dir = path.join(support.parent, `${CGROUP_PREFIX}${name.replace(/[^\w.-]/g, '_')}`);
  await mkdir(dir);
  try {
    await writeFile(path.join(dir, v1 ? 'memory.limit_in_bytes' : 'memory.max'), String(bytes));
    if (!v1) await writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => undefined); // at the cap it ends, not swaps (absent without swap accounting)
    await writeFile(path.join(dir, 'cgroup.procs'), String(pid));
  } catch (error) {
    await rmdir(dir).catch(() => undefined);
    throw error;
  }
  const counter = path.join(dir, v1 ? 'memory.oom_control' : 'memory.events');
  const oomKills = (): Promise<number> => readFile(counter, 'utf8').then((text) => Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0), () => 0);
  let baseline: Promise<number> = Promise.resolve(0);
  return {
    mechanism: v1 ? 'a cgroup v1 memory controller' : 'a cgroup v2 memory controller',
    dir,
    mark: () => void (baseline = oomKills()),
    endedSinceMark: async () => (await oomKills()) > (await baseline),
    dispose: () => rmdir(dir).catch(() => undefined),
  };
}

/** Removes the empty cgroups gone windows left under `parent` (the kernel refuses a cgroup a process is in). */
export async function sweepEmptyCgroups(parent: string): Promise<number> {
  const names = await readdir(parent).catch(() => [] as string[]);
  const removed = await Promise.all(names.filter((n) => n.startsWith(CGROUP_PREFIX)).map((n) => rmdir(path.join(parent, n)).then(() => true, () => false)));
  return removed.filter(Boolean).length;
}
