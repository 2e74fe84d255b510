/**
 * TerminalService against a fake TerminalHost (terminalServiceSupport.ts): what terminal_run
 * reports and when it returns. A completed run with its output, exit code, duration and shell pid;
 * an end the OS probe confirms early or contradicts; the terminal it opens (reused by name, in the
 * workspace folder, hidden when asked); a cancel (Ctrl+C only when opted in) and a timeout that
 * leave the command followable; the background glance; executions that cascade within the grace;
 * output too long to return whole.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { managedEnv } from '../../../extension/src/core/terminals/integration/integrationLaunch';
import { idleShell, marks } from '../terminals/fakeTerminalHost';
import { executionsIn, jobInForeground, script, sleep, testSettings, useTerminalService, withoutDuration, testMarks } from './terminalServiceSupport';

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('terminal_run', () => {
    it('reports a completed run: output without prompt and echo, exit code, duration and shell pid', async () => {
      t.host.onExecute = (execution) => {
        // The shell prints its prompt and echoes the command line before running it.
        execution.push(`${marks.prompt}echo hello; echo world\r\n`);
        execution.start();
        execution.push('hello\r\nworld\r\n');
        setTimeout(() => execution.end(0), 60);
      };
      const calledAt = performance.now();
      const result = await t.service.run({ command: 'echo hello; echo world' });
      const elapsed = performance.now() - calledAt;
      assert.deepEqual(withoutDuration(result), {
        status: 'completed',
        output: 'hello\nworld',
        exitCode: 0,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'echo hello; echo world',
        pid: 1001,
        strategy: 'shepherd',
      });
      assert.ok(result.durationMs >= 50 && result.durationMs <= Math.ceil(elapsed), `durationMs ${result.durationMs}, call took ${elapsed}`);
    });

    it('completes once the OS probe says the shell is idle, without waiting out the grace period', async () => {
      t.setup({ settings: { gracePeriodMs: 60_000 } });
      script(t.host, { true: ['', 0] });
      // With a 60 s grace, only the probe can complete this run within the call's 5 s.
      const result = await t.service.run({ command: 'true', timeoutMs: 5000 });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, 0);
      assert.deepEqual(new Set(t.probe.probed), new Set([1001]));
    });

    it('an end the OS contradicts (a job holds the terminal past the grace) is premature: waits for the prompt, no exit code, says why', async () => {
      t.probe.activity = jobInForeground('cat notes.bin');
      script(t.host, { 'cat notes.bin': ['part\r\n', 0] });
      setTimeout(() => (t.probe.activity = idleShell), testSettings.gracePeriodMs + 400);
      const result = await t.service.run({ command: 'cat notes.bin' });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, undefined);
      assert.equal(result.output, 'part');
      assert.ok(result.durationMs >= testSettings.gracePeriodMs + 350, `waited for the prompt (${result.durationMs} ms)`);
      assert.match(String(result.message), /reported this command's end while it was still running .* output after that point is missing here \(terminal "default" shows it\) and the exit code is unknown/);
    });

    it('says so when the shell reported no exit code', async () => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('interrupted\r\n');
        // An end without a code, as after an interruption or with an old integration script.
        execution.end(undefined);
      };
      const result = await t.service.run({ command: 'cat' });
      assert.equal(result.status, 'completed');
      assert.equal(result.exitCode, undefined);
      assert.equal(
        result.message,
        'The shell did not report an exit code (the command was interrupted, or the shell integration script did not report it).',
      );
    });

    it('reuses an idle terminal by name and creates a new one for a new name, in the workspace folder', async () => {
      t.setup({ settings: { shellPath: '/usr/bin/fish' } });
      script(t.host, { one: ['1\r\n', 0], two: ['2\r\n', 0], three: ['3\r\n', 0] });
      assert.equal((await t.service.run({ command: 'one' })).output, '1');
      const second = await t.service.run({ command: 'two' });
      assert.equal(second.output, '2');
      assert.equal(second.pid, 1001);
      assert.equal(t.host.terminals.length, 1, 'the second run reused the terminal');
      assert.deepEqual(
        t.host.last.executions.map((e) => e.commandLine),
        ['one', 'two'],
      );

      const third = await t.service.run({ command: 'three', name: 'build' });
      assert.equal(third.name, 'build');
      assert.equal(third.pid, 1002);
      assert.deepEqual(
        t.host.terminals.map((terminal) => terminal.options),
        [
          { name: 'Shepherd: default', reveal: true, cwd: t.workspace, shellPath: '/usr/bin/fish', env: managedEnv('fish', t.files(), testMarks) },
          { name: 'Shepherd: build', reveal: true, cwd: t.workspace, shellPath: '/usr/bin/fish', env: managedEnv('fish', t.files(), testMarks) },
        ],
      );
      assert.deepEqual(t.host.integrationWaits, [1000, 1000]);
    });

    it('creates a terminal without a cwd when no folder is open, and keeps it hidden when revealOnCreate is off', async () => {
      t.setup({ noWorkspace: true, settings: { revealOnCreate: false, strategy: 'vscode' } });
      script(t.host, { ls: ['', 0] });
      await t.service.run({ command: 'ls' });
      assert.deepEqual(t.host.last.options, { name: 'Shepherd: default', reveal: false, env: managedEnv('bash', t.files(), testMarks) });
    });
  });

  describe('cancel and timeout', () => {
    it('with run.cancelInterrupts (opt-in), sends Ctrl+C when the client cancels, and reports the exit code once the command stopped', async () => {
      t.service.dispose();
      t.host.dispose();
      t.setup({ settings: { cancelInterrupts: true } });
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('working\r\n');
      };
      const abort = new AbortController();
      const call = t.service.run({ command: 'npm test' }, { signal: abort.signal });
      const terminal = await executionsIn(t.host, 'default', 1);
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
        strategy: 'shepherd',
        message: 'Cancelled by the client: Ctrl+C was sent to terminal "default" (setting terminalShepherd.run.cancelInterrupts).',
      });
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
      assert.equal(t.service.list()[0]?.busy, false);
    });

    it('with run.cancelInterrupts, a cancel before the shell took the line sends Ctrl+C only once it did (the command gets it, not the shell)', async () => {
      t.service.dispose();
      t.host.dispose();
      t.setup({ settings: { cancelInterrupts: true } });
      t.host.onExecute = () => undefined; // the shell has not read the line yet
      const abort = new AbortController();
      const call = t.service.run({ command: 'sleep 60' }, { signal: abort.signal });
      const terminal = await executionsIn(t.host, 'default', 1);
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      abort.abort();
      await sleep(100);
      assert.deepEqual(terminal.sentText, [], 'no Ctrl+C while the shell still reads its line');
      terminal.current.start();
      const result = await call;
      assert.deepEqual([result.status, result.exitCode], ['cancelled', 130]);
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
    });

    it('with run.cancelInterrupts, sends Ctrl+C when the client cancels a background run during its first glance', async () => {
      t.service.dispose();
      t.host.dispose();
      t.setup({ settings: { cancelInterrupts: true } });
      script(t.host);
      const abort = new AbortController();
      const call = t.service.run({ command: 'npm run dev', waitMode: 'background' }, { signal: abort.signal });
      const terminal = await executionsIn(t.host, 'default', 1);
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
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('compiling\r\n');
      };
      const result = await t.service.run({ command: 'make', timeoutMs: 200 });
      assert.deepEqual(withoutDuration(result), {
        status: 'timeout',
        output: 'compiling',
        name: 'default',
        command: 'make',
        pid: 1001,
        strategy: 'shepherd',
        message:
          'Still running after 200 ms; the command keeps running in terminal "default". ' +
          'Wait more with terminal_state {name: "default", wait: true}, or stop it with terminal_input {name: "default", text: "\\u0003"}.',
        nextCall: { tool: 'terminal_state', arguments: { name: 'default', wait: true } },
      });
      assert.deepEqual(
        t.service.list().map((info) => [info.busy, info.status]),
        [[true, 'running']],
      );
      const waiting = t.service.state({ name: 'default', wait: true });
      t.host.last.current.push('done\r\n');
      t.host.last.current.end(0);
      assert.deepEqual(withoutDuration(await waiting), {
        status: 'completed',
        output: 'compiling\ndone',
        exitCode: 0,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'make',
        pid: 1001,
        strategy: 'shepherd',
      });
    });
  });

  describe('background waitMode', () => {
    it('returns running after a glance; terminal_state follows the run to its end', async () => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('listening on 5173\r\n');
      };
      const running = {
        status: 'running',
        output: 'listening on 5173',
        name: 'default',
        command: 'npm run dev',
        pid: 1001,
        strategy: 'shepherd',
        message:
          'It keeps running. Check on it with terminal_state {name: "default"} (wait: true blocks until it ends), ' +
          'stop it with terminal_input {name: "default", text: "\\u0003"}.',
      };
      assert.deepEqual(withoutDuration(await t.service.run({ command: 'npm run dev', waitMode: 'background' })), running);
      assert.deepEqual(withoutDuration(await t.service.state({ name: 'default' })), running);
      t.host.last.current.end(0);
      const ended = await t.service.state({ name: 'default', wait: true });
      assert.equal(ended.status, 'completed');
      assert.equal(ended.exitCode, 0);
    });

    it('answers only once the shell took the line, also when a slow shell takes it after the glance', async () => {
      let taken = false;
      t.host.onExecute = (execution) => {
        // A fresh shell under load reads the line only after the 300 ms glance.
        setTimeout(() => {
          taken = true;
          execution.start();
        }, 700);
      };
      const result = await t.service.run({ command: 'nohup sleep 600 &', waitMode: 'background' });
      assert.equal(taken, true, 'running before the shell read the line would not survive a crash of the window');
      assert.equal(result.status, 'running');
    });

    it('returns completed when the command ends within the glance', async () => {
      script(t.host, { 'npm run build': ['built\r\n', 0] });
      const result = await t.service.run({ command: 'npm run build', waitMode: 'background' });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, 'built');
      assert.equal(result.exitCode, 0);
    });
  });

  describe('cascading executions', () => {
    it('keeps an execution that starts before the grace ends in the run, and completes after the last end with its exit code', async () => {
      // The OS cannot confirm idleness yet, so the grace period (300 ms) runs after the first end.
      t.probe.activity = jobInForeground();
      t.host.onExecute = (first, terminal) => {
        first.complete('one\r\n', 0);
        // The shell reads the second line of the input right after the first command ended.
        setImmediate(() => {
          const second = terminal.typed('echo two; exit 3');
          second.start();
          second.push('two\r\n');
        });
      };
      const call = t.service.run({ command: './both.sh' });
      const terminal = await executionsIn(t.host, 'default', 2);
      await sleep(testSettings.gracePeriodMs + 200);
      assert.deepEqual(
        t.service.list().map((info) => [info.busy, info.status]),
        [[true, 'running']],
        'still running past the grace: the second execution has not ended',
      );
      t.probe.activity = idleShell;
      terminal.current.end(3);
      assert.deepEqual(withoutDuration(await call), {
        status: 'completed',
        output: 'one\ntwo',
        exitCode: 3,
        exitCodeSource: 'shell',
        name: 'default',
        command: './both.sh',
        pid: 1001,
        strategy: 'shepherd',
      });
    });
  });

  describe('long output', () => {
    it('names the log file with the whole output when it could be written', async () => {
      const logs = t.dirs.make('logs-');
      t.setup({ settings: { outputLimitChars: 1000 }, logFilePath: () => path.join(logs, 'run.log') });
      script(t.host, { 'seq 1 5000': [Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join(''), 0] });
      const result = await t.service.run({ command: 'seq 1 5000' });
      assert.equal(result.truncated, true);
      assert.equal(result.outputFile, path.join(logs, 'run.log'));
      assert.equal(result.message, undefined);
    });

    it('says in the result that the full output could not be saved when .devtools/logs cannot be written', async () => {
      const blocked = t.dirs.make('blocked-'); // a directory where the log file should be: the open fails
      t.setup({ settings: { outputLimitChars: 1000 }, logFilePath: () => blocked });
      script(t.host, { 'seq 1 5000': [Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join(''), 0] });
      const result = await t.service.run({ command: 'seq 1 5000' });
      assert.equal(result.truncated, true);
      assert.equal(result.outputFile, undefined);
      assert.match(String(result.message), /^The full output could not be saved under \.devtools\/logs \(EISDIR: [^)]+\); only its head and tail are here\.$/);
    });
  });
});
