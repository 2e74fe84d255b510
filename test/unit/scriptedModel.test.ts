/**
 * The scripted model the real-client tests talk to (test/support/scriptedModel.ts), over real
 * HTTP in both wire formats: the script advances by the tool results in the conversation, side
 * queries get text, streamed and plain replies carry the same call, and the tool results the
 * client sent back are recorded.
 */
import assert from 'node:assert/strict';
import { planReply, resolveOfferedTool, startScriptedModel, type ScriptedModel } from '../support/scriptedModel';

const steps = [{ call: { tool: 'terminal_run', input: { command: 'echo hi' } } }, { text: 'All done.' }] as const;

async function post(model: ScriptedModel, path: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${model.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The JSON payloads of a server-sent event stream. */
const events = (sse: string): Array<Record<string, any>> => sse.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));

describe('scripted model (the model API stand-in of the real-client tests)', () => {
  it('resolves a scripted tool against the names clients give MCP tools', () => {
    const offered = ['Bash', 'mcp__terminal-shepherd__terminal_run', 'terminal-shepherd_terminal_state', 'mcp__terminal_shepherd.terminal_list'];
    assert.equal(resolveOfferedTool('terminal_run', offered), 'mcp__terminal-shepherd__terminal_run');
    assert.equal(resolveOfferedTool('terminal_state', offered), 'terminal-shepherd_terminal_state');
    assert.equal(resolveOfferedTool('terminal_list', offered), 'mcp__terminal_shepherd.terminal_list');
    assert.equal(resolveOfferedTool('kill_process', offered), undefined);
    assert.equal(resolveOfferedTool('workspace_info', [...offered, 'terminal-shepherd-workspace_info']), 'terminal-shepherd-workspace_info', "the Copilot CLI's server-tool");
  });

  it('plays the step after the answered calls; side queries do not advance it', () => {
    const id = (n: number): string => `toolu_shep${n}xab1`;
    const tools = ['mcp__terminal-shepherd__terminal_run'];
    assert.deepEqual(planReply({ steps }, { tools, toolResults: [], stream: false }, id), { reply: { toolUse: { id: id(0), name: tools[0]!, input: { command: 'echo hi' } } }, scripted: true, step: 0 });
    const answered = [{ id: id(0), result: { text: '{}', isError: false, raw: {} } }];
    assert.deepEqual(planReply({ steps }, { tools, toolResults: answered, stream: false }, id).reply, { text: 'All done.' });
    assert.deepEqual(planReply({ steps, finalText: 'Bye.' }, { tools, toolResults: [...answered, { id: id(1), result: answered[0]!.result }], stream: false }, id).reply, { text: 'Bye.' });
    assert.deepEqual(planReply({ steps }, { tools: [], toolResults: [], stream: false }, id), { reply: { text: 'OK.' }, scripted: false });
  });

  it("a later turn of the same chat: an earlier model's calls in the conversation neither advance this script nor count as its exchanges", async () => {
    const tools = [{ name: 'Terminal-Shepherd-terminal_run', input_schema: {} }];
    const call = async (model: ScriptedModel, messages: unknown[]) => JSON.parse((await post(model, '/v1/messages', { model: 'm', tools, messages })).text).content[0];
    const first = await startScriptedModel({ steps });
    const second = await startScriptedModel({ steps });
    try {
      const earlier = await call(first, [{ role: 'user', content: 'round 1' }]);
      const history = [
        { role: 'user', content: 'round 1' },
        { role: 'assistant', content: [{ type: 'tool_use', id: earlier.id, name: earlier.name, input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: earlier.id, content: 'done' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
        { role: 'user', content: 'round 2' },
      ];
      const next = await call(second, history);
      assert.equal(next.type, 'tool_use', "round 2 starts its own script: round 1's result is not one of its calls");
      assert.notEqual(next.id, earlier.id);
      assert.deepEqual(second.exchanges().map((e) => e.result), [undefined]);
      assert.deepEqual(second.requests[0]!.toolResults, [earlier.id], 'the request log still shows every result the request carried');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('Anthropic Messages: a streamed tool_use, then the tool_result recorded and the text answer', async () => {
    const model = await startScriptedModel({ steps });
    try {
      const tools = [{ name: 'Bash', input_schema: {} }, { name: 'mcp__terminal-shepherd__terminal_run', input_schema: {} }];
      const first = await post(model, '/v1/messages', { model: 'm', stream: true, tools, messages: [{ role: 'user', content: 'run it' }] });
      assert.equal(first.type, 'text/event-stream');
      const stream = events(first.text);
      assert.deepEqual(stream.map((e) => e.type), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      const use = stream[1]!.content_block;
      assert.equal(use.name, 'mcp__terminal-shepherd__terminal_run');
      assert.deepEqual(JSON.parse(stream[2]!.delta.partial_json), { command: 'echo hi' });
      assert.equal(stream[4]!.delta.stop_reason, 'tool_use');
      const second = await post(model, '/v1/messages', {
        model: 'm',
        tools,
        messages: [
          { role: 'user', content: 'run it' },
          { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: use.name, input: { command: 'echo hi' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: '{"status":"completed"}' }] }] },
        ],
      });
      assert.deepEqual(JSON.parse(second.text).content, [{ type: 'text', text: 'All done.' }]);
      assert.deepEqual(model.exchanges().map((e) => ({ tool: e.tool, text: e.result?.text, isError: e.result?.isError })), [{ tool: 'mcp__terminal-shepherd__terminal_run', text: '{"status":"completed"}', isError: false }]);
      const [timed] = model.exchanges();
      assert.ok(timed!.answeredAt! >= timed!.calledAt, 'the round trip is timed from the call to the request carrying its result');
      const side = await post(model, '/v1/messages', { model: 'haiku', messages: [{ role: 'user', content: 'title?' }] });
      assert.deepEqual(JSON.parse(side.text).content, [{ type: 'text', text: 'OK.' }]);
      assert.deepEqual(model.requests.map((r) => r.scripted), [true, true, false]);
      assert.deepEqual(model.offeredTools(), ['Bash', 'mcp__terminal-shepherd__terminal_run']);
      assert.deepEqual(model.errors, []);
    } finally {
      await model.close();
    }
  });

  it('Gemini API: a functionCall with an id, the functionResponse with that id recorded', async () => {
    const model = await startScriptedModel({ steps });
    try {
      const tools = [{ functionDeclarations: [{ name: 'run_shell_command' }, { name: 'mcp_terminal-shepherd_terminal_run' }] }];
      const first = events((await post(model, '/v1beta/models/m:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'run it' }] }], tools })).text);
      const call = first[0]!.candidates[0].content.parts[0].functionCall;
      assert.deepEqual({ name: call.name, args: call.args }, { name: 'mcp_terminal-shepherd_terminal_run', args: { command: 'echo hi' } });
      const answer = { functionResponse: { id: call.id, name: call.name, response: { output: '{"status":"completed"}' } } };
      const second = events((await post(model, '/v1beta/models/m:streamGenerateContent?alt=sse', { contents: [{ role: 'model', parts: [{ functionCall: call }] }, { role: 'user', parts: [answer] }], tools })).text);
      assert.equal(second[0]!.candidates[0].content.parts[0].text, 'All done.');
      assert.equal(model.exchanges()[0]?.result?.text, '{"status":"completed"}');
    } finally {
      await model.close();
    }
  });

  it('OpenAI Responses: a function call inside its namespace, the function_call_output recorded', async () => {
    const model = await startScriptedModel({ steps });
    try {
      const tools = [{ type: 'function', name: 'exec_command' }, { type: 'namespace', name: 'mcp__terminal_shepherd', tools: [{ type: 'function', name: 'terminal_run' }] }];
      const first = events((await post(model, '/v1/responses', { model: 'm', stream: true, tools, input: [] })).text);
      const done = first.find((e) => e.type === 'response.output_item.done')!.item;
      assert.deepEqual({ type: done.type, namespace: done.namespace, name: done.name, args: JSON.parse(done.arguments) }, { type: 'function_call', namespace: 'mcp__terminal_shepherd', name: 'terminal_run', args: { command: 'echo hi' } });
      assert.equal(first[first.length - 1]!.type, 'response.completed');
      const second = await post(model, '/v1/responses', { model: 'm', tools, input: [done, { type: 'function_call_output', call_id: done.call_id, output: [{ type: 'input_text', text: 'ok' }] }] });
      assert.equal(JSON.parse(second.text).output[0].content[0].text, 'All done.');
      assert.equal(model.exchanges()[0]?.result?.text, 'ok');
      assert.equal((await post(model, '/v1/unknown', {})).status, 404);
      assert.deepEqual(model.errors, ['POST /v1/unknown: not a model endpoint']);
    } finally {
      await model.close();
    }
  });
});
