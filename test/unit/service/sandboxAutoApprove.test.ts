/**
 * chat.agent.sandbox.allowAutoApprove as VS Code 1.139's run_in_terminal reads it: with VS Code's
 * sandbox on and the setting true (its default), a line that runs in the sandbox is not asked
 * about; the floor still is; with the setting false, or the sandbox unable to run here, the rules
 * decide as before (and a sandbox that cannot run refuses before any question). The terminal
 * service with the real safety check and the real runtime; the scripted terminal runs what is
 * typed in a real bash, so the disk shows where a line wrote.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BridgeErrorCode } from '../../../common/src/protocol';
import type { DecisionRecord } from '../../../extension/src/core/checks/checkCall';
import type { ApprovalQuestion } from '../../../extension/src/core/checks/commandCheck';
import { SessionApprovalStore } from '../../../extension/src/core/checks/commandSafety/approvalChoices';
import { inProcessParser, type LineParser } from '../../../extension/src/core/checks/commandSafety/lineParser';
import { commandSafetyCheck } from '../../../extension/src/core/checks/commandSafetyCheck';
import { ShepherdError } from '../../../extension/src/core/errors';
import { CommandSandbox } from '../../../extension/src/core/sandbox/commandSandbox';
import { missingDependencies } from '../../../extension/src/core/sandbox/sandboxAvailability';
import { defaultVsCodeSandboxSettings, type VsCodeSandboxSettings } from '../../../extension/src/core/sandboxSettings';
import type { TerminalService } from '../../../extension/src/core/service/terminalService';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { collectingLogger } from '../../support/collectingLogger';
import { grammars } from '../../support/packageGrammars';
import { buildSandboxRunner } from '../../support/sandboxRunnerBuild';
import { TempDirs } from '../../support/tempDirs';
import { defaultSafetySettings } from '../checks/commandSafety/fixtures';
import { FakeTerminalHost, typedAnywhere } from '../terminals/fakeTerminalHost';
import { fakeTerminalService } from './serviceSupport';

const linux = process.platform === 'linux';

describe('chat.agent.sandbox.allowAutoApprove: a line that runs in VS Code\'s sandbox needs no question', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  let runnerPath: string;
  let home: string;
  let workspace: string;
  let outside: string;
  let host: FakeTerminalHost;
  let service: TerminalService;
  let sandbox: CommandSandbox;
  let questions: ApprovalQuestion[];
  let audit: DecisionRecord[];
  let parser: LineParser;
  let ran: string[];

  before(async function () {
    if (!linux || missingDependencies(process.env.PATH ?? '').length > 0) this.skip();
    const root = dirs.make('tshep-autoapprove-');
    runnerPath = await buildSandboxRunner(root);
    parser = inProcessParser(await grammars.load());
  });
  after(() => dirs.cleanup());
  afterEach(() => {
    service?.dispose();
    host?.dispose();
    sandbox?.dispose();
  });

  function setup(vscodeSandbox: Partial<VsCodeSandboxSettings>, env: NodeJS.ProcessEnv = process.env): void {
    const root = dirs.make('tshep-autoapprove-run-');
    home = path.join(root, 'home');
    workspace = path.join(home, 'project');
    outside = dirs.make('tshep-autoapprove-outside-');
    mkdirSync(workspace, { recursive: true });
    questions = [];
    audit = [];
    const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 200, defaultTimeoutMs: 30_000, shellIntegrationTimeoutMs: 1000, preventShellHistory: false, vscodeSandbox: { ...defaultVsCodeSandboxSettings, enabled: true, ...vscodeSandbox } };
    sandbox = new CommandSandbox({ runner: { execPath: process.execPath, runnerPath }, platform: process.platform, place: () => ({ home, workspaceFolders: [workspace], runtimeReadPaths: [] }), extraPath: [], env: () => env, logger: collectingLogger() });
    host = new FakeTerminalHost();
    // The terminal's shell: what is typed runs in a real bash (the sandboxed line carries its own `cd`).
    ran = [];
    host.onExecute = (execution, terminal) => {
      const env = { ...process.env, ...terminal.options.env };
      // What the shell runs: the typed line, or the command file it sources from the terminal's private folder.
      const file = /"\$TSHEP_R\/([^"]+)"/.exec(execution.commandLine)?.[1];
      ran.push(file ? readFileSync(path.join(env.TSHEP_R ?? '', file), 'utf8') : execution.commandLine);
      execFile('bash', ['-c', execution.commandLine], { cwd: workspace, env, timeout: 30_000 }, (error, stdout, stderr) => {
        execution.complete(`${stdout}${stderr}`.replace(/\n/g, '\r\n'), error ? (typeof error.code === 'number' ? error.code : 1) : 0);
      });
    };
    service = fakeTerminalService(host, () => settings, dirs, {
      workspaceFolder: () => workspace,
      sandbox,
      platform: process.platform,
      checks: [commandSafetyCheck({ parser, settings: () => defaultSafetySettings(workspace), sessions: new SessionApprovalStore(), keepRules: () => Promise.resolve(), home, logger: collectingLogger() })],
      approver: {
        via: 'modal',
        ask: (question) => {
          questions.push(question);
          return Promise.resolve({ kind: 'declined' });
        },
      },
      audit: (record) => audit.push(record),
    });
  }

  it('a line the rules would ask about runs in the sandbox unasked; the result and the audit name the setting; a write outside the workspace still fails', async () => {
    setup({});
    writeFileSync(path.join(workspace, 'old.txt'), 'x');
    const target = path.join(outside, 'escaped.txt');
    const result = await service.run({ command: `rm old.txt && echo out > ${target}` });
    // The one question is the one after the denial, whether to leave the sandbox (declined), never the rules'.
    assert.deepEqual(questions.map((q) => /Run `.*` command outside the sandbox\?$/.test(q.reasons.join())), [true]);
    assert.equal(result.sandbox?.retry?.answer, 'declined');
    assert.equal(result.safety?.decision, 'approved', JSON.stringify(result.safety));
    assert.match(result.safety?.reason ?? '', /VS Code's terminal sandbox, and chat\.agent\.sandbox\.allowAutoApprove approves sandboxed commands \(the rules alone would have asked: .*`rm` \(default\)/);
    assert.ok(result.safety?.rules.includes('chat.agent.sandbox.allowAutoApprove'));
    assert.equal(audit.at(-1)?.safety.decision, 'approved');
    assert.equal(result.sandbox?.mode, 'vscode', JSON.stringify(result));
    assert.match(ran[0] ?? '', /^env ELECTRON_RUN_AS_NODE=1 .*sandboxRunner\.mjs/);
    // Ground truth: the workspace file went (inside), the outside one was never written.
    assert.ok(!existsSync(path.join(workspace, 'old.txt')));
    assert.ok(!existsSync(target));
    assert.notEqual(result.exitCode, 0);
  });

  it('the floor, and a line too long to read, still ask (declined: nothing typed)', async () => {
    setup({});
    const floor = await service.run({ command: 'rm -rf ~' });
    assert.deepEqual([floor.status, questions.length, questions[0]?.floor], ['not_approved', 1, true]);
    const unread = await service.run({ command: `echo ${'x'.repeat(10_001)}` });
    assert.deepEqual([unread.status, unread.safety?.decision, questions.length], ['not_approved', 'asked', 2]);
    assert.match(unread.safety?.reason ?? '', /^asks unread/);
    assert.deepEqual(typedAnywhere(host), []);
  });

  it('with allowAutoApprove false the rules ask as before', async () => {
    setup({ allowAutoApprove: false });
    writeFileSync(path.join(workspace, 'old.txt'), 'x');
    const result = await service.run({ command: 'rm old.txt' });
    assert.deepEqual([result.status, result.safety?.decision, questions.length], ['not_approved', 'asked', 1]);
    assert.equal(readFileSync(path.join(workspace, 'old.txt'), 'utf8'), 'x');
    assert.deepEqual(typedAnywhere(host), []);
  });

  it('a sandbox that cannot run here approves nothing: the call fails before any question, nothing typed', async () => {
    const noBwrap = (process.env.PATH ?? '').split(':').filter((dir) => !existsSync(path.join(dir, 'bwrap'))).join(':');
    setup({}, { ...process.env, PATH: noBwrap });
    await assert.rejects(service.run({ command: 'rm old.txt' }), (error: unknown) => error instanceof ShepherdError && error.code === BridgeErrorCode.SandboxUnavailable);
    assert.deepEqual([questions.length, typedAnywhere(host)], [0, []]);
  });

  it("with VS Code's sandbox off the setting changes nothing", async () => {
    setup({ enabled: false });
    const result = await service.run({ command: 'rm old.txt' });
    assert.deepEqual([result.status, questions.length], ['not_approved', 1]);
  });
});
