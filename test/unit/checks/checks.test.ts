/**
 * The checks before typing, at their seam in the terminal service (scripted terminal host, real
 * runs): a check that refuses leaves no side effect (no terminal opened, no cd, nothing typed),
 * one that asks runs the command only when the person approves, one that rewrites changes what is
 * typed, workspace trust comes first, and terminal_input text that is a command at a nested
 * shell's prompt is checked like a command.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { InputParams, RunParams } from '../../../common/src/protocol';
import type { ApprovalAnswer, ApprovalQuestion, CheckedCall, CheckVerdict, CommandCheck } from '../../../extension/src/core/checks/commandCheck';
import { BridgeErrorCode, ShepherdError, workspaceUntrustedError } from '../../../extension/src/core/errors';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { type TerminalService } from '../../../extension/src/core/service/terminalService';
import { collectingLogger, type CollectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { FakeTerminalHost, ScriptedProbe, completeEveryCommand, typedAnywhere } from '../terminals/fakeTerminalHost';
import { fakeTerminalService, serviceForEachTest } from '../service/serviceSupport';

// Typed lines are asserted exactly; the leading space that keeps them out of history is tested in terminalServiceSecrets.
const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 200, defaultTimeoutMs: 5000, shellIntegrationTimeoutMs: 1000, preventShellHistory: false };

/** A check that records every call it sees and answers what the test says. */
class ScriptedCheck implements CommandCheck {
  readonly id = 'scripted';
  readonly seen: CheckedCall[] = [];
  verdict: (call: CheckedCall) => CheckVerdict = () => ({ kind: 'pass' });
  check(call: CheckedCall): CheckVerdict {
    this.seen.push(call);
    return this.verdict(call);
  }
}

/** The person, as the approval port sees them: answers each question as scripted, and remembers it. */
class ScriptedPerson {
  readonly questions: ApprovalQuestion[] = [];
  answer: (question: ApprovalQuestion, signal?: AbortSignal) => Promise<ApprovalAnswer> = () => Promise.resolve({ kind: 'approved', choice: 'once' });
  readonly via = 'modal' as const;
  ask = (question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer> => {
    this.questions.push(question);
    return this.answer(question, signal);
  };
}

async function rejectsWith(promise: Promise<unknown>, code: BridgeErrorCode, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ShepherdError, `expected a ShepherdError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('checks before typing, in the terminal service', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let service: TerminalService;
  let check: ScriptedCheck;
  let person: ScriptedPerson;
  let trusted: boolean;
  let logger: CollectingLogger;
  let workspace: string;

  /** A fresh service; `checks` come after trust (default: the scripted one), `probe` is the OS (idle shells by default). */
  function setup(options: { approver?: boolean; checks?: (scripted: ScriptedCheck) => CommandCheck[]; probe?: ScriptedProbe; answerTimeoutMs?: number } = {}): void {
    service?.dispose();
    host = new FakeTerminalHost();
    check = new ScriptedCheck();
    person = new ScriptedPerson();
    trusted = true;
    logger = collectingLogger();
    workspace = dirs.make('checks-');
    mkdirSync(path.join(workspace, 'sub'));
    service = fakeTerminalService(host, () => settings, dirs, {
      probeShell: (options.probe ?? new ScriptedProbe()).probeShell,
      workspaceFolder: () => workspace,
      logger,
      isTrusted: () => trusted,
      checks: options.checks?.(check) ?? [check],
      ...(options.approver === false ? {} : { approver: { via: person.via, ask: person.ask } }),
      ...(options.answerTimeoutMs !== undefined ? { answerTimeoutMs: options.answerTimeoutMs } : {}),
    });
    completeEveryCommand(host);
  }

  serviceForEachTest(dirs, () => setup(), () => ({ service, host }));


  describe('a check that refuses', () => {
    it('leaves no side effect: no terminal opened, nothing typed', async () => {
      check.verdict = () => ({ kind: 'refuse', error: new ShepherdError(BridgeErrorCode.InvalidInput, 'refused by the test') });
      await rejectsWith(service.run({ command: 'rm -rf build', cwd: 'sub' }), BridgeErrorCode.InvalidInput, /^refused by the test$/);
      assert.equal(host.terminals.length, 0, 'no terminal was opened');
      assert.equal(host.pseudoterminals.length, 0);
      assert.deepEqual(service.list(), []);
    });

    it('in an open terminal: no cd, nothing typed, the terminal stays idle', async () => {
      await service.run({ command: 'true' });
      const terminal = host.last;
      check.verdict = (call) => (call.kind === 'run' && call.command.startsWith('rm') ? { kind: 'refuse', error: new ShepherdError(BridgeErrorCode.InvalidInput, 'no') } : { kind: 'pass' });
      await rejectsWith(service.run({ command: 'rm -rf build', cwd: 'sub' }), BridgeErrorCode.InvalidInput);
      assert.deepEqual(terminal.executions.map((e) => e.commandLine), ['true'], 'no cd and no rm were sent');
      assert.deepEqual(terminal.sentText, []);
      assert.equal(service.list()[0]?.busy, false);
    });

    it('sees the plan: command, terminal, shell, strategy, cwd, whether a terminal would open, the wait', async () => {
      await service.run({ command: 'make', name: 'build', cwd: 'sub', waitMode: 'background' });
      const call = check.seen[0];
      assert.ok(call?.kind === 'run');
      assert.deepEqual(
        [call.command, call.terminal, call.shell.kind, call.strategy, call.cwd, call.opensTerminal, call.waitMode, call.restart, call.duplicate],
        ['make', 'build', 'bash', 'shepherd', path.join(workspace, 'sub'), true, 'background', false, undefined],
      );
      await service.run({ command: 'make test', name: 'build' });
      const again = check.seen[1];
      assert.ok(again?.kind === 'run');
      assert.equal(again.opensTerminal, false, 'the open terminal is reused');
    });

    it('an untrusted workspace runs nothing and types nothing, whatever the client (trust is the first check)', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Continue? [y/N] ');
      };
      assert.equal((await service.run({ command: 'apt remove foo', name: 'asks' })).status, 'waiting_for_input');
      trusted = false;
      const before = typedAnywhere(host);
      const seen = check.seen.length;
      await rejectsWith(service.run({ command: 'echo hi' }), BridgeErrorCode.WorkspaceUntrusted, new RegExp(`^${escapeRegExp(workspaceUntrustedError().message)}$`));
      await rejectsWith(service.input({ name: 'asks', text: 'y' }), BridgeErrorCode.WorkspaceUntrusted);
      assert.deepEqual(typedAnywhere(host), before);
      assert.equal(host.terminals.length, 1, 'no terminal was opened for the refused run');
      assert.equal(check.seen.length, seen, 'later checks never saw the calls');
    });
  });

  describe('a check that asks', () => {
    const asking = (call: CheckedCall): CheckVerdict => (call.kind === 'run' && call.command.includes('rm') ? { kind: 'ask', reason: 'rm deletes files' } : { kind: 'pass' });

    it('runs the command once the person approves, and shows them the command, shell, cwd, terminal and rule', async () => {
      check.verdict = asking;
      const result = await service.run({ command: 'rm -rf build', cwd: 'sub', name: 'clean' });
      assert.deepEqual([result.status, result.output, result.exitCode], ['completed', 'ran: rm -rf build', 0]);
      assert.deepEqual(person.questions, [
        { command: 'rm -rf build', terminal: 'clean', shell: 'bash', cwd: path.join(workspace, 'sub'), reasons: ['rm deletes files'], choices: [{ id: 'once', label: 'Run Once' }], floor: false },
      ]);
      assert.ok(logger.has('info', /asked whether to run `rm -rf build` in terminal "clean" \(rm deletes files\): approved \(once\)/));
    });

    it('declined: nothing is opened or typed, and the result (not_approved) tells the model not to retry', async () => {
      check.verdict = asking;
      person.answer = () => Promise.resolve({ kind: 'declined' });
      const result = await service.run({ command: 'rm -rf build' });
      assert.deepEqual([result.status, result.output, result.command, result.exitCode], ['not_approved', '', 'rm -rf build', undefined]);
      assert.match(result.message ?? '', /^The user declined to run `rm -rf build` \(asked because rm deletes files\); nothing was typed\. Do not retry it/);
      assert.equal(host.terminals.length, 0);
      assert.deepEqual(typedAnywhere(host), []);
    });

    it('with nobody to ask (no approver), no answer, or no answer within the bound, nothing runs', async () => {
      setup({ approver: false });
      check.verdict = asking;
      assert.match((await service.run({ command: 'rm -rf build' })).message ?? '', /did not answer/);
      assert.equal(host.terminals.length, 0);
      setup();
      check.verdict = asking;
      person.answer = () => Promise.resolve({ kind: 'unanswered' });
      assert.equal((await service.run({ command: 'rm -rf build' })).status, 'not_approved');
      assert.equal(host.terminals.length, 0);
      setup({ answerTimeoutMs: 50 });
      check.verdict = asking;
      let questionTakenDown = false;
      person.answer = (_, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => {
        questionTakenDown = true;
        resolve({ kind: 'approved', choice: 'once' }); // a late click changes nothing
      }));
      const late = await service.run({ command: 'rm -rf build' });
      assert.deepEqual([late.status, questionTakenDown], ['not_approved', true]);
      assert.match(late.message ?? '', /did not answer within 50 ms/);
      assert.deepEqual(typedAnywhere(host), []);
    });

    it('a client that gives up while the person is asked gets Cancelled, and a late approval types nothing', async () => {
      check.verdict = asking;
      let approve: (answer: ApprovalAnswer) => void = () => undefined;
      person.answer = () => new Promise((resolve) => (approve = resolve));
      const controller = new AbortController();
      const call = service.run({ command: 'rm -rf build' }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      await rejectsWith(call, BridgeErrorCode.Cancelled, /nothing was started/);
      approve({ kind: 'approved', choice: 'once' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(typedAnywhere(host), []);
    });

    it('several checks asking make one question with every reason', async () => {
      const second = new ScriptedCheck();
      setup({ checks: (first) => [first, second] });
      check.verdict = () => ({ kind: 'ask', reason: 'first rule' });
      second.verdict = () => ({ kind: 'ask', reason: 'second rule' });
      await service.run({ command: 'echo both' });
      assert.deepEqual(person.questions.map((q) => q.reasons), [['first rule', 'second rule']]);
    });
  });

  describe('a check that rewrites', () => {
    it('types the rewritten command, and the checks after it see the call planned again', async () => {
      const after = new ScriptedCheck();
      setup({ checks: (first) => [first, after] });
      check.verdict = (call) => (call.kind === 'run' && call.command.startsWith('cd ') ? { kind: 'rewrite', command: call.command.replace(/^cd \S+ && /, ''), reason: 'the cd prefix names the cwd' } : { kind: 'pass' });
      const result = await service.run({ command: `cd ${workspace} && npm test` });
      assert.deepEqual([result.output, result.command], ['ran: npm test', 'npm test']);
      assert.deepEqual(host.last.executions.map((e) => e.commandLine), ['npm test']);
      assert.deepEqual(after.seen.map((c) => (c.kind === 'run' ? c.command : c.text)), ['npm test']);
      assert.ok(logger.has('info', /check scripted rewrote `cd .* && npm test` to `npm test`: the cd prefix names the cwd/));
    });
  });

  describe('terminal_input through the checks', () => {
    async function nestedShell(): Promise<void> {
      // `bash` runs in the foreground: its prompt waits, and what is typed there is a command for it.
      const probe = new ScriptedProbe();
      probe.activity = { foreground: 'job', readingTerminal: true, foregroundCommand: 'bash --norc' };
      setup({ probe });
      host.onExecute = (execution) => {
        execution.start();
        execution.push('bash-5.2$ ');
      };
      const started = await service.run({ command: 'bash --norc', name: 'nested' } satisfies RunParams);
      assert.equal(started.status, 'waiting_for_input');
    }

    it('a line ended at a nested shell prompt is a command for that shell: checked, asked, and declined means not typed', async () => {
      await nestedShell();
      check.verdict = (call) => (call.kind === 'input' && call.command ? { kind: 'ask', reason: `a command for ${call.command.shell.name}` } : { kind: 'pass' });
      person.answer = () => Promise.resolve({ kind: 'declined' });
      const input: InputParams = { name: 'nested', text: 'rm -rf ~/stuff', timeoutMs: 300 };
      assert.equal((await service.input(input)).status, 'not_approved');
      assert.deepEqual(host.last.sentText, [], 'nothing was typed into the nested shell');
      const seen = check.seen.at(-1);
      assert.ok(seen?.kind === 'input');
      assert.deepEqual([seen.text, seen.terminal, seen.command?.line, seen.command?.shell.name], ['rm -rf ~/stuff', 'nested', 'rm -rf ~/stuff', 'bash']);
      assert.deepEqual(person.questions.map((q) => [q.command, q.shell, q.reasons]), [['rm -rf ~/stuff', 'bash', ['a command for bash']]]);
    });

    it('a key is no command: Ctrl+C goes through with nothing to ask', async () => {
      await nestedShell();
      check.verdict = (call) => (call.kind === 'input' && call.command ? { kind: 'ask', reason: 'a command' } : { kind: 'pass' });
      await service.input({ name: 'nested', text: '\u0003', timeoutMs: 300 });
      assert.deepEqual(host.last.sentText, [{ text: '\u0003', addNewLine: false }]);
      assert.equal(person.questions.length, 0);
      const seen = check.seen.at(-1);
      assert.ok(seen?.kind === 'input' && seen.command === undefined);
    });

    it('an answer to a program that is not a shell is no command', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Continue? [y/N] ');
      };
      const asked = await service.run({ command: 'apt remove foo', name: 'apt' });
      assert.equal(asked.status, 'waiting_for_input');
      host.last.onSendText = () => host.last.current.end(0);
      await service.input({ name: 'apt', text: 'y' });
      const seen = check.seen.at(-1);
      assert.ok(seen?.kind === 'input');
      assert.deepEqual([seen.text, seen.command], ['y', undefined]);
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
