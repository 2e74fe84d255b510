/**
 * TerminalService against a fake TerminalHost (terminalServiceSupport.ts): how a command reaches
 * each shell and how its exit code comes back. VS Code's shell integration, or Terminal Shepherd's
 * own when VS Code's does not activate or injection is off; dash through $ENV; the run's own
 * execution told from stray ones and from a redrawn prompt; a multi-line command through a private
 * file; the ends of the fallback (the extension's own pseudoterminal, or an error naming each
 * strategy tried). PowerShell's exit codes (recorded sequences) through either integration, and cmd.exe's
 * batch-job question after Ctrl+C.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { batchJobAnswer } from '../../../extension/src/core/run/batchJobPrompt';
import { noDevServers } from '../../../extension/src/core/servers/noDevServers';
import { TerminalService } from '../../../extension/src/core/service/terminalService';
import { pwshReportingFileText } from '../../../extension/src/core/terminals/commandText';
import { managedEnv } from '../../../extension/src/core/terminals/integration/integrationLaunch';
import { collectingLogger } from '../../support/collectingLogger';
import { waitFor } from '../processes/helpers';
import type { FakeTerminal } from '../terminals/fakeTerminalHost';
import { rejectsWith, script, testSettings, useTerminalService, testMarks } from './terminalServiceSupport';

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('execution strategies', () => {
    it("falls back to Terminal Shepherd's integration when VS Code's does not activate, and says so in results and the list", async () => {
      t.setup({ settings: { strategy: 'vscode' } });
      t.host.shellIntegration = (terminal) => terminal.options.shellArgs !== undefined;
      script(t.host, { 'echo hi': ['hi\r\n', 0] });
      const result = await t.service.run({ command: 'echo hi' });
      assert.equal(result.strategy, 'shepherd');
      assert.equal(result.output, 'hi');
      const [plain, ours] = t.host.terminals;
      assert.equal(plain!.disposed, true, "the terminal without integration is gone");
      assert.equal(plain!.options.shellArgs, undefined);
      assert.equal(ours!.options.shellPath, '/bin/bash');
      assert.equal(ours!.options.shellArgs![0], '--init-file');
      assert.match(readFileSync(ours!.options.shellArgs![1]!, 'utf8'), /633;D;%s/);
      assert.deepEqual(ours!.options.env, managedEnv('bash', t.files(), testMarks));
      assert.deepEqual(t.service.list().map((info) => [info.shell, info.strategy]), [['bash', 'shepherd']]);
    });

    it('starts with our integration when VS Code injection is off', async () => {
      t.host.injection = false;
      script(t.host, { true: ['', 0] });
      assert.equal((await t.service.run({ command: 'true' })).strategy, 'shepherd');
      assert.equal(t.host.terminals.length, 1);
    });

    it('gives dash our integration through $ENV and sends C itself: eval keeps a syntax error inside the run', async () => {
      t.setup({ settings: { shellPath: '/usr/bin/dash' } });
      script(t.host, { "__tshep_c; eval 'echo it'\\''s'": ["it's\r\n", 0] });
      const result = await t.service.run({ command: "echo it's" });
      assert.equal(result.strategy, 'shepherd');
      assert.equal(result.output, "it's");
      assert.equal(result.command, "echo it's");
      const env = t.host.last.options.env!;
      assert.match(env.ENV!, /posix\.sh$/);
      assert.equal(env.TSHEP_USER_ENV, process.env.ENV ?? '');
      assert.deepEqual(t.service.list().map((info) => [info.shell, info.strategy]), [['dash', 'shepherd']]);
    });

    it("takes an execution showing the sent line as the run's own (a wrapped long line, a right prompt after it), not a stray one", async () => {
      t.host.onExecute = (_ours, terminal) => {
        // A stray execution from the prompt first: it must not end the run.
        terminal.typed('').complete('', 0);
        // VS Code read the line from the screen: the wrap shows as a line break, the right prompt follows; ours never starts.
        setTimeout(() => terminal.typed('echo a-long-\nline    ✔ 16:30:39').complete('a-long-line\r\n', 5), 50);
      };
      const result = await t.service.run({ command: 'echo a-long-line' });
      assert.deepEqual([result.status, result.output, result.exitCode], ['completed', 'a-long-line', 5]);
    });

    it('a codeless end right before the real execution (a theme redrew the prompt) does not end the run', async () => {
      t.host.onExecute = (ours, terminal) => {
        ours.start();
        ours.end(undefined);
        setTimeout(() => terminal.typed(ours.commandLine).complete('real\r\n', 0), 100);
      };
      const result = await t.service.run({ command: 'echo real' });
      assert.deepEqual([result.status, result.output, result.exitCode], ['completed', 'real', 0]);
    });

    it('runs a multi-line command as one execution that sources a private temp file, removed when the run ends', async () => {
      let file = '';
      t.host.onExecute = (execution) => {
        const match = /^\. "\$TSHEP_R\/(.+)"$/.exec(execution.commandLine);
        assert.ok(match, execution.commandLine);
        file = path.join(t.host.last.options.env!.TSHEP_R!, match[1]!);
        assert.equal(readFileSync(file, 'utf8'), 'cat <<EOF\nline one\nEOF\n(exit 4)\n');
        assert.equal(statSync(file).mode & 0o777, 0o600);
        execution.complete('line one\r\n', 4);
      };
      const result = await t.service.run({ command: 'cat <<EOF\nline one\nEOF\n(exit 4)\n' });
      assert.deepEqual([result.output, result.exitCode, result.command], ['line one', 4, 'cat <<EOF\nline one\nEOF\n(exit 4)\n']);
      await waitFor('the temp file to be removed', () => !existsSync(file));
    });

    it('falls back to the extension-owned terminal when no shell integration activates', async function () {
      if (process.platform !== 'linux') this.skip();
      t.host.shellIntegration = false;
      const result = await t.service.run({ command: 'echo via-pty; sh -c "exit 6"' });
      assert.deepEqual([result.status, result.output, result.exitCode, result.strategy], ['completed', 'via-pty', 6, 'pseudoterminal']);
      assert.deepEqual(t.host.terminals.map((terminal) => terminal.disposed), [true, true], "VS Code's and ours were tried and closed");
      assert.equal(t.host.pseudoterminals.length, 1);
    });

    it('fails with ShellIntegrationUnavailable, naming each strategy tried, when no strategy works', async () => {
      t.setup();
      const failing = new TerminalService({
        host: t.host,
        settings: () => testSettings,
        createOutput: () => new OutputCapture({ limitChars: testSettings.outputLimitChars }),
        probeShell: t.probe.probeShell,
        workspaceFolder: () => t.workspace,
        integrationFiles: () => Promise.reject(new Error('disk full')),
        logger: collectingLogger(),
        isTrusted: () => true,
        servers: noDevServers,
      });
      t.host.shellIntegration = false;
      try {
        await rejectsWith(
          failing.run({ command: 'ls' }),
          BridgeErrorCode.ShellIntegrationUnavailable,
          'Terminal "default" could not be opened in a way that shows when commands end (shell /bin/bash): ' +
            'shepherd: its scripts could not be written (disk full); vscode: shell integration did not activate within 1000 ms; ' +
            'pseudoterminal: no private folder for its command files (disk full). ' +
            'Choose another shell with terminalShepherd.terminal.shellPath, or set terminalShepherd.terminal.strategy to "pseudoterminal", then retry.',
        );
        assert.deepEqual(t.host.terminals.map((terminal) => terminal.disposed), [true]);
        assert.deepEqual(failing.list(), []);
        await rejectsWith(failing.state({ name: 'default' }), BridgeErrorCode.TerminalNotFound, /^No terminal named "default"\. No managed terminal exists yet\./);
      } finally {
        failing.dispose();
      }
    });
  });

  describe('PowerShell exit codes (recorded sequences: pwsh cannot be installed here)', () => {
    const pwsh = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    const osc = (body: string): string => `\x1b]633;${body}\x07`;
    /** What shell/pwsh.ps1's prompt writes after a command: the ladder's properties, then D, then the next prompt's marks. */
    const promptAfter = (code: number, source: string): string =>
      `${osc(`P;TshepExitCode=${code}`)}${osc(`P;TshepExitSource=${source}`)}${osc(`D;${code}`)}`;
    /** The command file of an execution (`[__TshepC; ]. "$env:TSHEP_R/c-....ps1"[; __TshepAfterFile ...]`). */
    const fileOf = (terminal: FakeTerminal, line: string): string => {
      const match = /^(?:__TshepC; )?\. "\$env:TSHEP_R\/(c-[0-9a-f]+\.ps1)"(?:; __TshepAfterFile \$\? \$global:LASTEXITCODE)?$/.exec(line);
      assert.ok(match, line);
      return readFileSync(path.join(terminal.options.env!.TSHEP_R!, match[1]!), 'utf8');
    };

    it('our integration (the default for PowerShell): C from the typed line, the command file holds the command alone, the code and its source from the prompt', async () => {
      t.setup({ settings: { shellPath: pwsh } });
      let line = '';
      let file = '';
      t.host.onExecute = (execution, terminal) => {
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
      const result = await t.service.run({ command: 'git status' });
      assert.deepEqual([result.status, result.exitCode, result.exitCodeSource, result.output, result.strategy], ['completed', 128, 'native', 'fatal: not a git repository', 'shepherd']);
      assert.match(line, /^__TshepC; \. "\$env:TSHEP_R\/c-[0-9a-f]+\.ps1"$/);
      // The file keeps its own $? (after `. file`, $? says only that the file ran) for the prompt to report.
      assert.equal(file, 'git status\n$global:__TshepFileOk = $?\n', 'the end marker comes from the prompt, never from the command line or its file');
      const terminal = t.host.terminals[0]!;
      assert.deepEqual(terminal.options.shellArgs?.slice(0, 5), ['-NoLogo', '-NoExit', '-ExecutionPolicy', 'Bypass', '-Command']);
      assert.equal(terminal.options.env?.TSHEP_PWSH?.endsWith('pwshCommon.ps1'), true);
    });

    it('every case of the ladder, each run with its own code: native failure in a `;` chain, cmdlets after it, 5.1 stderr through 2>&1, a terminating error (and the terminal keeps working)', async () => {
      t.setup({ settings: { shellPath: pwsh } });
      const streams: Array<[string, number, string]> = [
        ['', 3, 'native'], // cmd /c exit 3; Get-Date: $? true, LASTEXITCODE 3
        ['ok\r\n', 0, 'shell'], // Get-Date: no native program ran; LASTEXITCODE was cleared, never the stale 3
        ['git : Everything up-to-date\r\n', 0, 'inferred'], // 5.1: git push 2>&1 exited 0, $? false through NativeCommandError
        ['boom\r\n', 1, 'shell'], // throw "boom": the file stopped; the prompt still reported
        ['after\r\n', 0, 'shell'], // not poisoned: the next command runs and ends
      ];
      t.host.onExecute = (execution) => {
        const [data, code, source] = streams.shift()!;
        execution.complete(`${data}${promptAfter(code, source)}`, code);
      };
      const results = [];
      for (const command of ['cmd /c exit 3; Get-Date', 'Get-Date', 'git push 2>&1', 'throw "boom"', "'after'"]) {
        const r = await t.service.run({ command });
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
      t.setup({ settings: { shellPath: pwsh, strategy: 'vscode' } });
      let file = '';
      const streams: Array<[string, number]> = [
        [`fatal: not a git repository\r\n${osc('P;TshepExitCode=128')}${osc('P;TshepExitSource=native')}`, 1],
        ['terminating error\r\n', 1],
      ];
      t.host.onExecute = (execution, terminal) => {
        file = fileOf(terminal, execution.commandLine);
        const [data, code] = streams.shift()!;
        execution.complete(data, code);
      };
      const first = await t.service.run({ command: 'git status' });
      assert.deepEqual([first.strategy, first.exitCode, first.exitCodeSource, first.output], ['vscode', 128, 'native', 'fatal: not a git repository']);
      assert.equal(file, pwshReportingFileText('git status', { reportScreen: true }));
      const second = await t.service.run({ command: 'throw "x"' });
      assert.deepEqual([second.exitCode, second.exitCodeSource], [1, 'shell']);
    });

    it("cmd.exe's batch-job question after our Ctrl+C is answered yes (npm.cmd in PowerShell); the same question without our Ctrl+C is left to the caller", async () => {
      t.setup({ settings: { shellPath: pwsh } });
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('> vite\r\n  Local: http://localhost:5173/\r\n');
      };
      await t.service.run({ command: 'npm run dev', waitMode: 'background' });
      const terminal = t.host.last;
      terminal.onSendText = (text) => {
        // cmd.exe's recorded answer to Ctrl+C in a batch file: ^C, then the question, then a wait.
        if (text === '\u0003') terminal.current.push('^C\r\nTerminate batch job (Y/N)? ');
        if (text === 'Y') terminal.current.complete(`Y\r\n${promptAfter(1, 'native')}`, 1);
      };
      const stopped = await t.service.input({ name: 'default', text: '\u0003' });
      assert.deepEqual(terminal.sentText.map((sent) => [sent.text, sent.addNewLine]), [['\u0003', false], ['Y', true]]);
      assert.deepEqual([stopped.status, stopped.exitCode], ['completed', 1]);

      // A batch file asking by itself (no Ctrl+C of ours): the question is the caller's to answer.
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Terminate batch job (Y/N)? ');
      };
      const asked = await t.service.run({ command: 'cmd /c ask.cmd', name: 'asks' });
      assert.equal(asked.status, 'waiting_for_input');
      assert.equal(asked.prompt, 'Terminate batch job (Y/N)?');
      assert.deepEqual(t.host.last.sentText, []);
    });

    it('reads the answer letter from the localized question', () => {
      assert.equal(batchJobAnswer('Terminate batch job (Y/N)? '), 'Y');
      assert.equal(batchJobAnswer('Batchvorgang abbrechen (J/N)? '), 'J');
      assert.equal(batchJobAnswer('Terminer le programme de commandes (O/N) ? '), 'O');
      assert.equal(batchJobAnswer('¿Desea terminar el trabajo por lotes (S/N)? '), 'S');
      assert.equal(batchJobAnswer('Continue? (y/n)'), undefined);
    });

    it('other shells: the exit code is the shell\'s own (exitCodeSource shell)', async () => {
      script(t.host, { false: ['', 1] });
      const r = await t.service.run({ command: 'false' });
      assert.deepEqual([r.exitCode, r.exitCodeSource], [1, 'shell']);
    });
  });
});
