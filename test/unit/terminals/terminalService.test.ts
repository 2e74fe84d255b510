/**
 * TerminalService against a fake TerminalHost: the tool front and the terminal registry with
 * real runs and real output capture, but terminals, executions and the OS probe scripted by each
 * test. Short grace and timeouts come in through the settings, so the suite takes seconds.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TerminalRunResult } from '../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { nestedSession } from '../../../extension/src/core/service/runMessages';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { TerminalService } from '../../../extension/src/core/service/terminalService';
import type { TerminalSessionEvent } from '../../../extension/src/core/terminals/terminalSession';
import { collectingLogger, TempDirs, waitFor } from '../ledger/helpers';
import { FakeTerminalHost, idleShell, marks, ScriptedProbe, type FakeTerminal, SHELL_SCRIPTS } from './fakeTerminalHost';
import { integrationFilesProvider } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { managedEnv } from '../../../extension/src/core/terminals/integration/integrationLaunch';
import { batchJobAnswer } from '../../../extension/src/core/run/batchJobPrompt';
import { pwshReportingFileText } from '../../../extension/src/core/terminals/commandText';


const testSettings: ShepherdSettings = {
  ...defaultSettings,
  gracePeriodMs: 300,
  defaultTimeoutMs: 5000,
  shellIntegrationTimeoutMs: 1000,
};

const jobInForeground = (foregroundCommand?: string): ShellActivity => ({
  foreground: 'job',
  readingTerminal: false,
  ...(foregroundCommand ? { foregroundCommand } : {}),
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const busyTail =
  'Use another name (for example "default-2"), wait for it with terminal_state {name: "default", wait: true}, ' +
  'or stop it with terminal_input {name: "default", text: "\\u0003"}.';

async function rejectsWith(promise: Promise<unknown>, code: BridgeErrorCode, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ShepherdError, `expected a ShepherdError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

/** The result without its duration, which no test can know exactly. */
function withoutDuration(result: TerminalRunResult): Omit<TerminalRunResult, 'durationMs'> {
  const { durationMs, ...rest } = result;
  assert.equal(typeof durationMs, 'number');
  return rest;
}

/** Commands listed in `table` complete at once with (output, exit code); any other starts and keeps running. */
function script(host: FakeTerminalHost, table: Record<string, readonly [string, number]> = {}): void {
  host.onExecute = (execution) => {
    const done = table[execution.commandLine];
    if (done) execution.complete(done[0], done[1]);
    else execution.start();
  };
}

/** The terminal of `name` once its `count`-th execution exists (the call that sends it is still on its way). */
function executionsIn(host: FakeTerminalHost, name: string, count: number): Promise<FakeTerminal> {
  return waitFor(`execution ${count} in "${name}"`, () => {
    const terminal = host.terminals.find((t) => t.options.name === `Shepherd: ${name}` && !t.closed);
    return terminal !== undefined && terminal.executions.length >= count && terminal;
  });
}

describe('TerminalService against a fake TerminalHost', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let probe: ScriptedProbe;
  let service: TerminalService;
  let workspace: string;
  let privateDir: string;
  const runsDir = (): string => path.join(privateDir, 'runs');
  /** What managedEnv names: the private folder (and PowerShell's shared script, unused by other shells). */
  const files = (): { runsDir: string; pwshCommon: string } => ({ runsDir: runsDir(), pwshCommon: '' });

  function setup(options: { settings?: Partial<ShepherdSettings>; noWorkspace?: boolean; logFilePath?: () => string } = {}): void {
    workspace = dirs.make('terminal-service-');
    mkdirSync(path.join(workspace, 'sub'));
    host = new FakeTerminalHost();
    probe = new ScriptedProbe();
    const settings = { ...testSettings, ...options.settings };
    service = new TerminalService({
      host,
      settings: () => settings,
      createOutput: () => new OutputCapture({ limitChars: settings.outputLimitChars, ...(options.logFilePath ? { logFilePath: options.logFilePath } : {}) }),
      probeShell: probe.probeShell,
      workspaceFolder: () => (options.noWorkspace ? undefined : workspace),
      integrationFiles: integrationFilesProvider(SHELL_SCRIPTS, (privateDir = dirs.make('terminal-service-private-'))),
      logger: collectingLogger(),
      isTrusted: () => true,
    });
  }

  beforeEach(() => setup());

  afterEach(() => {
    service.dispose();
    host.dispose();
    dirs.cleanup();
  });

  describe('terminal_run', () => {
    it('reports a completed run: output without prompt and echo, exit code, duration and shell pid', async () => {
      host.onExecute = (execution) => {
        // The shell prints its prompt and echoes the command line before running it.
        execution.push(`${marks.prompt}echo hello; echo world\r\n`);
        execution.start();
        execution.push('hello\r\nworld\r\n');
        setTimeout(() => execution.end(0), 60);
      };
      const calledAt = performance.now();
      const result = await service.run({ command: 'echo hello; echo world' });
      const elapsed = performance.now() - calledAt;
      assert.deepEqual(withoutDuration(result), {
        status: 'completed',
        output: 'hello\nworld',
        exitCode: 0,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'echo hello; echo world',
        pid: 1001,
        strategy: 'vscode',
      });
      assert.ok(result.durationMs >= 50 && result.durationMs <= Math.ceil(elapsed), `durationMs ${result.durationMs}, call took ${elapsed}`);
    });

    it('completes once the OS probe says the shell is idle, without waiting out the grace period', async () => {
      setup({ settings: { gracePeriodMs: 60_000 } });
      script(host, { true: ['', 0] });
      // With a 60 s grace, only the probe can complete this run within the call's 5 s.
      const result = await service.run({ command: 'true', timeoutMs: 5000 });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, 0);
      assert.deepEqual(new Set(probe.probed), new Set([1001]));
    });

    it('an end the OS contradicts (a job holds the terminal past the grace) is premature: waits for the prompt, no exit code, says why', async () => {
      probe.activity = jobInForeground('cat notes.bin');
      script(host, { 'cat notes.bin': ['part\r\n', 0] });
      setTimeout(() => (probe.activity = idleShell), testSettings.gracePeriodMs + 400);
      const result = await service.run({ command: 'cat notes.bin' });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, undefined);
      assert.equal(result.output, 'part');
      assert.ok(result.durationMs >= testSettings.gracePeriodMs + 350, `waited for the prompt (${result.durationMs} ms)`);
      assert.match(String(result.message), /reported this command's end while it was still running .* output after that point is missing here \(terminal "default" shows it\) and the exit code is unknown/);
    });

    it('says so when the shell reported no exit code', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('interrupted\r\n');
        // An end without a code, as after an interruption or with an old integration script.
        execution.end(undefined);
      };
      const result = await service.run({ command: 'cat' });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, undefined);
      assert.equal(
        result.message,
        'The shell did not report an exit code (the command was interrupted, or the shell integration script did not report it).',
      );
    });

    it('reuses an idle terminal by name and creates a new one for a new name, in the workspace folder', async () => {
      setup({ settings: { shellPath: '/usr/bin/fish' } });
      script(host, { one: ['1\r\n', 0], two: ['2\r\n', 0], three: ['3\r\n', 0] });
      assert.equal((await service.run({ command: 'one' })).output, '1');
      const second = await service.run({ command: 'two' });
      assert.equal(second.output, '2');
      assert.equal(second.pid, 1001);
      assert.equal(host.terminals.length, 1, 'the second run reused the terminal');
      assert.deepEqual(
        host.last.executions.map((e) => e.commandLine),
        ['one', 'two'],
      );

      const third = await service.run({ command: 'three', name: 'build' });
      assert.equal(third.name, 'build');
      assert.equal(third.pid, 1002);
      assert.deepEqual(
        host.terminals.map((t) => t.options),
        [
          { name: 'Shepherd: default', reveal: true, cwd: workspace, shellPath: '/usr/bin/fish', env: managedEnv('fish', files()) },
          { name: 'Shepherd: build', reveal: true, cwd: workspace, shellPath: '/usr/bin/fish', env: managedEnv('fish', files()) },
        ],
      );
      assert.deepEqual(host.integrationWaits, [1000, 1000]);
    });

    it('creates a terminal without a cwd when no folder is open, and keeps it hidden when revealOnCreate is off', async () => {
      setup({ noWorkspace: true, settings: { revealOnCreate: false } });
      script(host, { ls: ['', 0] });
      await service.run({ command: 'ls' });
      assert.deepEqual(host.last.options, { name: 'Shepherd: default', reveal: false, env: managedEnv('bash', files()) });
    });
  });

  describe('execution strategies', () => {
    it("falls back to Terminal Shepherd's integration when VS Code's does not activate, and says so in results and the list", async () => {
      host.shellIntegration = (terminal) => terminal.options.shellArgs !== undefined;
      script(host, { 'echo hi': ['hi\r\n', 0] });
      const result = await service.run({ command: 'echo hi' });
      assert.equal(result.strategy, 'shepherd');
      assert.equal(result.output, 'hi');
      const [plain, ours] = host.terminals;
      assert.equal(plain!.disposed, true, "the terminal without integration is gone");
      assert.equal(plain!.options.shellArgs, undefined);
      assert.equal(ours!.options.shellPath, '/bin/bash');
      assert.equal(ours!.options.shellArgs![0], '--init-file');
      assert.match(readFileSync(ours!.options.shellArgs![1]!, 'utf8'), /633;D;%s/);
      assert.deepEqual(ours!.options.env, managedEnv('bash', files()));
      assert.deepEqual(service.list().map((t) => [t.shell, t.strategy]), [['bash', 'shepherd']]);
    });

    it('starts with our integration when VS Code injection is off', async () => {
      host.injection = false;
      script(host, { true: ['', 0] });
      assert.equal((await service.run({ command: 'true' })).strategy, 'shepherd');
      assert.equal(host.terminals.length, 1);
    });

    it('gives dash our integration through $ENV and sends C itself: eval keeps a syntax error inside the run', async () => {
      setup({ settings: { shellPath: '/usr/bin/dash' } });
      script(host, { "__tshep_c; eval 'echo it'\\''s'": ["it's\r\n", 0] });
      const result = await service.run({ command: "echo it's" });
      assert.equal(result.strategy, 'shepherd');
      assert.equal(result.output, "it's");
      assert.equal(result.command, "echo it's");
      const env = host.last.options.env!;
      assert.match(env.ENV!, /posix\.sh$/);
      assert.equal(env.TSHEP_USER_ENV, process.env.ENV ?? '');
      assert.deepEqual(service.list().map((t) => [t.shell, t.strategy]), [['dash', 'shepherd']]);
    });

    it("takes an execution showing the sent line as the run's own (a wrapped long line, a right prompt after it), not a stray one", async () => {
      host.onExecute = (_ours, terminal) => {
        // A stray execution from the prompt first: it must not end the run.
        terminal.typed('').complete('', 0);
        // VS Code read the line from the screen: the wrap shows as a line break, the right prompt follows; ours never starts.
        setTimeout(() => terminal.typed('echo a-long-\nline    ✔ 16:30:39').complete('a-long-line\r\n', 5), 50);
      };
      const result = await service.run({ command: 'echo a-long-line' });
      assert.deepEqual([result.status, result.output, result.exitCode], ['completed', 'a-long-line', 5]);
    });

    it('a codeless end right before the real execution (a theme redrew the prompt) does not end the run', async () => {
      host.onExecute = (ours, terminal) => {
        ours.start();
        ours.end(undefined);
        setTimeout(() => terminal.typed(ours.commandLine).complete('real\r\n', 0), 100);
      };
      const result = await service.run({ command: 'echo real' });
      assert.deepEqual([result.status, result.output, result.exitCode], ['completed', 'real', 0]);
    });

    it('runs a multi-line command as one execution that sources a private temp file, removed when the run ends', async () => {
      let file = '';
      host.onExecute = (execution) => {
        const match = /^\. "\$TSHEP_R\/(.+)"$/.exec(execution.commandLine);
        assert.ok(match, execution.commandLine);
        file = path.join(host.last.options.env!.TSHEP_R!, match[1]!);
        assert.equal(readFileSync(file, 'utf8'), 'cat <<EOF\nline one\nEOF\n(exit 4)\n');
        assert.equal(statSync(file).mode & 0o777, 0o600);
        execution.complete('line one\r\n', 4);
      };
      const result = await service.run({ command: 'cat <<EOF\nline one\nEOF\n(exit 4)\n' });
      assert.deepEqual([result.output, result.exitCode, result.command], ['line one', 4, 'cat <<EOF\nline one\nEOF\n(exit 4)\n']);
      await waitFor('the temp file to be removed', () => !existsSync(file));
    });
  });

  describe('honest degradation', () => {
    it('a nested shell or remote session: waiting_for_input, no exit code, and what to do', async () => {
      probe.activity = { foreground: 'job', readingTerminal: true, foregroundCommand: 'ssh dev@box' };
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Welcome\r\ndev@box:~$ ');
      };
      const result = await service.run({ command: 'ssh dev@box' });
      assert.equal(result.status, 'waiting_for_input');
      assert.equal(result.exitCode, undefined);
      assert.equal(result.prompt, 'dev@box:~$');
      assert.match(String(result.message), /^`ssh` waits for input: a shell or session of its own, where Terminal Shepherd's shell integration does not reach\./);
      assert.match(String(result.message), /without an exit code \(none is invented\).*terminal_input \{name: "default", text: "exit"\}/);
    });

    it('tells shells and sessions from other programs', () => {
      for (const command of ['bash --norc', '/usr/bin/zsh', '-bash', 'sh', 'ssh -t host', 'docker exec -it web sh', 'sudo -i']) {
        assert.ok(nestedSession(command), command);
      }
      for (const command of ['python3', 'node', 'less file', 'git log', undefined]) {
        assert.equal(nestedSession(command), undefined, String(command));
      }
    });
  });

  describe('PowerShell exit codes (recorded sequences: pwsh cannot be installed here)', () => {
    const pwsh = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    const osc = (body: string): string => `\x1b]633;${body}\x07`;
    /** What shell/pwsh.ps1's prompt writes after a command: the ladder's properties, then D, then the next prompt's marks. */
    const promptAfter = (code: number, source: string): string =>
      `${osc(`P;TshepExitCode=${code}`)}${osc(`P;TshepExitSource=${source}`)}${osc(`D;${code}`)}`;
    /** The command file of an execution (`[__TshepC; ]. "$env:TSHEP_R/c-....ps1"`). */
    const fileOf = (terminal: FakeTerminal, line: string): string => {
      const match = /^(?:__TshepC; )?\. "\$env:TSHEP_R\/(c-[0-9a-f]+\.ps1)"$/.exec(line);
      assert.ok(match, line);
      return readFileSync(path.join(terminal.options.env!.TSHEP_R!, match[1]!), 'utf8');
    };

    it('our integration (the default for PowerShell): C from the typed line, the command file holds the command alone, the code and its source from the prompt', async () => {
      setup({ settings: { shellPath: pwsh } });
      let line = '';
      let file = '';
      host.onExecute = (execution, terminal) => {
        line = execution.commandLine;
        file = fileOf(terminal, execution.commandLine);
        // The shape of VS Code's recording windows11_pwsh7_echo_3_times.ts (microsoft/vscode,
        // src/vs/workbench/contrib/terminal/test/browser/xterm/recordings/rich): the output with
        // CRLF, then the end in a chunk of its own; here with our ladder's properties before D.
        execution.start();
        execution.push('fatal: not a git repository\r\n');
        execution.push(promptAfter(128, 'native'));
        execution.end(128);
      };
      const result = await service.run({ command: 'git status' });
      assert.deepEqual([result.status, result.exitCode, result.exitCodeSource, result.output, result.strategy], ['completed', 128, 'native', 'fatal: not a git repository', 'shepherd']);
      assert.match(line, /^__TshepC; \. "\$env:TSHEP_R\/c-[0-9a-f]+\.ps1"$/);
      assert.equal(file, 'git status\n', 'the end marker comes from the prompt, never from the command line or its file');
      const terminal = host.terminals[0]!;
      assert.deepEqual(terminal.options.shellArgs?.slice(0, 5), ['-NoLogo', '-NoExit', '-ExecutionPolicy', 'Bypass', '-Command']);
      assert.equal(terminal.options.env?.TSHEP_PWSH?.endsWith('pwshCommon.ps1'), true);
    });

    it('every case of the ladder, each run with its own code: native failure in a `;` chain, cmdlets after it, 5.1 stderr through 2>&1, a terminating error (and the terminal keeps working)', async () => {
      setup({ settings: { shellPath: pwsh } });
      const streams: Array<[string, number, string]> = [
        ['', 3, 'native'], // cmd /c exit 3; Get-Date: $? true, LASTEXITCODE 3
        ['ok\r\n', 0, 'shell'], // Get-Date: no native program ran; LASTEXITCODE was cleared, never the stale 3
        ['git : Everything up-to-date\r\n', 0, 'inferred'], // 5.1: git push 2>&1 exited 0, $? false through NativeCommandError
        ['boom\r\n', 1, 'shell'], // throw "boom": the file stopped; the prompt still reported
        ['after\r\n', 0, 'shell'], // not poisoned: the next command runs and ends
      ];
      host.onExecute = (execution) => {
        const [data, code, source] = streams.shift()!;
        execution.complete(`${data}${promptAfter(code, source)}`, code);
      };
      const results = [];
      for (const command of ['cmd /c exit 3; Get-Date', 'Get-Date', 'git push 2>&1', 'throw "boom"', "'after'"]) {
        const r = await service.run({ command });
        results.push([r.exitCode, r.exitCodeSource]);
      }
      assert.deepEqual(results, [
        [3, 'native'],
        [0, 'shell'],
        [0, 'inferred'],
        [1, 'shell'],
        [0, 'shell'],
      ]);
    });

    it("VS Code's integration (a fallback, or chosen): the file reports the code VS Code's D;0/1 cannot carry; without a report (a terminating error) D stands", async () => {
      setup({ settings: { shellPath: pwsh, strategy: 'vscode' } });
      let file = '';
      const streams: Array<[string, number]> = [
        [`fatal: not a git repository\r\n${osc('P;TshepExitCode=128')}${osc('P;TshepExitSource=native')}`, 1],
        ['terminating error\r\n', 1],
      ];
      host.onExecute = (execution, terminal) => {
        file = fileOf(terminal, execution.commandLine);
        const [data, code] = streams.shift()!;
        execution.complete(data, code);
      };
      const first = await service.run({ command: 'git status' });
      assert.deepEqual([first.strategy, first.exitCode, first.exitCodeSource, first.output], ['vscode', 128, 'native', 'fatal: not a git repository']);
      assert.equal(file, pwshReportingFileText('git status'));
      const second = await service.run({ command: 'throw "x"' });
      assert.deepEqual([second.exitCode, second.exitCodeSource], [1, 'shell']);
    });

    it("cmd.exe's batch-job question after our Ctrl+C is answered yes (npm.cmd in PowerShell); the same question without our Ctrl+C is left to the caller", async () => {
      setup({ settings: { shellPath: pwsh } });
      host.onExecute = (execution) => {
        execution.start();
        execution.push('> vite\r\n  Local: http://localhost:5173/\r\n');
      };
      await service.run({ command: 'npm run dev', waitMode: 'background' });
      const terminal = host.last;
      terminal.onSendText = (text) => {
        // cmd.exe's recorded answer to Ctrl+C in a batch file: ^C, then the question, then a wait.
        if (text === '\u0003') terminal.current.push('^C\r\nTerminate batch job (Y/N)? ');
        if (text === 'Y') terminal.current.complete(`Y\r\n${promptAfter(1, 'native')}`, 1);
      };
      const stopped = await service.input({ name: 'default', text: '\u0003' });
      assert.deepEqual(terminal.sentText.map((t) => [t.text, t.addNewLine]), [['\u0003', false], ['Y', true]]);
      assert.deepEqual([stopped.status, stopped.exitCode], ['completed', 1]);

      // A batch file asking by itself (no Ctrl+C of ours): the question is the caller's to answer.
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Terminate batch job (Y/N)? ');
      };
      const asked = await service.run({ command: 'cmd /c ask.cmd', name: 'asks' });
      assert.equal(asked.status, 'waiting_for_input');
      assert.equal(asked.prompt, 'Terminate batch job (Y/N)?');
      assert.deepEqual(host.last.sentText, []);
    });

    it('reads the answer letter from the localized question', () => {
      assert.equal(batchJobAnswer('Terminate batch job (Y/N)? '), 'Y');
      assert.equal(batchJobAnswer('Batchvorgang abbrechen (J/N)? '), 'J');
      assert.equal(batchJobAnswer('Terminer le programme de commandes (O/N) ? '), 'O');
      assert.equal(batchJobAnswer('¿Desea terminar el trabajo por lotes (S/N)? '), 'S');
      assert.equal(batchJobAnswer('Continue? (y/n)'), undefined);
    });

    it('other shells: the exit code is the shell\'s own (exitCodeSource shell)', async () => {
      script(host, { false: ['', 1] });
      const r = await service.run({ command: 'false' });
      assert.deepEqual([r.exitCode, r.exitCodeSource], [1, 'shell']);
    });
  });

  describe('busy terminals', () => {
    it('refuses a second run while the first is active, naming the running command', async () => {
      script(host);
      const first = service.run({ command: 'sleep 5' });
      const terminal = await executionsIn(host, 'default', 1);
      await rejectsWith(
        service.run({ command: 'ls' }),
        BridgeErrorCode.TerminalBusy,
        /^Terminal "default" is busy: `sleep 5` is running \(started [\d.]+ m?s ago\)\. Use another name/,
      );
      terminal.current.end(0);
      assert.equal((await first).status, 'completed');
      assert.deepEqual(
        terminal.executions.map((e) => e.commandLine),
        ['sleep 5'],
        'nothing was typed into the busy terminal',
      );
    });

    it('refuses a run while another call is still creating the terminal', async () => {
      let integrationReady!: (ready: boolean) => void;
      host.shellIntegration = new Promise<boolean>((resolve) => (integrationReady = resolve));
      script(host, { first: ['', 0] });
      const first = service.run({ command: 'first' });
      await waitFor('the terminal to be created', () => host.terminals.length === 1);
      await rejectsWith(
        service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: another call is starting a command there right now. ${busyTail}`,
      );
      integrationReady(true);
      assert.equal((await first).status, 'completed');
      assert.equal(host.terminals.length, 1);
      assert.deepEqual(
        host.last.executions.map((e) => e.commandLine),
        ['first'],
      );
    });

    it('refuses a run while another call holds the terminal to change its directory', async () => {
      script(host, { first: ['', 0] });
      await service.run({ command: 'first' });
      const sub = path.join(workspace, 'sub');
      host.onExecute = (execution) => {
        if (execution.commandLine.startsWith('cd ')) execution.start();
        else execution.complete('', 0);
      };
      const second = service.run({ command: 'ls', cwd: 'sub' });
      const terminal = await executionsIn(host, 'default', 2);
      await rejectsWith(
        service.run({ command: 'pwd' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: another call is starting a command there right now. ${busyTail}`,
      );
      terminal.cwd = sub;
      terminal.current.end(0);
      assert.equal((await second).status, 'completed');
      assert.deepEqual(
        terminal.executions.map((e) => e.commandLine),
        ['first', `cd -- '${sub}'`, 'ls'],
      );
    });

    it('treats a command the user typed as busy until its end', async () => {
      script(host, { first: ['', 0], second: ['ok\r\n', 0] });
      await service.run({ command: 'first' });
      const typed = host.last.typed('npm run dev');
      typed.start();
      await rejectsWith(
        service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: \`npm run dev\` is running (typed in the terminal, not started by Terminal Shepherd). ${busyTail}`,
      );
      assert.equal(service.list()[0]?.busy, true);
      typed.end(0);
      const result = await service.run({ command: 'second' });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, 'ok');
    });

    it("refuses a terminal whose foreground the OS sees held by a job, with the job's command", async () => {
      script(host, { first: ['', 0], second: ['', 0] });
      await service.run({ command: 'first' });
      probe.activity = jobInForeground('vim notes.txt');
      await rejectsWith(
        service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: \`vim notes.txt\` holds the terminal's foreground. ${busyTail}`,
      );
      probe.activity = jobInForeground();
      await rejectsWith(
        service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: a program holds the terminal's foreground. ${busyTail}`,
      );
      assert.equal(host.last.executions.length, 1);
      probe.activity = idleShell;
      assert.equal((await service.run({ command: 'second' })).status, 'completed');
    });
  });

  describe('cwd', () => {
    it('starts a new terminal in a cwd relative to the workspace folder, with no cd', async () => {
      script(host, { ls: ['a.txt\r\n', 0] });
      const result = await service.run({ command: 'ls', cwd: 'sub' });
      assert.equal(result.output, 'a.txt');
      assert.equal(host.last.options.cwd, path.join(workspace, 'sub'));
      assert.deepEqual(
        host.last.executions.map((e) => e.commandLine),
        ['ls'],
      );
    });

    it('refuses a missing directory or a file, before any terminal is created', async () => {
      writeFileSync(path.join(workspace, 'notes.txt'), 'x');
      await rejectsWith(
        service.run({ command: 'ls', cwd: 'missing' }),
        BridgeErrorCode.InvalidInput,
        `cwd "missing" (${path.join(workspace, 'missing')}) does not exist. Give an existing directory, absolute or relative to the workspace folder.`,
      );
      await rejectsWith(
        service.run({ command: 'ls', cwd: path.join(workspace, 'notes.txt') }),
        BridgeErrorCode.InvalidInput,
        `cwd "${path.join(workspace, 'notes.txt')}" (${path.join(workspace, 'notes.txt')}) is not a directory. Give an existing directory, absolute or relative to the workspace folder.`,
      );
      assert.equal(host.terminals.length, 0);
    });

    it('refuses a relative cwd when no folder is open', async () => {
      setup({ noWorkspace: true });
      await rejectsWith(
        service.run({ command: 'ls', cwd: 'sub' }),
        BridgeErrorCode.InvalidInput,
        'cwd "sub" is relative but no workspace folder is open; give an absolute path.',
      );
    });

    it('moves an existing bash terminal with its own cd execution, and reports only the command', async () => {
      const dir = path.join(workspace, "it's here");
      mkdirSync(dir);
      host.onExecute = (execution, terminal) => {
        if (execution.commandLine.startsWith('cd ')) {
          terminal.cwd = dir;
          execution.complete('', 0);
        } else {
          execution.complete(`${execution.commandLine} output\r\n`, 0);
        }
      };
      await service.run({ command: 'first' });
      const result = await service.run({ command: 'ls', cwd: dir });
      assert.deepEqual(withoutDuration(result), { status: 'completed', output: 'ls output', exitCode: 0, exitCodeSource: 'shell', name: 'default', command: 'ls', pid: 1001, strategy: 'vscode' });
      // Already there: no second cd.
      await service.run({ command: 'pwd', cwd: "it's here" });
      assert.deepEqual(
        host.last.executions.map((e) => e.commandLine),
        ['first', `cd -- '${workspace}/it'\\''s here'`, 'ls', 'pwd'],
      );
    });

    it('moves an existing PowerShell terminal with Set-Location', async () => {
      setup({ settings: { shellPath: 'C:\\Program Files\\PowerShell\\7\\pwsh.exe' } });
      const sub = path.join(workspace, 'sub');
      const commands: string[] = [];
      host.onExecute = (execution, terminal) => {
        // PowerShell commands go through a file (see "PowerShell exit codes"); with our integration it holds the command alone.
        const name = /(c-[0-9a-f]+\.ps1)/.exec(execution.commandLine)![1]!;
        commands.push(readFileSync(path.join(terminal.options.env!.TSHEP_R!, name), 'utf8').trimEnd());
        execution.complete('', 0);
      };
      await service.run({ command: 'first' });
      await service.run({ command: 'Get-ChildItem', cwd: 'sub' });
      assert.deepEqual(commands, ['first', `Set-Location -LiteralPath '${sub}'`, 'Get-ChildItem']);
    });

    it('fails with InvalidInput when the cd fails, and leaves the terminal usable', async () => {
      const sub = path.join(workspace, 'sub');
      host.onExecute = (execution) => {
        if (execution.commandLine.startsWith('cd ')) execution.complete(`bash: cd: ${sub}: Permission denied\r\n`, 1);
        else execution.complete('', 0);
      };
      await service.run({ command: 'first' });
      await rejectsWith(
        service.run({ command: 'ls', cwd: 'sub' }),
        BridgeErrorCode.InvalidInput,
        `Could not change terminal "default" to cwd "${sub}" (completed, exit code 1): bash: cd: ${sub}: Permission denied`,
      );
      assert.deepEqual(
        host.last.executions.map((e) => e.commandLine),
        ['first', `cd -- '${sub}'`],
        'the command was not sent after the failed cd',
      );
      assert.equal((await service.run({ command: 'pwd' })).status, 'completed');
    });
  });

  describe('cancel and timeout', () => {
    it('with run.cancelInterrupts (opt-in), sends Ctrl+C when the client cancels, and reports the exit code once the command stopped', async () => {
      service.dispose();
      host.dispose();
      setup({ settings: { cancelInterrupts: true } });
      host.onExecute = (execution) => {
        execution.start();
        execution.push('working\r\n');
      };
      const abort = new AbortController();
      const call = service.run({ command: 'npm test' }, { signal: abort.signal });
      const terminal = await executionsIn(host, 'default', 1);
      terminal.onSendText = (text) => {
        if (text === '\u0003') {
          terminal.current.push('^C\r\n');
          terminal.current.end(130);
        }
      };
      abort.abort();
      const result = await call;
      assert.deepEqual(withoutDuration(result), {
        status: 'cancelled',
        output: 'working\n^C',
        exitCode: 130,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'npm test',
        pid: 1001,
        strategy: 'vscode',
        message: 'Cancelled by the client: Ctrl+C was sent to terminal "default" (setting terminalShepherd.run.cancelInterrupts).',
      });
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
      assert.equal(service.list()[0]?.busy, false);
    });

    it('with run.cancelInterrupts, sends Ctrl+C when the client cancels a background run during its first glance', async () => {
      service.dispose();
      host.dispose();
      setup({ settings: { cancelInterrupts: true } });
      script(host);
      const abort = new AbortController();
      const call = service.run({ command: 'npm run dev', waitMode: 'background' }, { signal: abort.signal });
      const terminal = await executionsIn(host, 'default', 1);
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      abort.abort();
      const result = await call;
      assert.equal(result.status, 'cancelled');
      assert.equal(result.exitCode, 130);
      assert.equal(result.message, 'Cancelled by the client: Ctrl+C was sent to terminal "default" (setting terminalShepherd.run.cancelInterrupts).');
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
    });

    it('returns timeout with the next step; the command keeps running and terminal_state wait:true reports its end', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('compiling\r\n');
      };
      const result = await service.run({ command: 'make', timeoutMs: 200 });
      assert.deepEqual(withoutDuration(result), {
        status: 'timeout',
        output: 'compiling',
        name: 'default',
        command: 'make',
        pid: 1001,
        strategy: 'vscode',
        message:
          'Still running after 200 ms; the command keeps running in terminal "default". ' +
          'Wait more with terminal_state {name: "default", wait: true}, or stop it with terminal_input {name: "default", text: "\\u0003"}.',
        nextCall: { tool: 'terminal_state', arguments: { name: 'default', wait: true } },
      });
      assert.deepEqual(
        service.list().map((t) => [t.busy, t.status]),
        [[true, 'running']],
      );
      const waiting = service.state({ name: 'default', wait: true });
      host.last.current.push('done\r\n');
      host.last.current.end(0);
      assert.deepEqual(withoutDuration(await waiting), {
        status: 'completed',
        output: 'compiling\ndone',
        exitCode: 0,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'make',
        pid: 1001,
        strategy: 'vscode',
      });
    });
  });

  describe('background waitMode', () => {
    it('returns running after a glance; terminal_state follows the run to its end', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('listening on 5173\r\n');
      };
      const running = {
        status: 'running',
        output: 'listening on 5173',
        name: 'default',
        command: 'npm run dev',
        pid: 1001,
        strategy: 'vscode',
        message:
          'It keeps running. Check on it with terminal_state {name: "default"} (wait: true blocks until it ends), ' +
          'stop it with terminal_input {name: "default", text: "\\u0003"}.',
      };
      assert.deepEqual(withoutDuration(await service.run({ command: 'npm run dev', waitMode: 'background' })), running);
      assert.deepEqual(withoutDuration(await service.state({ name: 'default' })), running);
      host.last.current.end(0);
      const ended = await service.state({ name: 'default', wait: true });
      assert.equal(ended.status, 'completed');
      assert.equal(ended.exitCode, 0);
    });

    it('returns completed when the command ends within the glance', async () => {
      script(host, { 'npm run build': ['built\r\n', 0] });
      const result = await service.run({ command: 'npm run build', waitMode: 'background' });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, 'built');
      assert.equal(result.exitCode, 0);
    });
  });

  describe('cascading executions', () => {
    it('keeps an execution that starts before the grace ends in the run, and completes after the last end with its exit code', async () => {
      // The OS cannot confirm idleness yet, so the grace period (300 ms) runs after the first end.
      probe.activity = jobInForeground();
      host.onExecute = (first, terminal) => {
        first.complete('one\r\n', 0);
        // The shell reads the second line of the input right after the first command ended.
        setImmediate(() => {
          const second = terminal.typed('echo two; exit 3');
          second.start();
          second.push('two\r\n');
        });
      };
      const call = service.run({ command: './both.sh' });
      const terminal = await executionsIn(host, 'default', 2);
      await sleep(testSettings.gracePeriodMs + 200);
      assert.deepEqual(
        service.list().map((t) => [t.busy, t.status]),
        [[true, 'running']],
        'still running past the grace: the second execution has not ended',
      );
      probe.activity = idleShell;
      terminal.current.end(3);
      assert.deepEqual(withoutDuration(await call), {
        status: 'completed',
        output: 'one\ntwo',
        exitCode: 3,
        exitCodeSource: 'shell',
        name: 'default',
        command: './both.sh',
        pid: 1001,
        strategy: 'vscode',
      });
    });
  });

  describe('long output', () => {
    it('names the log file with the whole output when it could be written', async () => {
      const logs = dirs.make('logs-');
      setup({ settings: { outputLimitChars: 1000 }, logFilePath: () => path.join(logs, 'run.log') });
      script(host, { 'seq 1 5000': [Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join(''), 0] });
      const result = await service.run({ command: 'seq 1 5000' });
      assert.equal(result.truncated, true);
      assert.equal(result.outputFile, path.join(logs, 'run.log'));
      assert.equal(result.message, undefined);
    });

    it('says in the result that the full output could not be saved when .devtools/logs cannot be written', async () => {
      const blocked = dirs.make('blocked-'); // a directory where the log file should be: the open fails
      setup({ settings: { outputLimitChars: 1000 }, logFilePath: () => blocked });
      script(host, { 'seq 1 5000': [Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join(''), 0] });
      const result = await service.run({ command: 'seq 1 5000' });
      assert.equal(result.truncated, true);
      assert.equal(result.outputFile, undefined);
      assert.match(String(result.message), /^The full output could not be saved under \.devtools\/logs \(EISDIR: [^)]+\); only its head and tail are here\.$/);
    });
  });

  describe('closed terminals', () => {
    it('reports terminal_closed with the exit code when the shell exits mid-run', async () => {
      script(host);
      const call = service.run({ command: 'node server.js' });
      const terminal = await executionsIn(host, 'default', 1);
      terminal.close(137);
      assert.deepEqual(withoutDuration(await call), {
        status: 'terminal_closed',
        output: '',
        exitCode: 137,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'node server.js',
        pid: 1001,
        strategy: 'vscode',
        message: 'The shell of terminal "default" exited before the command finished (the exit code is the shell\'s). terminal_run with the name "default" starts a new terminal.',
      });
    });

    it('a shell killed mid-run (VS Code says exit code 0, as for a signal) never reports a success', async () => {
      script(host);
      const call = service.run({ command: 'sleep 60' });
      const terminal = await executionsIn(host, 'default', 1);
      terminal.close(0);
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, undefined);
      assert.match(String(result.message), /VS Code reported exit code 0, which it also reports for a shell killed by a signal, so no exit code is given/);
      assert.deepEqual(service.list(), []);
    });

    it('the shell gone while VS Code keeps the terminal (no close event ever): terminal_closed, the terminal disposed, the name starts afresh', async () => {
      script(host, { 'echo reborn': ['reborn\r\n', 0] });
      const events: string[] = [];
      service.onDidChange((e) => events.push(e.kind));
      const call = service.run({ command: 'exit 3', timeoutMs: 5000 });
      const terminal = await executionsIn(host, 'default', 1);
      probe.gone.add(terminal.pid);
      const result = await call;
      assert.deepEqual(withoutDuration(result), {
        status: 'terminal_closed',
        output: '',
        name: 'default',
        command: 'exit 3',
        pid: 1001,
        strategy: 'vscode',
        message:
          'The shell of terminal "default" is gone (it exited or was killed) before the command finished. VS Code kept the terminal ' +
          "without reporting the shell's exit, so no exit code is given; the terminal was closed. terminal_run with the name \"default\" starts a new terminal.",
      });
      assert.ok(result.durationMs < 3000, `ended by the OS's answer, not the timeout (${result.durationMs} ms)`);
      assert.equal(terminal.disposed, true, 'the dead terminal is closed');
      assert.deepEqual(service.list(), []);
      assert.deepEqual(events, ['sessionCreated', 'runStarted', 'runStateChanged', 'sessionClosed']);
      const again = await service.run({ command: 'echo reborn' });
      assert.equal(again.output, 'reborn');
      assert.equal(again.pid, 1002);
    });

    it('the shell gone, then VS Code closes the terminal with the exit code: that exit code is reported', async () => {
      script(host);
      const call = service.run({ command: 'exit 3' });
      const terminal = await executionsIn(host, 'default', 1);
      probe.gone.add(terminal.pid);
      await sleep(500); // probed "gone" meanwhile; VS Code's close comes within the grace
      terminal.close(3);
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, 3);
    });

    it('an idle terminal whose shell died unseen is replaced by the next run, not typed into', async () => {
      script(host, { true: ['', 0] });
      await service.run({ command: 'true' });
      const dead = host.last;
      probe.gone.add(dead.pid);
      const result = await service.run({ command: 'true' });
      assert.equal(dead.disposed, true);
      assert.equal(result.status, 'completed');
      assert.equal(result.pid, 1002);
      assert.equal(dead.executions.length, 1, 'nothing was typed into the dead terminal');
    });

    it('the window closing closes the terminal first: terminal_closed, saying so, with no exit code', async () => {
      script(host);
      const call = service.run({ command: 'npm test' });
      const terminal = await executionsIn(host, 'default', 1);
      terminal.close(0, 'window');
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, undefined);
      assert.match(String(result.message), /^Terminal "default" closed because the VS Code window is closing or reloading; the command ended with it\. Once the window is back/);
    });

    it('a call waiting when the service is disposed (window reload) ends at once with WindowClosing, not at its timeout', async () => {
      script(host);
      const call = service.run({ command: 'npm test', timeoutMs: 60_000 });
      await executionsIn(host, 'default', 1);
      const t0 = performance.now();
      service.dispose();
      await rejectsWith(call, BridgeErrorCode.WindowClosing, /^The VS Code window is closing or reloading, so the wait on `npm test` in terminal "default" ended/);
      assert.ok(performance.now() - t0 < 1000);
      service.dispose(); // idempotent
    });

    it('answers a call waiting on a terminal the user closes, keeps its last run, and starts a new terminal for the name', async () => {
      script(host, { 'npm start': ['started\r\n', 0] });
      await service.run({ command: 'npm run dev', waitMode: 'background' });
      // A timeout the test cannot reach: a hang would show as 'timeout' instead of terminal_closed.
      const waiting = service.state({ name: 'default', wait: true, timeoutMs: 8000 });
      host.last.close(undefined);
      const closed = await waiting;
      assert.equal(closed.status, 'terminal_closed');
      assert.equal(closed.exitCode, undefined);
      assert.equal(closed.message, 'Terminal "default" was closed by the user before the command finished. terminal_run with the name "default" starts a new terminal.');
      assert.equal(closed.command, 'npm run dev');

      assert.deepEqual(withoutDuration(await service.state({ name: 'default' })), withoutDuration(closed));
      assert.deepEqual(service.list(), []);
      await rejectsWith(
        service.input({ name: 'default', text: 'y' }),
        BridgeErrorCode.TerminalClosed,
        'Terminal "default" was closed. Start a new one with terminal_run {name: "default", command}.',
      );
      assert.deepEqual(host.last.sentText, []);

      const fresh = await service.run({ command: 'npm start' });
      assert.equal(fresh.status, 'completed');
      assert.equal(fresh.pid, 1002);
      assert.equal(host.terminals.length, 2);
      assert.equal((await service.state({ name: 'default' })).command, 'npm start');
    });
  });

  describe('terminal_input', () => {
    it('answers a waiting_for_input prompt with the text and Enter; the run resumes and completes', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Continue? [y/N] ');
      };
      const waiting = await service.run({ command: './deploy.sh' });
      assert.deepEqual(withoutDuration(waiting), {
        status: 'waiting_for_input',
        output: 'Continue? [y/N]',
        prompt: 'Continue? [y/N]',
        name: 'default',
        command: './deploy.sh',
        pid: 1001,
        strategy: 'vscode',
        message:
          'The command waits for input. Answer with terminal_input {name: "default", text: "..."}, ' +
          'or stop it with terminal_input {name: "default", text: "\\u0003"}.',
      });
      const terminal = host.last;
      terminal.onSendText = (text) => {
        terminal.current.push(`${text}\r\ndeployed\r\n`);
        terminal.current.end(0);
      };
      const answered = await service.input({ name: 'default', text: 'y' });
      assert.equal(answered.status, 'completed');
      assert.equal(answered.output, 'Continue? [y/N] y\ndeployed');
      assert.equal(answered.exitCode, 0);
      assert.deepEqual(terminal.sentText, [{ text: 'y', addNewLine: true }]);
    });

    it('sends control keys without Enter, and text without Enter when asked', async () => {
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Overwrite? [y/N] ');
      };
      assert.equal((await service.run({ command: 'cp -i a b' })).status, 'waiting_for_input');
      const terminal = host.last;
      // Typed but not submitted: the prompt still waits.
      assert.equal((await service.input({ name: 'default', text: 'n', enter: false })).status, 'waiting_for_input');
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      const stopped = await service.input({ name: 'default', text: '\u0003' });
      assert.equal(stopped.status, 'completed');
      assert.equal(stopped.exitCode, 130);
      assert.deepEqual(terminal.sentText, [
        { text: 'n', addNewLine: false },
        { text: '\u0003', addNewLine: false },
      ]);
    });

    it('refuses input when nothing runs, naming the last command and how it ended', async () => {
      script(host, { make: ['', 2] });
      await service.run({ command: 'make' });
      await rejectsWith(
        service.input({ name: 'default', text: 'y' }),
        BridgeErrorCode.NoActiveRun,
        'Nothing is running in terminal "default" (its last command `make` has completed with exit code 2), so there is no prompt to answer. To run a command use terminal_run.',
      );
      assert.deepEqual(host.last.sentText, []);
    });
  });

  describe('terminal_state, terminal_list and reveal', () => {
    it('names the known terminals when asked for an unknown one', async () => {
      const notFound = (known: string): string => `No terminal named "nope". ${known} terminal_run creates a terminal for a new name.`;
      await rejectsWith(service.state({ name: 'nope' }), BridgeErrorCode.TerminalNotFound, notFound('No managed terminal exists yet.'));
      script(host, { ls: ['', 0] });
      await service.run({ command: 'ls' });
      await service.run({ command: 'ls', name: 'build' });
      await rejectsWith(service.state({ name: 'nope' }), BridgeErrorCode.TerminalNotFound, notFound('Managed terminals: "default", "build".'));
    });

    it('falls back to the extension-owned terminal when no shell integration activates', async function () {
      if (process.platform !== 'linux') this.skip();
      host.shellIntegration = false;
      const result = await service.run({ command: 'echo via-pty; sh -c "exit 6"' });
      assert.deepEqual([result.status, result.output, result.exitCode, result.strategy], ['completed', 'via-pty', 6, 'pseudoterminal']);
      assert.deepEqual(host.terminals.map((t) => t.disposed), [true, true], "VS Code's and ours were tried and closed");
      assert.equal(host.pseudoterminals.length, 1);
    });

    it('fails with ShellIntegrationUnavailable, naming each strategy tried, when no strategy works', async () => {
      setup();
      const failing = new TerminalService({
        host,
        settings: () => testSettings,
        createOutput: () => new OutputCapture({ limitChars: testSettings.outputLimitChars }),
        probeShell: probe.probeShell,
        workspaceFolder: () => workspace,
        integrationFiles: () => Promise.reject(new Error('disk full')),
        logger: collectingLogger(),
        isTrusted: () => true,
      });
      host.shellIntegration = false;
      try {
        await rejectsWith(
          failing.run({ command: 'ls' }),
          BridgeErrorCode.ShellIntegrationUnavailable,
          'Terminal "default" could not be opened in a way that shows when commands end (shell /bin/bash): ' +
            'vscode: shell integration did not activate within 1000 ms; shepherd: its scripts could not be written (disk full); ' +
            'pseudoterminal: no private folder for its command files (disk full). ' +
            'Choose another shell with terminalShepherd.terminal.shellPath, or set terminalShepherd.terminal.strategy to "pseudoterminal", then retry.',
        );
        assert.deepEqual(host.terminals.map((t) => t.disposed), [true]);
        assert.deepEqual(failing.list(), []);
        await rejectsWith(failing.state({ name: 'default' }), BridgeErrorCode.TerminalNotFound, /^No terminal named "default"\. No managed terminal exists yet\./);
      } finally {
        failing.dispose();
      }
    });

    it('lists every open terminal: name, busy, pid, cwd, command, status and exit code', async () => {
      script(host, { false: ['', 1] });
      await service.run({ command: 'false' });
      await service.run({ command: 'npm run dev', name: 'dev', waitMode: 'background' });
      assert.deepEqual(service.list(), [
        { name: 'default', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode', pid: 1001, cwd: workspace, command: 'false', status: 'completed', exitCode: 1 },
        { name: 'dev', busy: true, shellIntegration: true, shell: 'bash', strategy: 'vscode', pid: 1002, cwd: workspace, command: 'npm run dev', status: 'running' },
      ]);
      host.last.close(undefined);
      assert.deepEqual(
        service.list().map((t) => t.name),
        ['default'],
      );
    });

    it('reveals a managed terminal to the user, and says when there is none', async () => {
      script(host, { ls: ['', 0] });
      await service.run({ command: 'ls' });
      assert.equal(service.reveal('default'), true);
      assert.equal(service.reveal('nope'), false);
      assert.deepEqual(host.last.shown, [false]);
    });
  });

  describe('events and lifetime', () => {
    it('fires sessionCreated, runStarted, runStateChanged and sessionClosed in order', async () => {
      const seen: string[] = [];
      const line = (e: TerminalSessionEvent): string => [e.kind, e.session.name, ...('run' in e ? [e.run.command, e.run.state.kind] : [])].join(' ');
      service.onDidChange((e) => seen.push(line(e)));
      host.onExecute = (execution) => {
        execution.start();
        execution.push('Proceed? [y/N] ');
      };
      assert.equal((await service.run({ command: 'rm -ri build' })).status, 'waiting_for_input');
      const terminal = host.last;
      terminal.onSendText = () => terminal.current.end(0);
      await service.input({ name: 'default', text: 'y' });
      terminal.close(0);
      assert.deepEqual(seen, [
        'sessionCreated default',
        'runStarted default rm -ri build running',
        'runStateChanged default rm -ri build waiting_for_input',
        'runStateChanged default rm -ri build running',
        'runStateChanged default rm -ri build completed',
        'sessionClosed default',
      ]);
    });

    it('leaves no timer behind when disposed with a command still running', async () => {
      const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      await sleep(1); // mocha arms its own test timer after the test function started
      const before = timers();
      script(host);
      await service.run({ command: 'npm run dev', waitMode: 'background' });
      assert.ok(timers() > before, 'the running command has its timers');
      service.dispose();
      await sleep(10);
      assert.equal(timers(), before);
      // Events of the editor after dispose reach nobody.
      host.last.current.end(0);
      host.last.close(0);
      assert.deepEqual(service.list(), []);
    });
  });
});
