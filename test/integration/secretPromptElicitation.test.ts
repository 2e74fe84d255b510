/**
 * A prompt for a secret, told through the MCP client: the window's own handlers and TerminalService
 * (over a fake terminal host) behind the real bridge, the MCP server from source and an SDK client
 * that declared elicitation. terminal_run returns waiting_for_input, sensitive, without waiting for
 * the person; the question goes beside it (approval/ask, kind secretPrompt) and the client's
 * "Cancel Command" reaches the terminal as Ctrl+C. A client without elicitation is not asked: the
 * window's notification tells the person.
 */
import assert from 'node:assert/strict';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { silentLogger } from '../../common/src/logger';
import { createBridgeHandlers, type HandlerDependencies } from '../../extension/src/bridge/handlers';
import { createProcessMonitor } from '../../extension/src/core/processes';
import { ClientProcesses } from '../../extension/src/core/service/clientProcesses';
import type { TerminalService } from '../../extension/src/core/service/terminalService';
import type { SecretPrompt } from '../../extension/src/core/service/secretQuestion';
import { waitFor } from '../unit/processes/helpers';
import { fakeTerminalService } from '../unit/service/serviceSupport';
import { testSettings } from '../unit/service/terminalServiceSupport';
import { FakeTerminalHost } from '../unit/terminals/fakeTerminalHost';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { TempDirs } from '../support/tempDirs';

type FormRequest = ElicitRequest['params'] & { message: string; requestedSchema: { properties: { decision: { enum: string[]; default: string } } } };

describe('a prompt for a secret, told through the MCP client (elicitation beside the result)', function () {
  this.timeout(20_000);
  const dirs = new TempDirs();
  let fixture: BridgeFixture;
  let host: FakeTerminalHost;
  let service: TerminalService;
  let session: InMemoryMcpSession | undefined;
  let told: SecretPrompt[];

  beforeEach(async () => {
    fixture = await startBridgeFixture();
    host = new FakeTerminalHost();
    host.onExecute = (execution, terminal) => {
      execution.start();
      execution.push('[sudo] password for dev: ');
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
    };
    service = fakeTerminalService(host, () => testSettings, dirs);
    told = [];
    service.onDidAskForSecret((prompt) => told.push(prompt));
    const handlers = createBridgeHandlers({
      terminals: service,
      ownClientName: 'Visual Studio Code',
      ledger: { treeUsage: () => undefined, capsOf: () => undefined },
      clients: new ClientProcesses({ ledger: { watchClient: () => assert.fail('nothing is watched here') }, monitor: createProcessMonitor(), enabled: () => false, logger: silentLogger, ownPid: process.pid }),
    } as unknown as HandlerDependencies);
    fixture.handlers.run = handlers.run;
    fixture.handlers.state = handlers.state;
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    service.dispose();
    host.dispose();
    await fixture.dispose();
    dirs.cleanup();
  });

  it('the call returns waiting_for_input at once; the client’s Cancel Command sends Ctrl+C to the terminal', async () => {
    const requests: FormRequest[] = [];
    let answer: ((result: ElicitResult) => void) | undefined;
    session = await connectInMemory({
      workspaceFolder: fixture.workspace,
      elicit: (request) => {
        requests.push(request as FormRequest);
        return new Promise((resolve) => (answer = resolve));
      },
    });
    const result = (await session.call('terminal_run', { command: 'sudo true' })).structuredContent as TerminalRunResult;
    assert.equal(result.status, 'waiting_for_input');
    assert.equal(result.sensitive, true);
    await waitFor('the client asked', () => answer);
    const [request] = requests as [FormRequest];
    assert.match(request.message, /^Terminal "default" is waiting for sensitive input \(\[sudo\] password for dev:\) for `sudo true`\./);
    assert.deepEqual(request.requestedSchema.properties.decision.enum, ['Focus Terminal (type it there)', 'Cancel Command']);
    assert.deepEqual(host.last.sentText, [], 'nothing typed before the person answers');
    answer!({ action: 'accept', content: { decision: 'Cancel Command' } });
    await waitFor('Ctrl+C in the terminal', () => (host.last.sentText.length > 0 ? true : undefined));
    assert.deepEqual(host.last.sentText, [{ text: '\u0003', addNewLine: false }]);
    const after = (await session.call('terminal_state', { name: 'default', wait: true })).structuredContent as TerminalRunResult;
    assert.equal(after.exitCode, 130);
    assert.deepEqual(told, [], 'no notification besides');
  });

  it('a client without elicitation is not asked: the window’s notification is', async () => {
    session = await connectInMemory({ workspaceFolder: fixture.workspace });
    const result = (await session.call('terminal_run', { command: 'sudo true' })).structuredContent as TerminalRunResult;
    assert.equal(result.sensitive, true);
    assert.deepEqual(told.map((p) => p.command), ['sudo true']);
  });
});
