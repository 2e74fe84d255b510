/**
 * Stack detection for workspace_info: walks the workspace folders breadth first, bounded in
 * depth, folder count and time, skipping dependency, VCS and build folders, and turns every
 * folder holding a detection file into a project with its stacks, package manager and the
 * dev-server commands it defines (package.json scripts, deno tasks, manage.py, bin/rails,
 * compose files). Plain Node, no vscode.
 */
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import type { DevCommand, ProjectInfo, WorkspaceAnalysis } from '../../../../common/src/protocol';
import { isDevScript, STACKS } from './stackTable';

export interface DetectOptions {
  /** Folder levels below each root that are looked into (the root is level 0). */
  readonly maxDepth: number;
  /** Most folders read in one scan. */
  readonly maxFolders: number;
  /** Longest scan; past it the analysis is marked truncated. */
  readonly timeBudgetMs: number;
  /** `win32` runs Python as `python`, elsewhere `python3`. */
  readonly platform: NodeJS.Platform;
}

export const defaultDetectOptions: DetectOptions = { maxDepth: 5, maxFolders: 4000, timeBudgetMs: 1500, platform: process.platform };

/** Folders never looked into: dependencies, VCS data, build output, caches, virtual environments. */
const IGNORED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules', 'bower_components', 'jspm_packages', 'vendor',
  'dist', 'build', 'out', 'target', 'coverage', 'tmp', 'temp',
  '__pycache__', 'venv', 'env', 'site-packages',
]);

/** Hidden folders (.git, .venv, .next, .devtools, ...) hold no projects of their own. */
export function isIgnoredFolder(name: string): boolean {
  return name.startsWith('.') || IGNORED_FOLDERS.has(name);
}

/** Whether a path lies inside a folder the scan skips (so a change there cannot change the analysis). */
export function isInIgnoredFolder(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/);
  return parts.slice(0, -1).some(isIgnoredFolder);
}

const LOCKFILES: ReadonlyArray<readonly [string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['pnpm-workspace.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const PARALLEL_READS = 16;

interface Folder {
  readonly dir: string;
  readonly depth: number;
  /** The package manager of the nearest enclosing project (a monorepo's lockfile is at its root). */
  readonly inheritedManager: string | undefined;
}

/** Analyses the folders (the first is the project root; paths are relative to it). */
export async function analyzeWorkspace(roots: readonly string[], options: DetectOptions = defaultDetectOptions): Promise<WorkspaceAnalysis> {
  const started = performance.now();
  const deadline = started + options.timeBudgetMs;
  const base = roots[0] ?? '';
  const projects: ProjectInfo[] = [];
  let truncated = false;
  let read = 0;
  let queue: Folder[] = roots.map((dir) => ({ dir, depth: 0, inheritedManager: undefined }));
  while (queue.length > 0) {
    const next: Folder[] = [];
    for (let i = 0; i < queue.length; i += PARALLEL_READS) {
      if (read >= options.maxFolders || performance.now() > deadline) {
        truncated = true;
        break;
      }
      const batch = queue.slice(i, i + PARALLEL_READS);
      read += batch.length;
      const results = await Promise.all(batch.map((folder) => scanFolder(folder, base, options)));
      for (const result of results) {
        if (result.project) projects.push(result.project);
        next.push(...result.children);
      }
    }
    if (truncated) break;
    queue = next;
  }
  projects.sort((a, b) => a.path.localeCompare(b.path));
  const stacks = STACKS.filter((s) => projects.some((p) => p.stacks.includes(s.name)));
  return {
    detectedStacks: stacks.map((s) => s.name),
    projectRoot: base,
    expectedProcesses: [...new Set(stacks.flatMap((s) => s.expectedProcesses))],
    projects,
    devCommands: projects.flatMap((p) => p.devCommands),
    truncated,
    analyzedAt: new Date().toISOString(),
    scanMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

async function scanFolder(folder: Folder, base: string, options: DetectOptions): Promise<{ project?: ProjectInfo; children: Folder[] }> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(folder.dir, { withFileTypes: true });
  } catch {
    return { children: [] }; // gone, or not readable: nothing to detect there
  }
  const files = new Set<string>();
  const dirs: string[] = [];
  for (const entry of entries) {
    if (entry.isFile() || entry.isSymbolicLink()) files.add(entry.name);
    else if (entry.isDirectory() && !isIgnoredFolder(entry.name)) dirs.push(entry.name);
  }
  const project = await projectOf(folder, files, dirs.includes('bin'), base, options);
  const inheritedManager = project?.packageManager ?? folder.inheritedManager;
  const children = folder.depth < options.maxDepth ? dirs.map((name) => ({ dir: path.join(folder.dir, name), depth: folder.depth + 1, inheritedManager })) : [];
  return project ? { project, children } : { children };
}

async function projectOf(folder: Folder, files: ReadonlySet<string>, hasBin: boolean, base: string, options: DetectOptions): Promise<ProjectInfo | undefined> {
  const rails = hasBin && files.has('Gemfile') && (await isFile(path.join(folder.dir, 'bin', 'rails')));
  const found = STACKS.filter((s) => s.detectionFiles.some((f) => (f === 'bin/rails' ? rails : files.has(f))));
  if (found.length === 0) return undefined;
  const where = relativeTo(base, folder.dir);
  const pkg = files.has('package.json') ? await readJson(path.join(folder.dir, 'package.json')) : undefined;
  const isPackage = files.has('package.json');
  const known = isPackage ? (packageManagerOf(files, pkg) ?? folder.inheritedManager) : undefined;
  const manager = known ?? (isPackage ? 'npm' : undefined);
  // A package of a monorepo, or a declared packageManager, uses that manager's stack too.
  const managerStack = STACKS.find((s) => s.name.toLowerCase() === known);
  if (managerStack && !found.includes(managerStack)) found.push(managerStack);
  const stacks = STACKS.filter((s) => found.includes(s)).map((s) => s.name);
  const devCommands: DevCommand[] = [];
  for (const [name, body] of scriptsOf(pkg, 'scripts')) {
    if (isDevScript(name, body)) devCommands.push({ command: runScript(manager ?? 'npm', name), cwd: where, source: `package.json script "${name}": ${body}` });
  }
  for (const file of ['deno.json', 'deno.jsonc']) {
    if (!files.has(file)) continue;
    const deno = await readJson(path.join(folder.dir, file));
    for (const [name, body] of scriptsOf(deno, 'tasks')) {
      if (isDevScript(name, body)) devCommands.push({ command: `deno task ${name}`, cwd: where, source: `${file} task "${name}": ${body}` });
    }
  }
  if (files.has('manage.py')) {
    devCommands.push({ command: `${options.platform === 'win32' ? 'python' : 'python3'} manage.py runserver`, cwd: where, source: 'manage.py (Django)' });
  }
  if (rails) devCommands.push({ command: 'bin/rails server', cwd: where, source: 'bin/rails (Rails)' });
  const compose = ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml'].find((f) => files.has(f));
  if (compose) devCommands.push({ command: 'docker compose up', cwd: where, source: compose });
  return { path: where, stacks, ...(manager ? { packageManager: manager } : {}), devCommands };
}

/** npm, pnpm, yarn or bun: package.json's packageManager field first, then the lockfile. */
function packageManagerOf(files: ReadonlySet<string>, pkg: Record<string, unknown> | undefined): string | undefined {
  const declared = typeof pkg?.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager)?.[1] : undefined;
  return declared ?? LOCKFILES.find(([file]) => files.has(file))?.[1];
}

/** How each package manager runs a script: `npm run dev` / `npm start`, `pnpm dev`, `yarn dev`, `bun run dev`. */
export function runScript(manager: string, script: string): string {
  switch (manager) {
    case 'pnpm':
    case 'yarn':
      return `${manager} ${script}`;
    case 'bun':
      return `bun run ${script}`;
    default:
      return script === 'start' ? 'npm start' : `npm run ${script}`;
  }
}

function scriptsOf(json: Record<string, unknown> | undefined, field: string): Array<[string, string]> {
  const scripts = json?.[field];
  if (!scripts || typeof scripts !== 'object') return [];
  return Object.entries(scripts as Record<string, unknown>)
    .map(([name, body]): [string, unknown] => [name, typeof body === 'object' && body !== null ? (body as { command?: unknown }).command : body])
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    // deno.jsonc may hold comments: strip whole-line ones, the usual kind.
    const parsed: unknown = JSON.parse((await fs.readFile(file, 'utf8')).replace(/^\s*\/\/.*$/gm, ''));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // half-written or invalid: the folder still counts by its file names
  }
}

async function isFile(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** "." for the base itself, a relative path inside it, an absolute path outside (another root). */
function relativeTo(base: string, dir: string): string {
  const rel = path.relative(base, dir);
  if (rel === '') return '.';
  return rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel.split(path.sep).join('/');
}
