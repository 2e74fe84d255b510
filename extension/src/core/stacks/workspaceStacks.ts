/**
 * The workspace's stack analysis, cached: computed once, handed out from memory, and computed
 * again (debounced) after a file that matters changed — a detection file, or a folder that could
 * hold a project appearing or going. The file watcher lives in vscode/ and calls invalidate();
 * every new analysis is logged.
 */
import path from 'node:path';
import type { Logger } from '../../../../common/src/logger';
import type { WorkspaceAnalysis } from '../../../../common/src/protocol';
import { Emitter, type Disposable } from '../events';
import { analyzeWorkspace, defaultDetectOptions, isInIgnoredFolder, type DetectOptions } from './detectStacks';
import { DETECTION_FILE_NAMES } from './stackTable';

export interface WorkspaceStacksOptions {
  /** The workspace folders on disk, first one first; read at each analysis. */
  readonly roots: () => readonly string[];
  readonly logger: Logger;
  readonly detect?: Partial<DetectOptions>;
  /** Quiet time after the last relevant change before analysing again. */
  readonly debounceMs?: number;
}

const DEFAULT_DEBOUNCE_MS = 500;

export class WorkspaceStacks implements Disposable {
  private cached: WorkspaceAnalysis | undefined;
  private pending: Promise<WorkspaceAnalysis | undefined> | undefined;
  /** Bumped by every relevant change: an analysis started before it is stale when it ends. */
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly changeEmitter = new Emitter<WorkspaceAnalysis>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly options: WorkspaceStacksOptions) {}

  /** The analysis: from memory when nothing changed since, otherwise computed now. Undefined without a folder. */
  analysis(): Promise<WorkspaceAnalysis | undefined> {
    if (this.cached) return Promise.resolve(this.cached);
    this.pending ??= this.compute().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** The cached analysis only (no I/O). */
  peek(): WorkspaceAnalysis | undefined {
    return this.cached;
  }

  /**
   * A file or folder changed at `fsPath` (undefined: something, unknown). Changes that cannot
   * alter the analysis (a source file, anything under node_modules) are ignored.
   */
  invalidate(fsPath?: string): void {
    if (this.disposed || (fsPath !== undefined && !this.relevant(fsPath))) return;
    this.generation++;
    this.cached = undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.analysis();
    }, this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    this.timer.unref();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.changeEmitter.dispose();
  }

  private relevant(fsPath: string): boolean {
    const root = this.options.roots().find((r) => !path.relative(r, fsPath).startsWith('..'));
    if (root === undefined) return false;
    const rel = path.relative(root, fsPath);
    if (isInIgnoredFolder(rel)) return false;
    const name = path.basename(fsPath);
    // A name without an extension may be a folder created or deleted (a new package of a monorepo).
    return DETECTION_FILE_NAMES.has(name) || !name.includes('.');
  }

  private async compute(): Promise<WorkspaceAnalysis | undefined> {
    const roots = this.options.roots();
    if (roots.length === 0) return undefined;
    const generation = this.generation;
    let analysis: WorkspaceAnalysis;
    try {
      analysis = await analyzeWorkspace(roots, { ...defaultDetectOptions, ...this.options.detect });
    } catch (error) {
      this.options.logger.warn('stacks: detecting the workspace stacks failed', error);
      return undefined;
    }
    if (this.disposed) return analysis;
    this.options.logger.info(describeAnalysis(analysis));
    if (generation === this.generation) {
      this.cached = analysis; // a change during the scan leaves it uncached: the next call scans again
    }
    this.changeEmitter.fire(analysis);
    return analysis;
  }
}

/** One log line: what was found, where, and what it cost. */
export function describeAnalysis(a: WorkspaceAnalysis): string {
  const stacks = a.detectedStacks.length > 0 ? a.detectedStacks.join(', ') : 'no known stack';
  const projects = a.projects.map((p) => p.path).join(', ');
  const commands = a.devCommands.map((c) => `\`${c.command}\`${c.cwd === '.' ? '' : ` in ${c.cwd}`}`).join(', ');
  return (
    `stacks: ${stacks}` +
    (a.projects.length > 0 ? ` in ${a.projects.length} project(s) (${projects})` : '') +
    (commands ? `; dev servers: ${commands}` : '') +
    `; scanned in ${a.scanMs} ms${a.truncated ? ' (stopped at the scan bounds: deeper projects may be missing)' : ''}`
  );
}
