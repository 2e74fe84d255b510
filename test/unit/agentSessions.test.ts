/** "This session's" listings: terminals and process trees kept by the caller's agent session; asking for one's own without a session is an error with a next step. */
import assert from 'node:assert/strict';
import type { AgentSession, TerminalInfo, TrackedProcess } from '../../common/src/protocol';
import { listingSession, processesOf, terminalsOf } from '../../extension/src/core/agentSessions';
import { BridgeErrorCode, ShepherdError } from '../../extension/src/core/errors';

const mine: AgentSession = { client: 'claude-code', id: 's1', from: 'env.CLAUDE_CODE_SESSION_ID' };
const other: AgentSession = { ...mine, id: 's2' };

function terminal(name: string, agentSession?: AgentSession): TerminalInfo {
  return { name, busy: false, shellIntegration: true, shell: 'bash', strategy: 'shepherd', ...(agentSession ? { agentSession } : {}) };
}

function proc(pid: number, agentSession?: AgentSession, children?: TrackedProcess[]): TrackedProcess {
  return { pid, name: 'n', commandLine: 'c', parentPid: 1, terminalName: 't', startedAt: 'now', status: 'running', ports: [], ...(agentSession ? { agentSession } : {}), ...(children ? { children } : {}) };
}

describe('agent sessions: what a session lists as its own', () => {
  it('keeps everything unless the caller asks for its own; asking without a session says what to do', () => {
    assert.equal(listingSession({}, mine, 'claude-code'), undefined);
    assert.equal(listingSession({ session: 'all' }, mine, 'claude-code'), undefined);
    assert.deepEqual(listingSession({ session: 'mine' }, { ...mine, from: 'elsewhere' }, 'claude-code'), { ...mine, from: 'elsewhere' });
    assert.throws(
      () => listingSession({ session: 'mine' }, undefined, 'gemini-cli'),
      (error: unknown) => error instanceof ShepherdError && error.code === BridgeErrorCode.InvalidInput && /"gemini-cli" names no agent session/.test(error.message) && /without session/.test(error.message),
    );
  });

  it('keeps the terminals whose last command the session started, and the trees its runs started (children with them)', () => {
    const terminals = [terminal('a', mine), terminal('b', other), terminal('c'), terminal('d', { ...mine, client: 'codex' })];
    assert.deepEqual(terminalsOf(terminals, mine).map((t) => t.name), ['a']);
    assert.deepEqual(terminalsOf(terminals, undefined).map((t) => t.name), ['a', 'b', 'c', 'd']);
    const listed = { active: [proc(10, mine, [proc(11, mine)]), proc(20, other), proc(30)], orphaned: [proc(40, { ...mine, from: '_meta.threadId' })] };
    assert.deepEqual(processesOf(listed, mine), { active: [listed.active[0]], orphaned: [listed.orphaned[0]] });
    assert.equal(processesOf(listed, undefined), listed);
  });
});
