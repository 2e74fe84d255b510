/**
 * A stand-in for a model API on 127.0.0.1, for real MCP clients that take their model's base URL
 * (Claude Code: ANTHROPIC_BASE_URL; opencode: a provider's baseURL; Codex: a model provider's
 * base_url; Gemini CLI: GOOGLE_GEMINI_BASE_URL). The model plays a script: each step calls one tool (by its MCP name, such as
 * "terminal_run": it is matched against the tools the client offers, whatever prefix the client
 * gives them) or answers with text. The server keeps no conversation state of its own: the client
 * sends the whole conversation with every request, so the next step is the number of the script's
 * tool calls already answered there. It records every request, the tools offered, and every tool
 * result the client sent back, which is what the model would have read.
 *
 *   const model = await startScriptedModel({ steps: [{ call: { tool: 'terminal_run', input: { command: 'echo hi' } } }, { text: 'done' }] });
 *   // claude -p with ANTHROPIC_BASE_URL=model.url ...
 *   model.exchanges()   // [{ tool: 'mcp__terminal-shepherd__terminal_run', input, result: { text, isError, structured } }]
 *   await model.close();
 *
 * Requests that do not offer the script's tools (a client's side queries: titles, summaries,
 * quota checks) get a short text answer and do not advance the script. Wire formats live in
 * protocol adapters (scriptedModelProtocols.ts): the Anthropic Messages API, the OpenAI
 * Responses API and the Gemini API, streamed or not.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessages, geminiGenerateContent, openAiResponses, type ModelProtocol, type ParsedRequest, type Reply } from './scriptedModelProtocols';

/** One step of the script: a tool call, or a text answer (which ends the model's turn). */
export type ScriptStep = { readonly call: { readonly tool: string; readonly input: Record<string, unknown> } } | { readonly text: string };

/** A tool result as the client sent it back to the model. */
export interface SentToolResult {
  /** The text the model reads (text blocks joined). */
  readonly text: string;
  readonly isError: boolean;
  /** The block exactly as sent, for checks on its form. */
  readonly raw: unknown;
}

/** One scripted tool call and what came back for it. */
export interface ToolExchange {
  readonly id: string;
  /** The tool's name as the client offered it (e.g. mcp__terminal-shepherd__terminal_run). */
  readonly tool: string;
  readonly input: Record<string, unknown>;
  /** Absent until the client sent the result. */
  readonly result?: SentToolResult;
  /** When the model answered with the call, and when the request carrying its result came (Date.now): the call's round trip as the model sees it. */
  readonly calledAt: number;
  readonly answeredAt?: number;
}

export interface RecordedRequest {
  readonly at: number;
  readonly path: string;
  readonly protocol: string;
  /** Names of the tools the request offered the model. */
  readonly tools: readonly string[];
  /** Whether the request offered the script's tools (the agent's own turn, not a side query). */
  readonly scripted: boolean;
  readonly body: unknown;
  /** Ids of the tool results the request carried (the script's and the client's own). */
  readonly toolResults: readonly string[];
  /** What the model answered: a tool call or text. */
  readonly reply: Reply;
}

export interface ScriptedModelOptions {
  readonly steps: readonly ScriptStep[];
  /** The answer once the script has played out (default "Done."). */
  readonly finalText?: string;
  /** The answer to a side query (default "OK."). */
  readonly sideText?: string;
}

export interface ScriptedModel {
  /** http://127.0.0.1:PORT (no trailing slash). */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Every scripted tool call made so far, with the result the client sent back for it. */
  exchanges(): ToolExchange[];
  /** The tools the agent's own requests offered (the last such request's list). */
  offeredTools(): readonly string[];
  /** Requests that were not understood (unknown path, bad JSON): a test fails on them. */
  readonly errors: readonly string[];
  close(): Promise<void>;
}

const PROTOCOLS: readonly ModelProtocol[] = [anthropicMessages, openAiResponses, geminiGenerateContent];
/** Largest request body accepted (a client sends the whole conversation each time). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Resolves a scripted tool name against the offered ones: exact, or the one offered name that ends with it after a separator (`mcp__server__x`, `server.x`, the Copilot CLI's `server-x`). */
export function resolveOfferedTool(name: string, offered: readonly string[]): string | undefined {
  if (offered.includes(name)) return name;
  const matches = offered.filter((t) => ['_', '.', '-'].some((separator) => t.endsWith(`${separator}${name}`)));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The script's reply to one parsed request (pure: the whole state is in the request). */
export function planReply(options: ScriptedModelOptions, request: ParsedRequest, idFor: (step: number) => string): { reply: Reply; scripted: boolean; step?: number } {
  const callSteps = options.steps.map((s) => ('call' in s ? s.call.tool : undefined));
  const scripted = callSteps.some((tool) => tool !== undefined && resolveOfferedTool(tool, request.tools) !== undefined) || (callSteps.every((t) => t === undefined) && request.tools.length > 0);
  if (!scripted) return { reply: { text: options.sideText ?? 'OK.' }, scripted };
  // Our calls answered so far = the step to play now (ids carry their step number).
  const answered = request.toolResults.filter((r) => parseStepId(r.id) !== undefined).length;
  const step = options.steps[answered];
  if (!step) return { reply: { text: options.finalText ?? 'Done.' }, scripted };
  if ('text' in step) return { reply: { text: step.text }, scripted, step: answered };
  const tool = resolveOfferedTool(step.call.tool, request.tools);
  if (!tool) return { reply: { text: `(the script wanted ${step.call.tool}, which was not offered)` }, scripted, step: answered };
  return { reply: { toolUse: { id: idFor(answered), name: tool, input: step.call.input } }, scripted, step: answered };
}

const STEP_ID = /^(?:toolu_|call_)?shep(\d+)x/;
function parseStepId(id: string): number | undefined {
  const m = STEP_ID.exec(id);
  return m ? Number(m[1]) : undefined;
}

export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const errors: string[] = [];
  const calls = new Map<string, { tool: string; input: Record<string, unknown>; calledAt: number }>();
  const results = new Map<string, { result: SentToolResult; answeredAt: number }>();
  const nonce = Math.random().toString(36).slice(2, 8);
  const ownId = new RegExp(`shep\\d+x${nonce}\\d+`);
  let served = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const url = (req.url ?? '/').split('?')[0]!;
      const protocol = PROTOCOLS.find((p) => req.method === 'POST' && p.paths.some((suffix) => url.endsWith(suffix)));
      if (!protocol) {
        // Clients probe a few endpoints (HEAD /, model lists); an empty answer is enough.
        if (req.method !== 'GET' && req.method !== 'HEAD') errors.push(`${req.method} ${url}: not a model endpoint`);
        res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 200 : 404, { 'content-type': 'application/json' }).end(req.method === 'HEAD' ? undefined : '{}');
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        errors.push(`${url}: the body is not JSON (${(error as Error).message})`);
        res.writeHead(400).end();
        return;
      }
      const parsed = protocol.parse(body);
      const arrivedAt = Date.now();
      for (const r of parsed.toolResults) if (ownId.test(r.id) && !results.has(r.id)) results.set(r.id, { result: r.result, answeredAt: arrivedAt });
      // Unique per reply: a client that runs the script twice (two sessions) gets new ids.
      // Only this model's calls count: a conversation may carry an earlier model's (an earlier turn of the same chat).
      const own = { ...parsed, toolResults: parsed.toolResults.filter((r) => ownId.test(r.id)) };
      const plan = planReply(options, own, (step) => protocol.callId(`shep${step}x${nonce}${++served}`));
      requests.push({ at: Date.now(), path: url, protocol: protocol.name, tools: parsed.tools, scripted: plan.scripted, body, toolResults: parsed.toolResults.map((r) => r.id), reply: plan.reply });
      if (plan.reply.toolUse) calls.set(plan.reply.toolUse.id, { tool: plan.reply.toolUse.name, input: plan.reply.toolUse.input, calledAt: Date.now() });
      protocol.respond(res, plan.reply, parsed.stream, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    errors,
    exchanges: () => [...calls].map(([id, call]) => ({ id, ...call, ...results.get(id) })),
    offeredTools: () => [...requests].reverse().find((r) => r.scripted)?.tools ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
