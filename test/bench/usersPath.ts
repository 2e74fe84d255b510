/**
 * The users' path for the chain benchmarks: an MCP SDK client over stdio that answers the
 * per-command check's first question about a command as a person would ("Allow `true …` in this
 * Session"; later calls pass on that allow), and asks for each call's stage timings
 * (`_meta['terminalShepherd/timings']`, service/callTimings.ts). Plus a CPU-bound process to load
 * the other core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CallToolResultSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { TIMINGS_META } from '../../mcp-server/src/tools/support/callBridge';
import { connectMcpServer, toolText, type McpSession } from '../support/mcpClient';
import { summarize, type Stats } from './stats';

/** The stages of one call, in the order they happen (what the extension, the MCP server and the client report). */
export const STAGES = ['client + stdio', 'bridge', 'plan', 'checks', 'start', 'environment', 'typing', 'shell', 'completion', 'drain', 'report', 'redaction', 'ledgerReminder', 'mcpServer'] as const;

export interface UsersClient {
  /** One terminal_run; its round trip as the client sees it and its stage timings. */
  run(command: string, extra?: Record<string, unknown>): Promise<{ ms: number; result: TerminalRunResult; timings: Record<string, number> }>;
  /** Questions answered so far (one per command first seen). */
  readonly questions: string[];
  close(): Promise<void>;
}

/** The choice a person picks to stop being asked about this command in this session. */
function sessionAllow(request: ElicitRequest['params']): ElicitResult {
  const schema = 'requestedSchema' in request ? request.requestedSchema : undefined;
  const options = ((schema?.properties as Record<string, { enum?: string[] }> | undefined)?.decision?.enum ?? []) as string[];
  const allow = options.find((o) => o.endsWith('in this Session') && !o.startsWith('Allow All')) ?? options.find((o) => o === 'Run Once');
  return allow ? { action: 'accept', content: { decision: allow } } : { action: 'decline' };
}

export async function connectUsersClient(workspace: string): Promise<UsersClient> {
  const questions: string[] = [];
  const session: McpSession = await connectMcpServer({
    workspace,
    elicit: (request) => {
      questions.push(request.message);
      return Promise.resolve(sessionAllow(request));
    },
  });
  return {
    questions,
    async run(command, extra = {}) {
      const t0 = performance.now();
      const raw = (await session.client.callTool(
        { name: 'terminal_run', arguments: { command, name: 'bench', ...extra }, _meta: { [TIMINGS_META]: true } },
        CallToolResultSchema,
        { timeout: 900_000 },
      )) as CallToolResult;
      const ms = performance.now() - t0;
      if (raw.isError === true) throw new Error(`terminal_run ${command} failed: ${toolText(raw)}`);
      const result = raw.structuredContent as TerminalRunResult;
      const timings = { ...(result.timings ?? {}) };
      const serverSide = Object.entries(timings).filter(([k]) => k !== 'total').reduce((sum, [, v]) => sum + v, 0);
      timings['client + stdio'] = ms - serverSide;
      return { ms, result, timings };
    },
    close: () => session.close(),
  };
}

/** p50 of every stage over the calls' timings, in STAGES order. */
export function stageSpans(all: readonly Record<string, number>[]): { stage: string; p50: number; p95: number }[] {
  return STAGES.map((stage) => {
    const s: Stats = summarize(all.map((t) => t[stage] ?? 0));
    return { stage, p50: s.p50, p95: s.p95 };
  });
}

/** A CPU-bound process (a busy loop) on the other core while `fn` runs. */
export async function underLoad<T>(fn: () => Promise<T>): Promise<T> {
  const burner: ChildProcess = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 500)); // it is spinning
    return await fn();
  } finally {
    burner.kill('SIGKILL');
  }
}
