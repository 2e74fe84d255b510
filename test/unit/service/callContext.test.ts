/** A call's context: the safety decisions it audits carry the call's agent session, and a call without one audits as before. */
import assert from 'node:assert/strict';
import type { DecisionRecord } from '../../../extension/src/core/checks/checkCall';
import { callContext, type CallParts } from '../../../extension/src/core/service/callContext';
import { silentLogger } from '../../../common/src/logger';
import { testSettings } from './terminalServiceSupport';

describe('callContext', () => {
  it('records each decision with the agent session of the call that asked for it', () => {
    const audited: DecisionRecord[] = [];
    const parts = {
      sessions: undefined,
      servers: undefined,
      checks: [],
      settings: () => testSettings,
      workspaceFolder: () => undefined,
      approver: undefined,
      answerTimeoutMs: 1000,
      audit: (record: DecisionRecord) => audited.push(record),
      logger: silentLogger,
      now: () => 0,
    } as unknown as CallParts;
    const decision = { terminal: 't', command: 'ls', shell: 'bash', cwd: undefined, safety: { decision: 'approved', reason: 'rule', rules: ['ls'] } } as DecisionRecord;
    const agentSession = { client: 'codex-mcp-client', id: '019dba93', from: '_meta.threadId' };
    callContext(parts, { meta: { agentSession } }).audit?.(decision);
    callContext(parts, {}).audit?.(decision);
    assert.deepEqual(audited, [{ ...decision, agentSession }, decision]);
  });
});
