/**
 * TerminalService against a fake TerminalHost: secrets never reach the model. A prompt for a
 * secret is reported sensitive, terminal_input refuses to type into it (Ctrl+C still goes), the
 * window is told (onDidAskForSecret), and under VS Code's global auto-approve the command is
 * cancelled; results and progress lines are redacted and say how many; managed terminals carry
 * AI_AGENT and TERMINAL_SHEPHERD, and bash lines start with the space that keeps them out of history.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import type { SecretAnswer, SecretAsker, SecretPrompt } from '../../../extension/src/core/service/secretQuestion';
import { marker } from '../../../extension/src/core/secrets/redaction';
import { rejectsWith, sleep, useTerminalService } from './terminalServiceSupport';
import { waitFor } from '../processes/helpers';

const token = `ghp_${'Zq8'.repeat(12)}`;

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('sensitive prompts', () => {
    const askPassword = (): void => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('[sudo] password for dev: ');
      };
    };

    it('reports the prompt as sensitive, tells the window, and refuses terminal_input; Ctrl+C still goes', async () => {
      askPassword();
      const told: SecretPrompt[] = [];
      t.service.onDidAskForSecret((prompt) => told.push(prompt));
      const waiting = await t.service.run({ command: 'sudo true' });
      assert.equal(waiting.status, 'waiting_for_input');
      assert.equal(waiting.sensitive, true);
      assert.match(String(waiting.message), /waits for sensitive input .* The user must type it in terminal "default" themselves/);
      assert.deepEqual(told.map(({ terminal, command, prompt }) => ({ terminal, command, prompt })), [{ terminal: 'default', command: 'sudo true', prompt: '[sudo] password for dev:' }]);
      const terminal = t.host.last;
      await rejectsWith(t.service.input({ name: 'default', text: 'hunter2' }), BridgeErrorCode.SensitivePrompt, /asks for a secret .*type it in the terminal themselves/);
      assert.deepEqual(terminal.sentText, [], 'nothing was typed');
      terminal.onSendText = (text) => {
        if (text === '\u0003') terminal.current.end(130);
      };
      const stopped = await t.service.input({ name: 'default', text: '\u0003' });
      assert.equal(stopped.status, 'completed');
      assert.deepEqual(terminal.sentText, [{ text: '\u0003', addNewLine: false }]);
    });

    it('an ordinary prompt is not sensitive and is answered as before', async () => {
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Continue? [y/N] ');
      };
      const waiting = await t.service.run({ command: './deploy.sh' });
      assert.equal(waiting.sensitive, undefined);
      const terminal = t.host.last;
      terminal.onSendText = () => terminal.current.end(0);
      assert.equal((await t.service.input({ name: 'default', text: 'y' })).status, 'completed');
    });

    it("under VS Code's global auto-approve the command is cancelled with Ctrl+C instead, and nobody is asked", async () => {
      t.setup({ settings: { globalAutoApprove: true } });
      const told: SecretPrompt[] = [];
      t.service.onDidAskForSecret((prompt) => told.push(prompt));
      t.host.onExecute = (execution, terminal) => {
        execution.start();
        execution.push('[sudo] password for dev: ');
        terminal.onSendText = (text) => {
          if (text === '\u0003') terminal.current.end(130);
        };
      };
      const result = await t.service.run({ command: 'sudo true' });
      assert.equal(result.status, 'cancelled');
      assert.match(String(result.message), /global auto-approve .* so it was cancelled/);
      assert.deepEqual(t.host.last.sentText, [{ text: '\u0003', addNewLine: false }]);
      assert.deepEqual(told, []);
    });
  });

  describe('a client that can be asked (elicitation)', () => {
    /** A client's question: the test answers it when it likes; each ask is recorded with its signal. */
    function scriptedAsker() {
      const asked: { prompt: SecretPrompt; signal: AbortSignal; answer: (a: SecretAnswer) => void; timeoutMs: number }[] = [];
      const factory = (timeoutMs: number): SecretAsker => ({
        ask: (prompt, signal) => new Promise<SecretAnswer>((answer) => asked.push({ prompt, signal, answer, timeoutMs })),
      });
      return { asked, factory };
    }

    beforeEach(() => {
      t.host.onExecute = (execution, terminal) => {
        execution.start();
        execution.push('[sudo] password for dev: ');
        terminal.onSendText = (text) => {
          if (text === '\u0003') terminal.current.end(130);
        };
      };
    });

    it('the result returns at once while the question is out; Cancel Command sends Ctrl+C; the window shows no notification', async () => {
      const { asked, factory } = scriptedAsker();
      const told: SecretPrompt[] = [];
      t.service.onDidAskForSecret((prompt) => told.push(prompt));
      const waiting = await t.service.run({ command: 'sudo true' }, { secretAsker: factory });
      assert.equal(waiting.status, 'waiting_for_input');
      assert.equal(waiting.sensitive, true);
      assert.deepEqual(asked.map((a) => ({ command: a.prompt.command, prompt: a.prompt.prompt, terminal: a.prompt.terminal })), [{ command: 'sudo true', prompt: '[sudo] password for dev:', terminal: 'default' }]);
      assert.ok(asked[0]!.timeoutMs > 0, 'the question is bounded');
      // The model asks again while the person has not answered: one question.
      assert.equal((await t.service.state({ name: 'default' }, { secretAsker: factory })).sensitive, true);
      assert.equal(asked.length, 1);
      asked[0]!.answer('cancel');
      await waitFor('Ctrl+C typed', () => (t.host.last.sentText.length > 0 ? true : undefined));
      assert.deepEqual(t.host.last.sentText, [{ text: '\u0003', addNewLine: false }]);
      assert.equal((await t.service.state({ name: 'default', wait: true })).exitCode, 130);
      assert.deepEqual(told, []);
    });

    it('Focus Terminal shows the terminal and types nothing', async () => {
      const { asked, factory } = scriptedAsker();
      await t.service.run({ command: 'sudo true' }, { secretAsker: factory });
      const shownBefore = t.host.last.shown.length;
      asked[0]!.answer('focus');
      await waitFor('the terminal shown', () => (t.host.last.shown.length > shownBefore ? true : undefined));
      assert.equal(t.host.last.shown.at(-1), false, 'focused (not preserveFocus)');
      assert.deepEqual(t.host.last.sentText, []);
    });

    it('the question is taken down once the person has typed it (the run leaves the prompt)', async () => {
      const { asked, factory } = scriptedAsker();
      await t.service.run({ command: 'sudo make install' }, { secretAsker: factory });
      assert.equal(asked[0]!.signal.aborted, false);
      t.host.last.current.push('\r\ninstalling\r\n');
      await waitFor('the question taken down', () => (asked[0]!.signal.aborted ? true : undefined));
    });

    it('a question the client could not take falls back to the window’s notification; a dismissed one does not', async () => {
      const told: SecretPrompt[] = [];
      t.service.onDidAskForSecret((prompt) => told.push(prompt));
      await t.service.run({ command: 'sudo true' }, { secretAsker: () => ({ ask: () => Promise.reject(new Error('connection gone')) }) });
      await waitFor('the notification', () => (told.length > 0 ? true : undefined));
      assert.equal(told[0]?.command, 'sudo true');
      t.setup();
      t.service.onDidAskForSecret((prompt) => told.push(prompt));
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Enter passphrase for key \'/home/dev/.ssh/id_ed25519\': ');
      };
      await t.service.run({ command: 'ssh host' }, { secretAsker: () => ({ ask: () => Promise.resolve('declined') }) });
      await sleep(50);
      assert.equal(told.length, 1);
    });
  });

  describe('redaction', () => {
    it('results carry markers instead of secrets and say how many; the command line too', async () => {
      t.host.onExecute = (execution) => execution.complete(`GITHUB_TOKEN=${token}\r\nDB_PASSWORD=correct-horse\r\nHOME=/home/dev\r\n`, 0);
      const result = await t.service.run({ command: `echo ${token}` });
      assert.equal(result.output, [`GITHUB_TOKEN=${marker('GitHub token')}`, `DB_PASSWORD=${marker('value of DB_PASSWORD')}`, 'HOME=/home/dev'].join('\n'));
      assert.equal(result.command, `echo ${marker('GitHub token')}`);
      assert.equal(result.redacted, 3);
    });

    it('an expected failure quoting the command (a busy terminal) is redacted too', async () => {
      t.host.onExecute = (execution) => execution.start();
      await t.service.run({ command: `sleep 100 ${token}`, waitMode: 'background' });
      await rejectsWith(t.service.run({ command: 'true' }), BridgeErrorCode.TerminalBusy, new RegExp(`sleep 100 ${marker('GitHub token')}`));
    });

    it('redacts nothing when the setting is off', async () => {
      t.setup({ settings: { redactSecrets: false } });
      t.host.onExecute = (execution) => execution.complete(`GITHUB_TOKEN=${token}\r\n`, 0);
      const result = await t.service.run({ command: 'printenv GITHUB_TOKEN' });
      assert.equal(result.output, `GITHUB_TOKEN=${token}`);
      assert.equal(result.redacted, undefined);
    });
  });

  describe('agent marks', () => {
    it('a managed terminal carries AI_AGENT (the client) and TERMINAL_SHEPHERD; bash lines start with a space when history is kept clean', async () => {
      t.setup({ settings: { preventShellHistory: true, shellPath: '/bin/bash' } });
      t.host.onExecute = (execution) => execution.complete('', 0);
      await t.service.run({ command: 'make' }, { meta: { client: { name: 'claude-code', version: '2.1.0' } } });
      const env = t.host.last.options.env ?? {};
      assert.equal(env.AI_AGENT, 'claude-code');
      assert.equal(env.TERMINAL_SHEPHERD, '1');
      assert.equal(env.VSCODE_PREVENT_SHELL_HISTORY, '1');
      assert.deepEqual(t.host.last.executions.map((e) => e.commandLine), [' make']);
    });

    it('without the history setting: no variable, no space; an unnamed client is terminal-shepherd', async () => {
      t.setup({ settings: { preventShellHistory: false, shellPath: '/bin/bash' } });
      t.host.onExecute = (execution) => execution.complete('', 0);
      await t.service.run({ command: 'make' });
      const env = t.host.last.options.env ?? {};
      assert.equal(env.AI_AGENT, 'terminal-shepherd');
      assert.equal(env.VSCODE_PREVENT_SHELL_HISTORY, undefined);
      assert.deepEqual(t.host.last.executions.map((e) => e.commandLine), ['make']);
    });
  });
});
