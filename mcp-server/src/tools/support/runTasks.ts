/**
 * terminal_run as an MCP task (spec 2025-11-25; the SDK's experimental server-side tasks). A
 * client that sends `task` in tools/call (VS Code 1.139 does, when the server declares
 * tasks.requests.tools.call and the tool's execution.taskSupport allows it) gets a task at once
 * and follows it (tasks/get, tasks/result) to the result, whenever the command ends: no deadline
 * applies. A client that sends none is answered directly, by the deadline-aware call. Either way
 * the store (runTaskStore.ts) holds what a task needs and no more. tasks/cancel stops the
 * waiting, never the command, and so does a follower that stopped looking (VS Code's Stop cancels
 * its task locally and sends nothing: its polls just end), so the window can tell the person the
 * command goes on.
 */
import type { ToolTaskHandler } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Logger } from '../../../../common/src/logger';
import { TASK_POLL_MS, type RunTaskStore } from './runTaskStore';
import { progressMessage, type TaskCall, type ToolExtra } from './toolContext';

/** How often a running task's status message says how far the command got. */
const STATUS_EVERY_MS = 2000;
/**
 * A command that ends this soon is answered in the task's first reply, already completed: its
 * client reads the result at once, instead of after its first poll (a status notification sent
 * before the client has taken the task in is lost, VS Code then waits its poll interval).
 */
export const TASK_INLINE_MS = 1000;

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
