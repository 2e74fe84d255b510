/**
 * The per-command safety check at its seam in the terminal service (scripted terminal host, real
 * grammars and rules): an approved line runs with no question and its result says which rule
 * approved it; a denied line asks, and declined leaves no side effect (no terminal, nothing
 * typed); an answer's allow lasts as long as it says (once, this session, kept in the workspace's
 * settings); a line terminal_input ends at a nested shell's prompt is checked too; every decision
 * reaches the audit.
 */
import assert from 'node:assert/strict';
import type { CommandSafety } from '../../../common/src/protocol';
import type { DecisionRecord } from '../../../extension/src/core/checks/checkCall';
import type { ApprovalAnswer, ApprovalQuestion } from '../../../extension/src/core/checks/commandCheck';
import { SessionApprovalStore, type Grant } from '../../../extension/src/core/checks/commandSafety/approvalChoices';
import { commandSafetyCheck } from '../../../extension/src/core/checks/commandSafetyCheck';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { type TerminalService } from '../../../extension/src/core/service/terminalService';
import { collectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { workerParser } from '../../support/packageGrammars';
import { HOME, defaultSafetySettings } from './commandSafety/fixtures';
import { FakeTerminalHost, ScriptedProbe, completeEveryCommand, typedAnywhere } from '../terminals/fakeTerminalHost';
import { fakeTerminalService, serviceForEachTest } from '../service/serviceSupport';

// Typed lines are asserted exactly; the leading space that keeps them out of history is tested in terminalServiceSecrets.
const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 200, defaultTimeoutMs: 5000, shellIntegrationTimeoutMs: 1000, preventShellHistory: false };

describe('the per-command safety check, in the terminal service', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let service: TerminalService;
  let questions: ApprovalQuestion[];
  let answer: (q: ApprovalQuestion) => ApprovalAnswer;
  let kept: Grant[];
  let audit: DecisionRecord[];
  let autoApprove: Record<string, unknown>;

  function setup(probe = new ScriptedProbe()): void {
    service?.dispose();
    host = new FakeTerminalHost();
    questions = [];
    kept = [];
    audit = [];
    autoApprove = {};
    answer = () => ({ kind: 'declined' });
    const workspace = dirs.make('safety-ws-');
    const sessions = new SessionApprovalStore();
    service = fakeTerminalService(host, () => settings, dirs, {
      probeShell: probe.probeShell,
      workspaceFolder: () => workspace,
      checks: [
        commandSafetyCheck({
          parser: workerParser,
          settings: () => ({ ...defaultSafetySettings(workspace), autoApprove: { workspaceValue: autoApprove } }),
          sessions,
          keepRules: async (grant) => {
            kept.push(grant);
            if ('entries' in grant) autoApprove = { ...autoApprove, ...grant.entries };
          },
          home: HOME,
          logger: collectingLogger(),
        }),
      ],
      approver: {
        via: 'modal',
        ask: (question) => {
          questions.push(question);
          return Promise.resolve(answer(question));
        },
      },
      audit: (record) => audit.push(record),
    });
    completeEveryCommand(host);
  }

  serviceForEachTest(dirs, () => setup(), () => ({ service, host }));


  it('a line the rules approve runs with no question, and the result names the rules', async () => {
    const result = await service.run({ command: 'git status && ls -la' });
    assert.equal(result.status, 'completed');
    assert.equal(questions.length, 0);
    assert.deepEqual(result.safety, { decision: 'approved', reason: result.safety?.reason, rules: result.safety?.rules });
    assert.match(result.safety?.reason ?? '', /^approved by `\/\^git.*status.*` \(default\), `ls` \(default\)$/);
    assert.deepEqual(audit.map((a) => [a.command, a.safety.decision]), [['git status && ls -la', 'approved']]);
  });

  it('a denied line asks, naming the command, shell, cwd and rule; declined, nothing is opened or typed, and the result says not_approved', async () => {
    const result = await service.run({ command: 'echo ok && rm -rf build', name: 'clean' });
    assert.equal(questions.length, 1);
    const [question] = questions;
    assert.deepEqual([question!.command, question!.terminal, question!.shell, question!.floor], ['echo ok && rm -rf build', 'clean', 'bash', false]);
    assert.match(question!.reasons.join(), /`rm -rf build` is denied by `rm` \(default\)/);
    assert.deepEqual(question!.choices.map((c) => c.id), ['once', 'all:session']);
    assert.equal(result.status, 'not_approved');
    assert.deepEqual(result.safety, { decision: 'asked', reason: question!.reasons[0], rules: ['`rm` (default)'], answer: 'declined', via: 'modal' } satisfies CommandSafety);
    assert.deepEqual([host.terminals.length, typedAnywhere(host)], [0, []]);
    assert.equal(audit.at(-1)?.safety.answer, 'declined');
  });

  it('"run once" runs it this time only', async () => {
    answer = () => ({ kind: 'approved', choice: 'once' });
    const result = await service.run({ command: 'mkdir -p build' });
    assert.deepEqual([result.status, result.safety?.answer, result.safety?.scope], ['completed', 'once', 'once']);
    answer = () => ({ kind: 'declined' });
    assert.equal((await service.run({ command: 'mkdir -p build' })).status, 'not_approved');
    assert.deepEqual(typedAnywhere(host), ['mkdir -p build']);
  });

  it('"allow in this session" lasts for the session; another session is asked again', async () => {
    answer = () => ({ kind: 'approved', choice: 'subCommand:session' });
    assert.equal((await service.run({ command: 'mkdir -p build' }, { session: 'client-1' })).safety?.scope, 'session');
    answer = () => ({ kind: 'declined' });
    const again = await service.run({ command: 'mkdir -p dist' }, { session: 'client-1' });
    assert.deepEqual([again.status, again.safety?.decision, again.safety?.rules], ['completed', 'approved', ['`mkdir` (this session)']]);
    assert.equal((await service.run({ command: 'mkdir -p dist' }, { session: 'client-2' })).status, 'not_approved');
    assert.equal(questions.length, 2);
  });

  it('"allow in this workspace" is kept as VS Code keeps it (chat.tools.terminal.autoApprove), then runs unasked in any session', async () => {
    answer = () => ({ kind: 'approved', choice: 'line:workspace' });
    await service.run({ command: 'make test' }, { session: 'client-1' });
    assert.deepEqual(kept, [{ scope: 'workspace', entries: { '/^make test$/': { approve: true, matchCommandLine: true } } }]);
    answer = () => ({ kind: 'declined' });
    const later = await service.run({ command: 'make test' }, { session: 'client-2' });
    assert.deepEqual([later.status, later.safety?.rules], ['completed', ['`/^make test$/` (workspace)']]);
    assert.equal((await service.run({ command: 'make test2' })).status, 'not_approved');
  });

  it('the floor offers no allow, and "allow all commands in this session" does not reach it', async () => {
    answer = (q) => ({ kind: 'approved', choice: q.choices.at(-1)!.id });
    await service.run({ command: 'rm -rf build' }, { session: 's' });
    answer = () => ({ kind: 'declined' });
    assert.equal((await service.run({ command: 'rm -rf node_modules' }, { session: 's' })).status, 'completed', 'all allowed for the session');
    const floor = await service.run({ command: 'rm -rf ~' }, { session: 's' });
    assert.deepEqual([floor.status, floor.safety?.floor, questions.at(-1)?.choices.map((c) => c.id), questions.at(-1)?.floor], ['not_approved', true, ['once'], true]);
    assert.ok(!typedAnywhere(host).includes('rm -rf ~'));
  });

  it('a line terminal_input ends at a nested shell prompt is checked like a command', async () => {
    const probe = new ScriptedProbe();
    probe.activity = { foreground: 'job', readingTerminal: true, foregroundCommand: 'bash --norc' };
    setup(probe);
    host.onExecute = (execution) => {
      execution.start();
      execution.push('bash-5.2$ ');
    };
    answer = () => ({ kind: 'approved', choice: 'once' });
    assert.equal((await service.run({ command: 'bash --norc', name: 'nested' })).status, 'waiting_for_input');
    answer = () => ({ kind: 'declined' });
    const result = await service.input({ name: 'nested', text: 'rm -rf build', timeoutMs: 300 });
    assert.equal(result.status, 'not_approved');
    assert.deepEqual(host.last.sentText, []);
    assert.match(result.safety?.reason ?? '', /denied by `rm` \(default\)/);
  });
});
