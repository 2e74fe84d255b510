/**
 * Calls the bridge for a tool with what the window needs to know of the client (its name,
 * deadline and output limit, or that the call is an MCP task, and the agent session it belongs
 * to), relaying progress notifications when the client asked for them and the window's questions
 * to the person through elicitation.
 */
import { methods, type ApprovalAskParams, type MethodKey, type ParamsOf, type ResultOf } from '../../../../common/src/protocol';
import { agentSessionOf } from './agentSession';
import { askThroughElicitation } from './elicitation';
import { progressMessage, type TaskCall, type ToolContext, type ToolExtra } from './toolContext';

/** A client (a benchmark) that sets this in a tools/call request's `_meta` gets the call's stage timings in its result. */
export const TIMINGS_META = 'terminalShepherd/timings';

export async function callBridge<K extends Exclude<MethodKey, 'hello'>>(
  context: ToolContext,
  key: K,
  params: ParamsOf<K>,
  extra: ToolExtra,
  progressTotalMs?: number,
  task?: TaskCall,
): Promise<ResultOf<K>> {
  const progressToken = extra._meta?.progressToken;
  const { info, deadline, resultBudget, session } = context.client();
  context.logger.debug(`${methods[key].name}${task ? ' (an MCP task)' : progressToken === undefined ? '' : ' (the client asked for progress)'}`);
  const onProgress =
    task?.onProgress ??
    (progressToken === undefined
      ? undefined
      : (update: { elapsedMs: number; outputChars: number; lastLine?: string }): void => {
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: update.elapsedMs, ...(progressTotalMs ? { total: progressTotalMs } : {}), message: progressMessage(update) },
            })
            .catch((error: unknown) => context.logger.debug('progress notification failed', error));
        });
  const agentSession = agentSessionOf(info?.name, extra._meta, session);
  const meta = {
    ...(info ? { client: { name: info.name.slice(0, 200), version: info.version.slice(0, 100) } } : {}),
    ...(task ? { task: true } : deadline),
    ...(resultBudget ? { clientOutputLimitChars: resultBudget.outputLimitChars } : {}),
    ...(agentSession ? { agentSession } : {}),
    ...(extra._meta?.[TIMINGS_META] === true ? { timings: true } : {}),
  };
  const onApprovalAsk = context.canElicit() ? (question: ApprovalAskParams, signal: AbortSignal) => askThroughElicitation(extra, question, signal) : undefined;
  return context.bridge.request(key, params, { signal: task?.signal ?? extra.signal, meta, ...(onProgress ? { onProgress } : {}), ...(onApprovalAsk ? { onApprovalAsk } : {}) });
}
