/**
 * Connecting a client: the plan (the file, its text now and with Terminal Shepherd's entry, whether
 * it lies outside the workspace and so must be shown and confirmed first) and writing it. A file
 * that changed between the plan and the write is not overwritten: the person sees the new plan.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/fsUtil';
import type { ClientContext, McpClientSpec, Scope } from './mcpClients';

export interface ConnectPlan {
  readonly spec: McpClientSpec;
  readonly scope: Scope;
  /** The file written (a symlink's target: the link stays a link). */
  readonly file: string;
  /** Its text now; undefined when it does not exist yet. */
  readonly before: string | undefined;
  readonly after: string;
  /** Terminal Shepherd's entry alone, for adding it by hand. */
  readonly entry: string;
  /** Nothing to write: the entry is there already. */
  readonly unchanged: boolean;
  /** Outside the workspace folder: shown with a diff and confirmed before it is written. */
  readonly outsideWorkspace: boolean;
}

export class ConfigChangedError extends Error {
  override readonly name = 'ConfigChangedError';
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Where a write really lands: a symlinked dotfile is written through its link. */
async function realTarget(file: string): Promise<string> {
  return fs.realpath(file).catch(() => file);
}

export function isInside(folder: string | undefined, file: string): boolean {
  if (!folder) return false;
  const relative = path.relative(folder, file);
  return relative.length > 0 && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Throws ConfigEditError when the file cannot be read as its format. */
export async function planConnect(spec: McpClientSpec, scope: Scope, ctx: ClientContext): Promise<ConnectPlan> {
  const locate = spec.scopes[scope];
  if (!locate) throw new Error(`${spec.label} has no ${scope} configuration`);
  const target = locate(ctx);
  const file = await realTarget(target.file);
  const before = await readText(file);
  const after = target.edit(before ?? '');
  return { spec, scope, file, before, after, entry: target.entry, unchanged: before === after, outsideWorkspace: !isInside(ctx.workspaceFolder, target.file) };
}

/** Writes the plan's text, keeping the file's mode (0600 for a new file in the home folder, 0644 in the project). */
export async function applyConnect(plan: ConnectPlan): Promise<void> {
  const now = await readText(plan.file);
  if (now !== plan.before) {
    throw new ConfigChangedError(`${plan.file} changed since it was shown (another program wrote it); nothing was written. Run the command again to see the new version.`);
  }
  const mode = plan.before === undefined ? (plan.outsideWorkspace ? 0o600 : 0o644) : (await fs.stat(plan.file)).mode & 0o777;
  await fs.mkdir(path.dirname(plan.file), { recursive: true });
  await writeFileAtomic(plan.file, plan.after, mode);
}
