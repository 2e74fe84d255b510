/**
 * Asking through the MCP client: the extension's question travels over the real bridge
 * (approval/ask, the other direction of the MCP server's connection) to the MCP server from source,
 * which asks its client through elicitation, tied to the tool call. A client that declared
 * elicitation is asked and its answer comes back (a choice, Do Not Run, Decline, Cancel); a client
 * that did not is never asked this way (the extension falls back to its modal); an answer that
 * never comes is unanswered once the extension's bound passes, and the client's request is
 * cancelled.
 */
import assert from 'node:assert/strict';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../../extension/src/bridge/bridgeServer';
import { elicitationApprover } from '../../extension/src/bridge/elicitationApprover';
import type { ApprovalQuestion } from '../../extension/src/core/checks/commandCheck';
import { runResult, startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';

const QUESTION: ApprovalQuestion = {
  command: 'rm -rf build',
  terminal: 'default',
  shell: 'bash',
  cwd: '/ws',
  reasons: ['`rm -rf build` is denied by `rm` (default)'],
  choices: [{ id: 'once', label: 'Run Once' }, { id: 'all:session', label: 'Allow All Commands in this Session' }],
  floor: false,
};

describe('asking through the MCP client (elicitation over the bridge)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession | undefined;
  let asked: { elicit: boolean; session: string }[];

  /** terminal/run asks QUESTION the way the extension does for a client that can be asked, and answers with what it got. */
  function scriptRun(timeoutMs = 10_000): void {
    fixture.handlers.run = async (_params, context: RequestContext) => {
      asked.push({ elicit: context.elicit !== undefined, session: context.session });
      if (!context.elicit) return runResult({ output: 'no elicitation' });
      const answer = await elicitationApprover(context.elicit, timeoutMs).ask(QUESTION, AbortSignal.timeout(timeoutMs));
      return runResult({ output: JSON.stringify(answer) });
    };
  }

  beforeEach(async () => {
    fixture = await startBridgeFixture();
    asked = [];
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fixture.dispose();
  });

  const connect = async (elicit?: (request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>): Promise<InMemoryMcpSession> =>
    (session = await connectInMemory({ workspaceFolder: fixture.workspace, ...(elicit ? { elicit } : {}) }));
  const output = async (s: InMemoryMcpSession): Promise<unknown> => JSON.parse(String((await s.call('terminal_run', { command: 'rm -rf build' })).structuredContent?.output));

  it('shows the command, shell, terminal, cwd and rule, the choices and Do Not Run; a choice approves', async () => {
    scriptRun();
    const requests: ElicitRequest['params'][] = [];
    const client = await connect((request) => {
      requests.push(request);
      return Promise.resolve({ action: 'accept', content: { decision: 'Allow All Commands in this Session' } });
    });
    assert.deepEqual(await output(client), { kind: 'approved', choice: 'all:session' });
    const [request] = requests as [ElicitRequest['params'] & { message: string; requestedSchema: { properties: { decision: { enum: string[]; default: string } } } }];
    assert.equal(request.message, 'Run `rm -rf build`? (bash, terminal "default", in /ws)\n\nAsked because `rm -rf build` is denied by `rm` (default).');
    assert.deepEqual(request.requestedSchema.properties.decision.enum, ['Run Once', 'Allow All Commands in this Session', 'Do Not Run']);
    assert.equal(request.requestedSchema.properties.decision.default, 'Do Not Run', 'an answer given without looking runs nothing');
    assert.equal(asked[0]?.elicit, true);
  });

  it('Do Not Run, Decline and Cancel decline; an answer not offered declines too', async () => {
    scriptRun();
    const answers: ElicitResult[] = [{ action: 'accept', content: { decision: 'Do Not Run' } }, { action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { decision: 'Always Allow Exact Command Line' } }];
    const client = await connect(() => Promise.resolve(answers.shift()!));
    for (let i = 0; i < 3; i++) assert.deepEqual(await output(client), { kind: 'declined' });
    // Not among the choices offered: the SDK refuses it against the schema, or the extension does; never a run.
    assert.notEqual((await output(client) as { kind: string }).kind, 'approved');
  });

  it('a client without elicitation is never asked this way (the extension falls back to its modal)', async () => {
    scriptRun();
    const client = await connect();
    assert.equal((await client.call('terminal_run', { command: 'rm -rf build' })).structuredContent?.output, 'no elicitation');
    assert.deepEqual(asked.map((a) => a.elicit), [false]);
  });

  it('no answer within the bound is unanswered, and the client is told its question is moot', async () => {
    scriptRun(300);
    let aborted = false;
    let calls = 0;
    const client = await connect((_request, signal) =>
      // The SDK ignores a cancellation of request id 0 (a falsy id): the first question is answered at once.
      calls++ === 0
        ? Promise.resolve({ action: 'decline' })
        : new Promise((resolve) => signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ action: 'cancel' });
          })),
    );
    await output(client);
    assert.deepEqual(await output(client), { kind: 'unanswered' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(aborted, true, 'the elicitation request was cancelled');
  });

  it('each MCP client connection is a session of its own', async () => {
    scriptRun();
    const first = await connect(() => Promise.resolve({ action: 'decline' }));
    await first.call('terminal_run', { command: 'x' });
    await first.close();
    const second = await connect(() => Promise.resolve({ action: 'decline' }));
    await second.call('terminal_run', { command: 'x' });
    assert.equal(asked.length, 2);
    assert.notEqual(asked[0]!.session, asked[1]!.session);
  });
});
