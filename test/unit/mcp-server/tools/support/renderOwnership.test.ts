import assert from 'node:assert/strict';
import { ownerLabel } from '../../../../../common/src/format';
import type { TrackedProcess } from '../../../../../common/src/protocol';
import { renderProcesses } from '../../../../../mcp-server/src/tools/support/render';

const session = { client: 'claude-code', id: 'session-a', from: 'env.CLAUDE_CODE_SESSION_ID' };
const clientTools = { client: 'claude-code', pid: 812, command: 'claude' };

function process(pid: number, extra: Partial<TrackedProcess>): TrackedProcess {
  return { pid, name: 'sleep', commandLine: `sleep ${pid}`, parentPid: 812, terminalName: 'claude-code (own tools)', startedAt: '2026-01-01T10:00:00.000Z', status: 'running', ports: [], ...extra };
}

describe('who started a process, as list_processes says it', () => {
  it('names the session, the client’s own tools, both, or nobody', () => {
    assert.equal(ownerLabel({ agentSession: session }), 'claude-code session session-a');
    assert.equal(ownerLabel({ clientTools }), "claude-code's own tools (client pid 812, claude)");
    assert.equal(ownerLabel({ agentSession: session, clientTools }), "claude-code's own tools (client pid 812, claude), claude-code session session-a");
    assert.equal(ownerLabel({}), undefined);
    // A client that named no session: its process (client/attach proved it) stands for it.
    assert.equal(ownerLabel({ agentSession: { client: 'codex', id: '4242', from: 'client.pid' } }), 'codex (client pid 4242, no session id)');
  });

  it('lists a client’s own processes apart from terminals, and its orphans with kill_orphans', () => {
    const text = renderProcesses({ active: [process(900, { clientTools, agentSession: session })], orphaned: [process(901, { clientTools, status: 'orphaned' })] }, Date.parse('2026-01-01T10:01:00.000Z'));
    assert.match(text, /^Outside managed terminals, "claude-code \(own tools\)":\n- sleep \(pid 900, parent 812\) · up 1m · started by claude-code's own tools \(client pid 812, claude\), claude-code session session-a: sleep 900/);
    assert.match(text, /Orphaned \(left running by an earlier window or a client that is gone; kill_orphans ends them\):\n- sleep \(pid 901, parent 812\) · up 1m · started by claude-code's own tools \(client pid 812, claude\): sleep 901/);
  });
});
