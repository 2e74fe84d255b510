/**
 * The bridge handlers' use of the call's agent session: a call of the window's own MCP client with
 * no chat conversation is asked through the window (its elicitation would show nowhere), any other
 * client's through its elicitation; terminal/list with session "mine" keeps the caller's terminals.
 */
import assert from 'node:assert/strict';
import type { AgentSession, CallMeta, TerminalInfo } from '../../../common/src/protocol';
import type { RequestContext } from '../../../extension/src/bridge/bridgeServer';
import { createBridgeHandlers, type HandlerDependencies } from '../../../extension/src/bridge/handlers';
import type { CallOptions } from '../../../extension/src/core/service/callContext';

const OWN = 'Visual Studio Code';
const conversation: AgentSession = { client: OWN, id: 'conv-1', from: '_meta.vscode.conversationId' };
const inherited: AgentSession = { client: OWN, id: 'claude-1', from: 'env.CLAUDE_CODE_SESSION_ID' };

function handlersWith(terminals: readonly TerminalInfo[] = []) {
  const calls: CallOptions[] = [];
  const deps = {
    ownClientName: OWN,
    terminals: {
      run: (_params: unknown, options: CallOptions) => {
        calls.push(options);
        return Promise.resolve({});
      },
      list: () => terminals,
    },
    ledger: { treeUsage: () => undefined, limitsOf: () => undefined },
  } as unknown as HandlerDependencies;
  return { handlers: createBridgeHandlers(deps), calls };
}

function context(meta: CallMeta): RequestContext {
  return { signal: new AbortController().signal, meta, progress: () => undefined, session: 's', elicit: () => Promise.resolve({ action: 'decline' }) } as unknown as RequestContext;
}

describe('bridge handlers and the agent session', () => {
  it('asks through the client’s elicitation except for the window’s own client outside a chat (a session from its environment is no chat)', async () => {
    const { handlers, calls } = handlersWith();
    const client = (name: string) => ({ name, version: '1' });
    await handlers.run({ command: 'ls' }, context({ client: client(OWN) }));
    await handlers.run({ command: 'ls' }, context({ client: client(OWN), agentSession: inherited }));
    await handlers.run({ command: 'ls' }, context({ client: client(OWN), agentSession: conversation }));
    await handlers.run({ command: 'ls' }, context({ client: client('claude-code') }));
    assert.deepEqual(calls.map((c) => c.approver !== undefined), [false, false, true, true]);
    // A prompt for a secret is told the same way: the client's elicitation, else the window's notification.
    assert.deepEqual(calls.map((c) => c.secretAsker !== undefined), [false, false, true, true]);
  });

  it('lists the caller’s own terminals for session "mine"', async () => {
    const base = { busy: false, shellIntegration: true, shell: 'bash', strategy: 'shepherd' } as const;
    const { handlers } = handlersWith([{ name: 'a', ...base, agentSession: conversation }, { name: 'b', ...base }]);
    const mine = await handlers.list({ session: 'mine' }, context({ agentSession: { ...conversation, from: 'anything' } }));
    assert.deepEqual(mine.terminals.map((t) => t.name), ['a']);
    assert.deepEqual((await handlers.list({}, context({}))).terminals.map((t) => t.name), ['a', 'b']);
  });
});
