/**
 * The bridge protocol between the extension (server) and the MCP server (client): method names,
 * zod schemas for every message, error codes. Both sides import this one module and validate
 * what they receive with it, so a message that drifts fails loudly at the boundary.
 */
import { z } from 'zod';
import { describeZodError, helloParamsSchema, helloResultSchema, listingParamsSchema, progressNotificationSchema, requestMetaSchema, type RequestMeta } from './basics';
import { inputParamsSchema, listResultSchema, runParamsSchema, stateParamsSchema } from './terminal';
import { clientAttachParamsSchema, clientAttachResultSchema, killProcessParamsSchema, killResultSchema, ledgerSummarySchema, listProcessesResultSchema } from './processes';
import { terminalRunResultSchema } from './runResult';
import { workspaceInfoResultSchema } from './workspace';

export * from './basics';
export * from './runResult';
export * from './terminal';
export * from './processes';
export * from './workspace';
export * from './approval';

// The method table: one entry per bridge message, with its schemas.

/** The params of a method that takes none: strict like every other, so a stray field is refused. */
export const emptyParamsSchema = z.object({}).strict();

export const methods = {
  hello: { name: 'bridge/hello', params: helloParamsSchema, result: helloResultSchema },
  run: { name: 'terminal/run', params: runParamsSchema, result: terminalRunResultSchema },
  state: { name: 'terminal/state', params: stateParamsSchema, result: terminalRunResultSchema },
  input: { name: 'terminal/input', params: inputParamsSchema, result: terminalRunResultSchema },
  list: { name: 'terminal/list', params: listingParamsSchema, result: listResultSchema },
  listProcesses: { name: 'process/list', params: listingParamsSchema, result: listProcessesResultSchema },
  killProcess: { name: 'process/kill', params: killProcessParamsSchema, result: killResultSchema },
  killOrphans: { name: 'process/killOrphans', params: emptyParamsSchema, result: killResultSchema },
  ledgerSummary: { name: 'process/summary', params: emptyParamsSchema, result: ledgerSummarySchema },
  workspaceInfo: { name: 'workspace/info', params: emptyParamsSchema, result: workspaceInfoResultSchema },
  attachClient: { name: 'client/attach', params: clientAttachParamsSchema, result: clientAttachResultSchema },
} as const;

export const notifications = {
  progress: { name: 'terminal/progress', params: progressNotificationSchema },
  /** The ledger summary as a request that asked for it (meta.reminder) is answered, sent just before the answer. */
  ledgerReminder: { name: 'ledger/reminder', params: ledgerSummarySchema },
} as const;

export type MethodKey = keyof typeof methods;
export type ParamsOf<K extends MethodKey> = z.infer<(typeof methods)[K]['params']>;
export type ResultOf<K extends MethodKey> = z.infer<(typeof methods)[K]['result']>;

export type ParsedRequest<K extends MethodKey> =
  | { readonly success: true; readonly params: ParamsOf<K>; readonly meta: RequestMeta }
  | { readonly success: false; readonly error: string };

/**
 * The server's reading of a request's positional params (`[params]` or `[params, meta]`; a request
 * sent with params by name arrives as `[params]`), each strictly validated.
 */
export function parseRequestArguments<K extends Exclude<MethodKey, 'hello'>>(key: K, args: readonly unknown[]): ParsedRequest<K> {
  const method = methods[key];
  if (args.length > 2) {
    return { success: false, error: `${method.name} takes its params and at most one metadata object, not ${args.length} positional params` };
  }
  const params = method.params.safeParse(args[0] ?? {});
  if (!params.success) {
    return { success: false, error: describeZodError(params.error) };
  }
  const meta = requestMetaSchema.safeParse(args[1] ?? {});
  if (!meta.success) {
    return { success: false, error: `request metadata: ${describeZodError(meta.error)}` };
  }
  return { success: true, params: params.data as ParamsOf<K>, meta: meta.data };
}
