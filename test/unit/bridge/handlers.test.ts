/**
 * The bridge handlers' use of the call's agent session: a call of the window's own MCP client with
 * no chat conversation is asked through the window (its elicitation would show nowhere), any other
 * client's through its elicitation; terminal/list with session "mine" keeps the caller's terminals;
 * a call that names no session is owned by the client process its connection proved (client/attach).
 */
import assert from 'node:assert/strict';
import type { AgentSession, CallMeta, TerminalInfo } from '../../../common/src/protocol';
import type { RequestContext } from '../../../extension/src/bridge/bridgeServer';
import { createBridgeHandlers, type HandlerDependencies } from '../../../extension/src/bridge/handlers';
import type { CallOptions } from '../../../extension/src/core/service/callContext';
import { ClientProcesses } from '../../../extension/src/core/service/clientProcesses';
import { collectingLogger } from '../../support/collectingLogger';
import { FakeProcessMonitor } from '../ledger/fakeProcessMonitor';

const OWN = 'Visual Studio Code';
const conversation: AgentSession = { client: OWN, id: 'conv-1', from: '_meta.vscode.conversationId' };
const inherited: AgentSession = { client: OWN, id: 'claude-1', from: 'env.CLAUDE_CODE_SESSION_ID' };

/** Client processes as the window keeps them, over a scripted process table; the setting off (nothing is watched, the owner still proved). */
function clientProcesses(monitor = new FakeProcessMonitor()): ClientProcesses {
  const ledger = { watchClient: () => assert.fail('the setting is off: nothing is watched') };
  return new ClientProcesses({ ledger, monitor, enabled: () => false, logger: collectingLogger(), ownPid: process.pid });
}

function handlersWith(terminals: readonly TerminalInfo[] = [], clients = clientProcesses()) {
  const calls: CallOptions[] = [];
  const deps = {
    clients,
    ownClientName: OWN,
    terminals: {
      run: (_params: unknown, options: CallOptions) => {
        calls.push(options);
        return Promise.resolve({});
      },
      list: () => terminals,
    },
    ledger: { treeUsage: () => undefined, capsOf: () => undefined },
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

  it('a call naming no session is owned by its client process (attach proved it), in runs and in "mine"; nothing before the attach or after the connection ends', async () => {
    const monitor = new FakeProcessMonitor();
    const cli = monitor.spawn(1, 'codex', '/usr/bin/codex');
    const server = monitor.spawn(cli.pid, 'node', 'node /ext/dist/mcp-server.js');
    const clients = clientProcesses(monitor);
    const owner: AgentSession = { client: 'codex', id: String(cli.pid), from: 'client.pid' };
    const base = { busy: false, shellIntegration: true, shell: 'bash', strategy: 'shepherd' } as const;
    const { handlers, calls } = handlersWith([{ name: 'a', ...base, agentSession: owner }, { name: 'b', ...base, agentSession: conversation }], clients);
    const codex = { client: { name: 'codex', version: '1' } };
    await handlers.run({ command: 'ls' }, context(codex));
    assert.equal(calls[0]!.meta?.agentSession, undefined, 'no attach yet: no owner');
    assert.deepEqual(await clients.attach({ pid: cli.pid, serverPath: [server.pid], client: 'codex' }, 's'), { watching: false, reason: 'terminalShepherd.processes.trackClientProcesses is off' });
    await handlers.run({ command: 'ls' }, context(codex));
    assert.deepEqual(calls[1]!.meta?.agentSession, owner);
    await handlers.run({ command: 'ls' }, context({ ...codex, agentSession: inherited }));
    assert.deepEqual(calls[2]!.meta?.agentSession, inherited, 'a session the client names wins');
    assert.deepEqual((await handlers.list({ session: 'mine' }, context(codex))).terminals.map((t) => t.name), ['a']);
    clients.detach('s');
    await handlers.run({ command: 'ls' }, context(codex));
    assert.equal(calls[3]!.meta?.agentSession, undefined);
    // A path that does not lead to the client proves nothing.
    await clients.attach({ pid: cli.pid, serverPath: [monitor.spawn(1, 'node', 'node x.js').pid], client: 'codex' }, 's');
    await handlers.run({ command: 'ls' }, context(codex));
    assert.equal(calls[4]!.meta?.agentSession, undefined);
  });
});
