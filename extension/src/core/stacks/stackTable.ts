/**
 * What workspace_info tells the model about the stacks, as data: which files mark a stack, the
 * processes it is expected to run, and which package.json scripts (by name or by what they run)
 * start a long-running dev server or watcher, so the model runs the project's own dev command.
 * Pure data plus two small matchers; detectStacks.ts applies it to a folder.
 */

export interface StackDefinition {
  /** Display name, e.g. "pnpm", "Django". */
  readonly name: string;
  /** File names in a project folder that mark the stack (any one is enough). */
  readonly detectionFiles: readonly string[];
  /** Script names (package.json, deno.json tasks) that indicate a long-running dev server or watcher. */
  readonly devServerPatterns: readonly RegExp[];
  /** Names for WorkspaceAnalysis.expectedProcesses. */
  readonly expectedProcesses: readonly string[];
}

/** Script names of long-running commands: `dev`, `start`, `serve`, `watch`, `preview`, `dev:web`, `start:api`. */
const LONG_RUNNING_SCRIPT = /^(dev|develop|start|serve|server|watch|preview)(?:[:_-].*)?$/;

/** Script bodies that run a dev server whatever the script is called (`vite build` and friends are builds). */
export const DEV_SERVER_TOOLS: readonly RegExp[] = [
  /(^|\s|\/)(vite(?!\s+(build|optimize))|next\s+dev|nuxt\s+dev|nuxi\s+dev|astro\s+dev|remix\s+dev|react-scripts\s+start|vue-cli-service\s+serve|ng\s+serve|webpack(-dev-server|\s+serve)|rsbuild\s+dev|parcel(?!\s+build)|nodemon|ts-node-dev|http-server|live-server|serve)(\s|$)/,
];
/** Watchers: `--watch`, `tsc -w`, `tsx watch`. */
const WATCH = /\s(--watch|-w)(\s|=|$)|(^|\s)tsx\s+watch\b/;
/** Bodies of one-shot commands that sometimes hide behind a `start` name. */
const ONE_SHOT = /^(tsc|node\s+\S*build\S*|rimraf|eslint|jest|vitest\s+run|mocha)(\s|$)/;

export const STACKS: readonly StackDefinition[] = [
  { name: 'Node.js', detectionFiles: ['package.json'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['node', 'npm', 'npx'] },
  { name: 'npm', detectionFiles: ['package-lock.json', 'npm-shrinkwrap.json'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['npm', 'node'] },
  { name: 'pnpm', detectionFiles: ['pnpm-lock.yaml', 'pnpm-workspace.yaml'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['pnpm', 'node'] },
  { name: 'Yarn', detectionFiles: ['yarn.lock', '.yarnrc.yml'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['yarn', 'node'] },
  { name: 'Bun', detectionFiles: ['bun.lockb', 'bun.lock', 'bunfig.toml'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['bun'] },
  { name: 'Deno', detectionFiles: ['deno.json', 'deno.jsonc', 'deno.lock'], devServerPatterns: [LONG_RUNNING_SCRIPT], expectedProcesses: ['deno'] },
  { name: 'TypeScript', detectionFiles: ['tsconfig.json'], devServerPatterns: [/^watch/], expectedProcesses: ['tsc', 'ts-node'] },
  { name: 'Rust', detectionFiles: ['Cargo.toml'], devServerPatterns: [], expectedProcesses: ['cargo', 'rustc'] },
  { name: 'Python', detectionFiles: ['pyproject.toml', 'requirements.txt', 'setup.py', 'setup.cfg', 'Pipfile', 'manage.py'], devServerPatterns: [], expectedProcesses: ['python', 'pip', 'poetry'] },
  { name: 'Django', detectionFiles: ['manage.py'], devServerPatterns: [/^runserver$/], expectedProcesses: ['python'] },
  { name: 'Go', detectionFiles: ['go.mod'], devServerPatterns: [], expectedProcesses: ['go'] },
  { name: 'Ruby', detectionFiles: ['Gemfile'], devServerPatterns: [], expectedProcesses: ['ruby', 'bundle'] },
  { name: 'Rails', detectionFiles: ['bin/rails'], devServerPatterns: [/^server$/], expectedProcesses: ['ruby', 'puma'] },
  {
    name: 'Docker Compose',
    detectionFiles: ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml'],
    devServerPatterns: [],
    expectedProcesses: ['docker'],
  },
];

/** Every file name the table looks for (a watcher's filter). Paths with a folder (bin/rails) count by their last part. */
export const DETECTION_FILE_NAMES: ReadonlySet<string> = new Set(
  STACKS.flatMap((s) => s.detectionFiles.map((f) => f.slice(f.lastIndexOf('/') + 1))),
);

/** Whether a command line asks its tool for watch mode (`--watch`, `-w`, `tsx watch`). */
export function isWatchCommand(command: string): boolean {
  return WATCH.test(` ${command.trim()}`);
}

/** Whether a package.json (or deno.json) script is a long-running dev server or watcher, by its name or its body. */
export function isDevScript(name: string, body: string): boolean {
  const command = body.trim();
  if (isWatchCommand(command)) return true;
  if (LONG_RUNNING_SCRIPT.test(name)) return !ONE_SHOT.test(command);
  return DEV_SERVER_TOOLS.some((p) => p.test(command));
}
