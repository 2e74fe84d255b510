/**
 * Where terminal_run's MCP tasks live (runTasks.ts runs the calls): a followed task's result until
 * its ttl passes, a direct call's until the SDK read it. A followed task nobody looks at any more
 * stops waiting; its command goes on.
 */
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../../../common/src/logger';

/** How often a follower is told to look (VS Code polls tasks/get at this pace). */
export const TASK_POLL_MS = 1000;
/** How long a finished task's result stays for its client to fetch. */
const RESULT_KEPT_MS = 10 * 60_000;
/** A followed task nobody looked at for this long (fifteen polls missed) has no follower any more. */
export const FOLLOWER_GONE_MS = 15_000;

interface Entry {
  task: Task;
  result?: Result;
  readonly sessionId: string | undefined;
  /** The client asked for a task (it follows it), rather than the SDK making one for a direct call. */
  readonly followed: boolean;
  readonly abort: AbortController;
  timer?: NodeJS.Timeout;
  /** When its follower last asked about it (tasks/get, or a tasks/result waiting). */
  lastLookAt: number;
}

const isFinal = (status: Task['status']): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';

export class RunTaskStore implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private nextId = 1;
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: { readonly logger?: Logger; readonly followerGoneMs?: number; readonly now?: () => number } = {},
  ) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A task whose tools/call carried `task` params: its client follows it. */
  followed(taskId: string): boolean {
    return this.entries.get(taskId)?.followed === true;
  }

  /** Aborted when the task is cancelled (tasks/cancel) or the server closes. */
  signal(taskId: string): AbortSignal {
    return this.entries.get(taskId)?.abort.signal ?? AbortSignal.abort();
  }

  async createTask(params: CreateTaskOptions, _requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const taskId = `run-${this.nextId++}-${Date.now().toString(36)}`;
    const now = new Date().toISOString();
    const task: Task = { taskId, status: 'working', ttl: params.ttl ?? null, createdAt: now, lastUpdatedAt: now, pollInterval: params.pollInterval ?? TASK_POLL_MS };
    const followed = typeof request.params === 'object' && request.params !== null && 'task' in request.params && request.params.task !== undefined;
    this.entries.set(taskId, { task, sessionId, followed, abort: new AbortController(), lastLookAt: this.now });
    if (followed) this.watchFollowers();
    return { ...task };
  }

  /** A look by the task's follower (tasks/get, or tasks/result waiting): it is still there. */
  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const entry = this.lookup(taskId, sessionId);
    if (entry) entry.lastLookAt = this.now;
    return entry ? { ...entry.task } : null;
  }

  /** The task as it stands, for the server's own use: not a look by its follower. */
  peek(taskId: string): Task | undefined {
    const entry = this.entries.get(taskId);
    return entry ? { ...entry.task } : undefined;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    const entry = this.required(taskId, sessionId);
    if (isFinal(entry.task.status)) throw new Error(`Task ${taskId} already ended (${entry.task.status})`);
    entry.result = result;
    this.setStatus(entry, status);
  }

  /** A direct call's result is read once, by the SDK, and then forgotten. */
  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const entry = this.required(taskId, sessionId);
    if (!entry.result) throw new Error(`Task ${taskId} has no result yet`);
    if (!entry.followed) this.forget(taskId);
    return entry.result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    const entry = this.required(taskId, sessionId);
    if (isFinal(entry.task.status)) throw new Error(`Task ${taskId} already ended (${entry.task.status})`);
    if (statusMessage !== undefined) entry.task.statusMessage = statusMessage;
    this.setStatus(entry, status);
    if (status === 'cancelled') entry.abort.abort();
  }

  async listTasks(_cursor?: string, sessionId?: string): Promise<{ tasks: Task[] }> {
    return { tasks: [...this.entries.values()].filter((e) => e.followed && (sessionId === undefined || e.sessionId === undefined || e.sessionId === sessionId)).map((e) => ({ ...e.task })) };
  }

  /** The server closes: waits end (the commands go on), timers stop. */
  dispose(): void {
    for (const taskId of [...this.entries.keys()]) this.forget(taskId);
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  /** While followed tasks run: one that nobody looks at any more stops waiting (its command goes on). */
  private watchFollowers(): void {
    const goneMs = this.options.followerGoneMs ?? FOLLOWER_GONE_MS;
    this.watchdog ??= setInterval(() => {
      const running = [...this.entries.values()].filter((e) => e.followed && !isFinal(e.task.status));
      for (const entry of running) {
        if (this.now - entry.lastLookAt > goneMs && !entry.abort.signal.aborted) {
          this.options.logger?.info(`task ${entry.task.taskId}: its client stopped following it (no look in ${goneMs} ms); stopped waiting, the command goes on`);
          entry.abort.abort();
        }
      }
      if (running.length === 0) {
        clearInterval(this.watchdog);
        this.watchdog = undefined;
      }
    }, Math.max(50, Math.round(goneMs / 3)));
    this.watchdog.unref();
  }

  private setStatus(entry: Entry, status: Task['status']): void {
    entry.task.status = status;
    entry.task.lastUpdatedAt = new Date().toISOString();
    if (isFinal(status) && entry.followed) {
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => this.forget(entry.task.taskId), Math.max(RESULT_KEPT_MS, entry.task.ttl ?? 0));
      entry.timer.unref();
    }
  }

  private forget(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.abort.abort();
    this.entries.delete(taskId);
  }

  private lookup(taskId: string, sessionId: string | undefined): Entry | undefined {
    const entry = this.entries.get(taskId);
    return entry && (sessionId === undefined || entry.sessionId === undefined || entry.sessionId === sessionId) ? entry : undefined;
  }

  private required(taskId: string, sessionId: string | undefined): Entry {
    const entry = this.lookup(taskId, sessionId);
    if (!entry) throw new Error(`Task ${taskId} not found`);
    return entry;
  }
}
