/** The agent session the MCP server derives for a call: _meta first (per conversation), else the environment's, with the client's name. */
import assert from 'node:assert/strict';
import { VSCODE_CONVERSATION } from '../../../../../common/src/protocol';
import { agentSessionOf, sessionFromEnvironment } from '../../../../../mcp-server/src/tools/support/agentSession';

describe('MCP server: the agent session of a call', () => {
  it('reads the session a client sets in the environment, its own variable before one it may have inherited', () => {
    assert.deepEqual(sessionFromEnvironment({ CLAUDE_CODE_SESSION_ID: 'claude-1' }), { id: 'claude-1', from: 'env.CLAUDE_CODE_SESSION_ID' });
    assert.deepEqual(sessionFromEnvironment({ CLAUDE_CODE_SESSION_ID: 'claude-1', COPILOT_AGENT_SESSION_ID: 'cop-2' }), { id: 'cop-2', from: 'env.COPILOT_AGENT_SESSION_ID' });
    assert.deepEqual(sessionFromEnvironment({ CODEX_THREAD_ID: ' 019d-thread ' }), { id: '019d-thread', from: 'env.CODEX_THREAD_ID' });
    assert.equal(sessionFromEnvironment({ CLAUDE_CODE_SESSION_ID: '  ', PATH: '/bin' }), undefined);
  });

  it('takes the call’s _meta id before the environment’s, named with the client', () => {
    const env = { id: 'cop-2', from: 'env.COPILOT_AGENT_SESSION_ID' };
    assert.deepEqual(agentSessionOf('Visual Studio Code', { 'vscode.conversationId': 'conv-7', progressToken: 1 }, env), { client: 'Visual Studio Code', id: 'conv-7', from: VSCODE_CONVERSATION });
    assert.deepEqual(agentSessionOf('codex-mcp-client', { threadId: '019dba93' }, undefined), { client: 'codex-mcp-client', id: '019dba93', from: '_meta.threadId' });
    assert.deepEqual(agentSessionOf('github-copilot-developer', {}, env), { client: 'github-copilot-developer', ...env });
    assert.deepEqual(agentSessionOf(undefined, { 'vscode.conversationId': 42 }, env), { client: '', ...env }, 'a non-string id is not one');
    assert.equal(agentSessionOf('Visual Studio Code', undefined, undefined), undefined);
    assert.equal(agentSessionOf('x', { threadId: 'a'.repeat(400) }, undefined)?.id.length, 300);
  });
});
