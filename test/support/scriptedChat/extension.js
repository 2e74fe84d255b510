// Test-only extension for the e2e harness (test/support/chatSession.ts). Never shipped.
//
// It stands in for Copilot agent mode with a model whose answers are scripted, so a test can play a
// user's chat session in the real VS Code without a network:
// - a language model ("Scripted Model", vendor "scripted", the default in the model picker) whose
//   every answer is the next turn of a script: tool calls (by tool name; the model only calls tools
//   it was offered) or text;
// - the default chat participant for agent mode, which loops as an agent does: it sends the prompt
//   and the tools enabled in the chat's tool picker (request.tools) to the model, invokes every tool
//   the model calls through vscode.lm.invokeTool with the request's toolInvocationToken (so VS Code
//   shows its confirmations in the chat view exactly as for Copilot), and feeds the results back.
//
// The driver extension reaches it through this extension's exports:
//   const chat = vscode.extensions.getExtension('terminal-shepherd-test.scripted-chat').exports;
//   chat.setScript([{ calls: [{ tool: 'terminal_run', input: { command: 'echo hi' } }] }, { text: 'done' }]);
//   ... send a chat request (workbench.action.chat.open with a query) ...
//   chat.events()   // what the model was offered, every tool call with its timing and result
// Needs code-server started with --enable-proposed-api terminal-shepherd-test.scripted-chat.
'use strict';
const vscode = require('vscode');
const { performance } = require('perf_hooks');
const floorTool = require('./floorTool');

/** Most model round trips one chat request may take (a script that never ends is a test bug). */
const MAX_ROUNDS = 500;

const session = {
  /** Turns the model plays, in order, across requests; consumed as played. */
  script: [],
  /** Everything that happened, oldest first. */
  events: [],
  /** The chat request being answered, if any. */
  busy: false,
};

function record(kind, fields) {
  const event = { kind, at: Date.now(), ...fields };
  session.events.push(event);
  return event;
}

function errorText(e) {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Resolves a scripted tool name against the tools offered: the exact name, or a unique tool whose
 * name ends with `_<name>` (MCP tools are offered as mcp_<server>_<tool>). */
function resolveTool(name, offered) {
  if (offered.includes(name)) return name;
  const matches = offered.filter((t) => t.endsWith(`_${name}`));
  return matches.length === 1 ? matches[0] : undefined;
}

function textOf(content) {
  return content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : typeof part.value === 'string' ? part.value : '')).join('');
}

const model = {
  id: 'scripted-model',
  name: 'Scripted Model',
  family: 'scripted',
  version: '1',
  tooltip: 'Plays a test script',
  maxInputTokens: 1_000_000,
  maxOutputTokens: 100_000,
  capabilities: { toolCalling: true },
  isDefault: true,
  isUserSelectable: true,
};

const provider = {
  provideLanguageModelChatInformation() {
    return [model];
  },
  async provideLanguageModelChatResponse(_model, _messages, options, progress) {
    const offered = (options.tools ?? []).map((t) => t.name);
    const turn = session.script.shift();
    record('modelTurn', { offered, turn: turn ?? null });
    if (!turn) {
      progress.report(new vscode.LanguageModelTextPart('(the script has ended)'));
      return;
    }
    if (turn.text !== undefined) progress.report(new vscode.LanguageModelTextPart(turn.text));
    for (const [i, call] of (turn.calls ?? []).entries()) {
      const name = resolveTool(call.tool, offered);
      if (!name) {
        record('notOffered', { tool: call.tool, offered });
        progress.report(new vscode.LanguageModelTextPart(`The tool ${call.tool} was not offered to the model.`));
        continue;
      }
      progress.report(new vscode.LanguageModelToolCallPart(`call-${session.events.length}-${i}`, name, call.input ?? {}));
    }
  },
  async provideTokenCount(_model, text) {
    return Math.ceil((typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4);
  },
};

/** The tools the chat's tool picker enables for this request (request.tools maps each tool's
 * information to whether it is enabled), as the agent offers them to the model. */
function enabledTools(request) {
  if (!request.tools) return [...vscode.lm.tools];
  return [...request.tools].filter(([, enabled]) => enabled).map(([tool]) => tool);
}

async function answer(request, _context, stream, token) {
  session.busy = true;
  try {
    const tools = enabledTools(request);
    record('request', {
      prompt: request.prompt,
      model: request.model?.id,
      hasToolInvocationToken: request.toolInvocationToken !== undefined,
      pickerTools: request.tools ? [...request.tools].map(([tool, enabled]) => ({ name: tool.name, enabled })) : null,
      lmTools: vscode.lm.tools.map((t) => t.name),
      offered: tools.map((t) => t.name),
    });
    const messages = [vscode.LanguageModelChatMessage.User(request.prompt)];
    for (let round = 0; round < MAX_ROUNDS && !token.isCancellationRequested; round++) {
      const response = await request.model.sendRequest(messages, { tools }, token);
      const calls = [];
      let text = '';
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
        else if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      }
      if (text) stream.markdown(text);
      if (calls.length === 0) break;
      messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
      const results = [];
      for (const call of calls) {
        const started = record('toolStart', { callId: call.callId, tool: call.name, input: call.input });
        const t0 = performance.now();
        try {
          const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
          const text = textOf(result.content);
          record('toolEnd', { callId: call.callId, tool: call.name, ms: performance.now() - t0, startedAt: started.at, text });
          results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
        } catch (e) {
          record('toolEnd', { callId: call.callId, tool: call.name, ms: performance.now() - t0, startedAt: started.at, error: errorText(e) });
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`Error: ${errorText(e)}`)]));
        }
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    record('requestEnd', {});
    return {};
  } catch (e) {
    record('requestEnd', { error: errorText(e) });
    throw e;
  } finally {
    session.busy = false;
  }
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('scripted', provider));
  const participant = vscode.chat.createChatParticipant('terminal-shepherd-test.agent', answer);
  context.subscriptions.push(participant, floorTool.register());
  return {
    /** Replaces the script: the turns the model plays next. */
    setScript(turns) {
      if (!Array.isArray(turns)) throw new Error('setScript needs an array of turns ({ calls: [{ tool, input }] } or { text })');
      session.script = turns.map((t) => ({ ...t }));
    },
    /** Events since `from` (an index into the list; default all). */
    events(from = 0) {
      return session.events.slice(from);
    },
    /** A cheap look at a request in progress (events since `from`): whether it ended, and the tool call in flight. */
    status(from = 0) {
      const recent = session.events.slice(from);
      const ended = new Set(recent.filter((e) => e.kind === 'toolEnd').map((e) => e.callId));
      const open = recent.filter((e) => e.kind === 'toolStart' && !ended.has(e.callId)).at(-1);
      return { ended: recent.some((e) => e.kind === 'requestEnd'), inFlight: open ? { callId: open.callId, tool: open.tool } : null };
    },
    get busy() {
      return session.busy;
    },
    get scriptLeft() {
      return session.script.length;
    },
  };
}

module.exports = { activate, deactivate() {} };
