/**
 * terminal_run as an MCP task (spec 2025-11-25; the SDK's experimental server-side tasks). A
 * client that sends `task` in tools/call (VS Code 1.139 does, when the server declares
 * tasks.requests.tools.call and the tool's execution.taskSupport allows it) gets a task at once
 * and follows it (tasks/get, tasks/result) to the result, whenever the command ends: no deadline
 * applies. A client that sends none is answered directly, by the deadline-aware call. Either way
 * the store holds what a task needs and no more: a followed task's result until its ttl passes,
 * a direct call's until the SDK read it. tasks/cancel stops the waiting, never the command, and
 * so does a follower that stopped looking (VS Code's Stop cancels its task locally and sends
 * nothing: its polls just end), so the window can tell the person the command goes on.
 */
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { ToolTaskHandler } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Logger } from '../../common/src/logger';
import { progressMessage, type TaskCall, type ToolExtra } from './toolSupport';

/** How often a follower is told to look (VS Code polls tasks/get at this pace). */
export const TASK_POLL_MS = 1000;
/** How long a finished task's result stays for its client to fetch. */
const RESULT_KEPT_MS = 10 * 60_000;
/** How often a running task's status message says how far the command got. */
const STATUS_EVERY_MS = 2000;
/**
 * A command that ends this soon is answered in the task's first reply, already completed: its
 * client reads the result at once, instead of after its first poll (a status notification sent
 * before the client has taken the task in is lost, VS Code then waits its poll interval).
 */
export const TASK_INLINE_MS = 1000;
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

/** The work of one tool call: directly (with the client's deadline) or for a task it follows. */
export type TaskWork<Args> = (args: Args, extra: ToolExtra, task: TaskCall | undefined) => Promise<CallToolResult>;

/**
 * The handler registerToolTask needs: a task for a client that asked for one (the work goes on
 * in the background and the result arrives when it ends), else the direct call answered as a
 * finished task, which the SDK hands back as the tools/call result.
 */
export function runTaskHandler<Shape extends ZodRawShapeCompat, Args>(store: RunTaskStore, tool: string, logger: Logger, ttlMs: (args: Args) => number, work: TaskWork<Args>): ToolTaskHandler<Shape> {
  const handler = {
    createTask: async (args: Args, extra: ToolExtra & { taskStore: NonNullable<ToolExtra['taskStore']> }) => {
      const created = await extra.taskStore.createTask({ ttl: ttlMs(args), pollInterval: TASK_POLL_MS });
      const { taskId } = created;
      if (!store.followed(taskId)) {
        logger.info(`${tool}: answered directly (the client asked for no task)`);
        // Straight into the store: a client that asked for no task is sent no task status.
        await store.storeTaskResult(taskId, 'completed', await work(args, extra, undefined));
        return { task: await extra.taskStore.getTask(taskId) };
      }
      let lastStatus = 0;
      // No status before the client holds the task.
      let announced = false;
      const onProgress: TaskCall['onProgress'] = (update) => {
        if (!announced || update.elapsedMs - lastStatus < STATUS_EVERY_MS) return;
        lastStatus = update.elapsedMs;
        // Through the store and a notification of our own: the SDK's updateTaskStatus reads the task back, which would count as the follower's look.
        store
          .updateTaskStatus(taskId, 'working', progressMessage(update))
          .then(async () => {
            const task = store.peek(taskId);
            if (task) await extra.sendNotification({ method: 'notifications/tasks/status', params: task });
          })
          .catch((error: unknown) => logger.debug(`task ${taskId}: status not sent`, error));
      };
      const running = work(args, extra, { signal: store.signal(taskId), onProgress });
      const early = await within(running, TASK_INLINE_MS);
      if (early) {
        logger.info(`${tool}: MCP task ${taskId} ended within ${TASK_INLINE_MS} ms: its first reply carries the result`);
        await store.storeTaskResult(taskId, 'completed', early.result);
        return { task: await extra.taskStore.getTask(taskId) };
      }
      logger.info(`${tool}: runs as MCP task ${taskId}; the client follows it to its result`);
      announced = true;
      void running
        .then((result) => extra.taskStore.storeTaskResult(taskId, 'completed', result))
        .catch((error: unknown) => logger.debug(`task ${taskId} ended without a result (cancelled, or the server closed)`, error));
      return { task: created };
    },
    getTask: (_args: Args, extra: ToolExtra & { taskId: string; taskStore: NonNullable<ToolExtra['taskStore']> }) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: (_args: Args, extra: ToolExtra & { taskId: string; taskStore: NonNullable<ToolExtra['taskStore']> }) =>
      extra.taskStore.getTaskResult(extra.taskId) as Promise<CallToolResult>,
  };
  // The SDK types the callbacks by a conditional over the input shape, unresolved for a generic one.
  return handler as unknown as ToolTaskHandler<Shape>;
}

/** The promise's value if it settles within `ms`, else undefined (it goes on). */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ result: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise.then((result) => ({ result })), new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
