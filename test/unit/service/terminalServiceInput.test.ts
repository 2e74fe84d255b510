/**
 * TerminalService against a fake TerminalHost (terminalServiceSupport.ts): a command that waits for
 * input. terminal_input answers a prompt (text and Enter, control keys, text without Enter) and the
 * run resumes; a Ctrl+C waits for the shell to take the line; it is refused when nothing runs. A nested shell or remote session is reported
 * waiting_for_input with what to do and no invented exit code.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import { nestedSession } from '../../../extension/src/core/terminals/shellKind';
import { waitFor } from '../processes/helpers';
import { rejectsWith, script, useTerminalService, withoutDuration } from './terminalServiceSupport';

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('honest degradation', () => {
    it('a nested shell or remote session: waiting_for_input, no exit code, and what to do', async () => {
      t.probe.activity = { foreground: 'job', readingTerminal: true, foregroundCommand: 'ssh dev@box' };
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Welcome\r\ndev@box:~$ ');
      };
      const result = await t.service.run({ command: 'ssh dev@box' });
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

  describe('terminal_input', () => {
    it('answers a waiting_for_input prompt with the text and Enter; the run resumes and completes', async () => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Continue? [y/N] ');
      };
      const waiting = await t.service.run({ command: './deploy.sh' });
      assert.deepEqual(withoutDuration(waiting), {
        status: 'waiting_for_input',
        output: 'Continue? [y/N]',
        prompt: 'Continue? [y/N]',
        name: 'default',
        command: './deploy.sh',
        pid: 1001,
        strategy: 'shepherd',
        message:
          'The command waits for input. Answer with terminal_input {name: "default", text: "..."}, ' +
          'or stop it with terminal_input {name: "default", text: "\\u0003"}.',
      });
      const terminal = t.host.last;
      terminal.onSendText = (text) => {
        terminal.current.push(`${text}\r\ndeployed\r\n`);
        terminal.current.end(0);
      };
      const answered = await t.service.input({ name: 'default', text: 'y' });
      assert.equal(answered.status, 'completed');
      assert.equal(answered.output, 'Continue? [y/N] y\ndeployed');
      assert.equal(answered.exitCode, 0);
      assert.deepEqual(terminal.sentText, [{ text: 'y', addNewLine: true }]);
    });

    it('sends control keys without Enter, and text without Enter when asked', async () => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Overwrite? [y/N] ');
      };
      assert.equal((await t.service.run({ command: 'cp -i a b' })).status, 'waiting_for_input');
      const terminal = t.host.last;
      // Typed but not submitted: the prompt still waits.
      assert.equal((await t.service.input({ name: 'default', text: 'n', enter: false })).status, 'waiting_for_input');
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      const stopped = await t.service.input({ name: 'default', text: '\u0003' });
      assert.equal(stopped.status, 'completed');
      assert.equal(stopped.exitCode, 130);
      assert.deepEqual(terminal.sentText, [
        { text: 'n', addNewLine: false },
        { text: '\u0003', addNewLine: false },
      ]);
    });

    it('a Ctrl+C before the shell took the line waits for it (the command gets it, not the shell)', async () => {
      t.host.onExecute = () => undefined; // a slow shell still reads its rc files
      assert.equal((await t.service.run({ command: 'sleep 60', timeoutMs: 100 })).status, 'timeout');
      const terminal = t.host.last;
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      const stopping = t.service.input({ name: 'default', text: '\u0003' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(terminal.sentText, [], 'nothing typed while the shell still reads its line');
      terminal.current.start();
      const stopped = await stopping;
      assert.deepEqual([stopped.status, stopped.exitCode], ['completed', 130]);
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
    });

    it('refuses input when nothing runs, naming the last command and how it ended', async () => {
      script(t.host, { make: ['', 2] });
      await t.service.run({ command: 'make' });
      await rejectsWith(
        t.service.input({ name: 'default', text: 'y' }),
        BridgeErrorCode.NoActiveRun,
        'Nothing is running in terminal "default" (its last command `make` has completed with exit code 2), so there is no prompt to answer. To run a command use terminal_run.',
      );
      assert.deepEqual(t.host.last.sentText, []);
    });

    it('a key to a terminal that never ran a command is sent, and the result says so (a success, not an error)', async () => {
      let activate!: (active: boolean) => void;
      t.host.shellIntegration = new Promise<boolean>((resolve) => (activate = resolve));
      const abort = new AbortController();
      const call = t.service.run({ command: 'make' }, { signal: abort.signal });
      await waitFor('the terminal is opened', () => t.host.terminals.length === 1);
      abort.abort();
      activate(true);
      await rejectsWith(call, BridgeErrorCode.Cancelled, 'The call was cancelled before the command was sent; nothing was started.');
      const result = await t.service.input({ name: 'default', text: '\u0003' });
      assert.deepEqual(result, {
        status: 'completed',
        output: '',
        name: 'default',
        durationMs: 0,
        strategy: 'shepherd',
        message: "Sent the key to terminal \"default\", which has not run a command yet: nothing of Terminal Shepherd's runs there to wait on.",
      });
      assert.deepEqual(t.host.last.sentText, [{ text: '\u0003', addNewLine: false }]);
    });
  });
});
