/**
 * Wire formats of the scripted model (scriptedModel.ts): each adapter reads a request (the tools
 * offered, the tool results in the conversation) and writes a reply (a tool call or text),
 * streamed as server-sent events when the client asked for a stream.
 *   - Anthropic Messages API (POST /v1/messages): Claude Code, opencode's anthropic provider.
 *   - OpenAI Responses API (POST /v1/responses): Codex.
 *   - Gemini API (POST /v1beta/models/<model>:streamGenerateContent): Gemini CLI.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { SentToolResult } from './scriptedModel';

export interface ParsedRequest {
  readonly tools: readonly string[];
  readonly toolResults: readonly { readonly id: string; readonly result: SentToolResult }[];
  readonly stream: boolean;
}

export interface Reply {
  readonly text?: string;
  readonly toolUse?: { readonly id: string; readonly name: string; readonly input: Record<string, unknown> };
}

export interface ModelProtocol {
  readonly name: string;
  /** Path endings served (a client may put a prefix such as /v1 in its base URL, or not). */
  readonly paths: readonly string[];
  /** A tool call id in this API's usual form. */
  callId(core: string): string;
  parse(body: unknown): ParsedRequest;
  respond(res: http.ServerResponse, reply: Reply, stream: boolean, body: unknown): void;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Text blocks joined: tool results come as a string or as a list of typed blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return array(content)
    .map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function sse(res: http.ServerResponse, events: readonly Json[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

function json(res: http.ServerResponse, body: Json): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const usage = { input_tokens: 100, output_tokens: 20 };

export const anthropicMessages: ModelProtocol = {
  name: 'anthropic-messages',
  paths: ['/v1/messages', '/messages'],
  callId: (core) => `toolu_${core}`,
  parse(body) {
    const request = isObject(body) ? body : {};
    const toolResults = array(request.messages).flatMap((m) =>
      isObject(m) && m.role === 'user'
        ? array(m.content).flatMap((b) =>
            isObject(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string'
              ? [{ id: b.tool_use_id, result: { text: textOf(b.content), isError: b.is_error === true, raw: b } }]
              : [],
          )
        : [],
    );
    const tools = array(request.tools).flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : []));
    return { tools, toolResults, stream: request.stream === true };
  },
  respond(res, reply, stream, body) {
    const model = isObject(body) && typeof body.model === 'string' ? body.model : 'scripted';
    const block = reply.toolUse
      ? { type: 'tool_use', id: reply.toolUse.id, name: reply.toolUse.name, input: reply.toolUse.input }
      : { type: 'text', text: reply.text ?? '' };
    const stopReason = reply.toolUse ? 'tool_use' : 'end_turn';
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    if (!stream) {
      json(res, { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    const start = reply.toolUse ? { ...block, input: {} } : { type: 'text', text: '' };
    const delta = reply.toolUse ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.toolUse.input) } : { type: 'text_delta', text: reply.text ?? '' };
    sse(res, [
      { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: start },
      { type: 'content_block_delta', index: 0, delta },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } },
      { type: 'message_stop' },
    ]);
  },
};

/** Tool names in a Responses request: functions, and `<namespace>.<function>` for those inside a namespace (Codex offers each MCP server's tools so). */
function responsesToolNames(tools: unknown): string[] {
  return array(tools).flatMap((t) => {
    if (!isObject(t) || typeof t.name !== 'string') return [];
    if (t.type === 'namespace') return array(t.tools).flatMap((f) => (isObject(f) && typeof f.name === 'string' ? [`${t.name as string}.${f.name}`] : []));
    return [t.name];
  });
}

/** A call to `<namespace>.<function>` names the function and carries its namespace. */
function callTarget(name: string): { name: string; namespace?: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { namespace: name.slice(0, dot), name: name.slice(dot + 1) } : { name };
}

export const openAiResponses: ModelProtocol = {
  name: 'openai-responses',
  paths: ['/v1/responses', '/responses'],
  callId: (core) => `call_${core}`,
  parse(body) {
    const request = isObject(body) ? body : {};
    const toolResults = array(request.input).flatMap((item) =>
      isObject(item) && (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && typeof item.call_id === 'string'
        ? [{ id: item.call_id, result: { text: textOf(item.output), isError: false, raw: item } }]
        : [],
    );
    return { tools: responsesToolNames(request.tools), toolResults, stream: request.stream === true };
  },
  respond(res, reply, stream, body) {
    const model = isObject(body) && typeof body.model === 'string' ? body.model : 'scripted';
    const responseId = `resp_${randomUUID().replace(/-/g, '')}`;
    const item = reply.toolUse
      ? { type: 'function_call', id: `fc_${randomUUID().replace(/-/g, '')}`, call_id: reply.toolUse.id, ...callTarget(reply.toolUse.name), arguments: JSON.stringify(reply.toolUse.input), status: 'completed' }
      : { type: 'message', id: `msg_${randomUUID().replace(/-/g, '')}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text ?? '', annotations: [] }] };
    const responseUsage = { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
    const response = { id: responseId, object: 'response', model, status: 'completed', output: [item], usage: responseUsage };
    if (!stream) {
      json(res, response);
      return;
    }
    sse(res, [
      { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } },
      ...(reply.toolUse ? [] : [{ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: reply.text ?? '' }]),
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response },
    ]);
  },
};

/** Gemini API function names: functionDeclarations of every tools entry. */
function geminiToolNames(tools: unknown): string[] {
  return array(tools).flatMap((t) => (isObject(t) ? array(t.functionDeclarations).flatMap((f) => (isObject(f) && typeof f.name === 'string' ? [f.name] : [])) : []));
}

export const geminiGenerateContent: ModelProtocol = {
  name: 'gemini-generate-content',
  paths: [':streamGenerateContent', ':generateContent'],
  callId: (core) => core,
  parse(body) {
    const request = isObject(body) ? body : {};
    const toolResults = array(request.contents).flatMap((c) =>
      isObject(c)
        ? array(c.parts).flatMap((p) => {
            const r = isObject(p) && isObject(p.functionResponse) ? p.functionResponse : undefined;
            if (!r || typeof r.id !== 'string') return [];
            const response = isObject(r.response) ? r.response : {};
            const text = typeof response.output === 'string' ? response.output : typeof response.error === 'string' ? response.error : JSON.stringify(response);
            return [{ id: r.id, result: { text, isError: typeof response.error === 'string', raw: r } }];
          })
        : [],
    );
    return { tools: geminiToolNames(request.tools), toolResults, stream: true };
  },
  respond(res, reply, stream) {
    const part = reply.toolUse ? { functionCall: { id: reply.toolUse.id, name: reply.toolUse.name, args: reply.toolUse.input } } : { text: reply.text ?? '' };
    const chunk = { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } };
    if (!stream) {
      json(res, chunk);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  },
};
