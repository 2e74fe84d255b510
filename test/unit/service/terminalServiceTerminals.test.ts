/**
 * TerminalService against a fake TerminalHost (terminalServiceSupport.ts): which terminal a call
 * gets, and what the registry says of its terminals. A busy terminal is refused, naming why (a
 * run, another call starting one or changing its directory, a command the user typed, a job in
 * the foreground), with nothing typed into it. The cwd: a new terminal starts there, an existing
 * one moves with cd or Set-Location, a missing or failing directory is refused. terminal_state for
 * an unknown name, terminal_list and reveal.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import { waitFor } from '../processes/helpers';
import { idleShell } from '../terminals/fakeTerminalHost';
import { busyTail, executionsIn, jobInForeground, rejectsWith, script, useTerminalService, withoutDuration } from './terminalServiceSupport';

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('busy terminals', () => {
    it('refuses a second run while the first is active, naming the running command', async () => {
      script(t.host);
      const first = t.service.run({ command: 'sleep 5' });
      const terminal = await executionsIn(t.host, 'default', 1);
      await rejectsWith(
        t.service.run({ command: 'ls' }),
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
      t.host.shellIntegration = new Promise<boolean>((resolve) => (integrationReady = resolve));
      script(t.host, { first: ['', 0] });
      const first = t.service.run({ command: 'first' });
      await waitFor('the terminal to be created', () => t.host.terminals.length === 1);
      await rejectsWith(
        t.service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: another call is starting a command there right now. ${busyTail}`,
      );
      integrationReady(true);
      assert.equal((await first).status, 'completed');
      assert.equal(t.host.terminals.length, 1);
      assert.deepEqual(
        t.host.last.executions.map((e) => e.commandLine),
        ['first'],
      );
    });

    it('refuses a run while another call holds the terminal to change its directory', async () => {
      script(t.host, { first: ['', 0] });
      await t.service.run({ command: 'first' });
      const sub = path.join(t.workspace, 'sub');
      t.host.onExecute = (execution) => {
        if (execution.commandLine.startsWith('cd ')) execution.start();
        else execution.complete('', 0);
      };
      const second = t.service.run({ command: 'ls', cwd: 'sub' });
      const terminal = await executionsIn(t.host, 'default', 2);
      await rejectsWith(
        t.service.run({ command: 'pwd' }),
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
      script(t.host, { first: ['', 0], second: ['ok\r\n', 0] });
      await t.service.run({ command: 'first' });
      const typed = t.host.last.typed('npm run dev');
      typed.start();
      await rejectsWith(
        t.service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: \`npm run dev\` is running (typed in the terminal, not started by Terminal Shepherd). ${busyTail}`,
      );
      assert.equal(t.service.list()[0]?.busy, true);
      typed.end(0);
      const result = await t.service.run({ command: 'second' });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, 'ok');
    });

    it("refuses a terminal whose foreground the OS sees held by a job, with the job's command", async () => {
      script(t.host, { first: ['', 0], second: ['', 0] });
      await t.service.run({ command: 'first' });
      t.probe.activity = jobInForeground('vim notes.txt');
      await rejectsWith(
        t.service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: \`vim notes.txt\` holds the terminal's foreground. ${busyTail}`,
      );
      t.probe.activity = jobInForeground();
      await rejectsWith(
        t.service.run({ command: 'second' }),
        BridgeErrorCode.TerminalBusy,
        `Terminal "default" is busy: a program holds the terminal's foreground. ${busyTail}`,
      );
      assert.equal(t.host.last.executions.length, 1);
      t.probe.activity = idleShell;
      assert.equal((await t.service.run({ command: 'second' })).status, 'completed');
    });
  });

  describe('cwd', () => {
    it('starts a new terminal in a cwd relative to the workspace folder, with no cd', async () => {
      script(t.host, { ls: ['a.txt\r\n', 0] });
      const result = await t.service.run({ command: 'ls', cwd: 'sub' });
      assert.equal(result.output, 'a.txt');
      assert.equal(t.host.last.options.cwd, path.join(t.workspace, 'sub'));
      assert.deepEqual(
        t.host.last.executions.map((e) => e.commandLine),
        ['ls'],
      );
    });

    it('refuses a missing directory or a file, before any terminal is created', async () => {
      writeFileSync(path.join(t.workspace, 'notes.txt'), 'x');
      await rejectsWith(
        t.service.run({ command: 'ls', cwd: 'missing' }),
        BridgeErrorCode.InvalidInput,
        `cwd "missing" (${path.join(t.workspace, 'missing')}) does not exist. Give an existing directory, absolute or relative to the workspace folder.`,
      );
      await rejectsWith(
        t.service.run({ command: 'ls', cwd: path.join(t.workspace, 'notes.txt') }),
        BridgeErrorCode.InvalidInput,
        `cwd "${path.join(t.workspace, 'notes.txt')}" (${path.join(t.workspace, 'notes.txt')}) is not a directory. Give an existing directory, absolute or relative to the workspace folder.`,
      );
      assert.equal(t.host.terminals.length, 0);
    });

    it('refuses a relative cwd when no folder is open', async () => {
      t.setup({ noWorkspace: true });
      await rejectsWith(
        t.service.run({ command: 'ls', cwd: 'sub' }),
        BridgeErrorCode.InvalidInput,
        'cwd "sub" is relative but no workspace folder is open; give an absolute path.',
      );
    });

    it('moves an existing bash terminal with its own cd execution, and reports only the command', async () => {
      t.setup({ settings: { strategy: 'vscode' } });
      const dir = path.join(t.workspace, "it's here");
      mkdirSync(dir);
      t.host.onExecute = (execution, terminal) => {
        if (execution.commandLine.startsWith('cd ')) {
          terminal.cwd = dir;
          execution.complete('', 0);
        } else {
          execution.complete(`${execution.commandLine} output\r\n`, 0);
        }
      };
      await t.service.run({ command: 'first' });
      const result = await t.service.run({ command: 'ls', cwd: dir });
      assert.deepEqual(withoutDuration(result), { status: 'completed', output: 'ls output', exitCode: 0, exitCodeSource: 'shell', name: 'default', command: 'ls', pid: 1001, strategy: 'vscode' });
      // Already there: no second cd.
      await t.service.run({ command: 'pwd', cwd: "it's here" });
      assert.deepEqual(
        t.host.last.executions.map((e) => e.commandLine),
        ['first', `cd -- '${t.workspace}/it'\\''s here'`, 'ls', 'pwd'],
      );
    });

    it('moves an existing PowerShell terminal with Set-Location', async () => {
      t.setup({ settings: { shellPath: 'C:\\Program Files\\PowerShell\\7\\pwsh.exe' } });
      const sub = path.join(t.workspace, 'sub');
      const commands: string[] = [];
      t.host.onExecute = (execution, terminal) => {
        // PowerShell commands go through a file (see "PowerShell exit codes"); with our integration it holds the command and the line that keeps its $?.
        const name = /(c-[0-9a-f]+\.ps1)/.exec(execution.commandLine)![1]!;
        commands.push(readFileSync(path.join(terminal.options.env!.TSHEP_R!, name), 'utf8').split('\n')[0]!);
        execution.complete('', 0);
      };
      await t.service.run({ command: 'first' });
      await t.service.run({ command: 'Get-ChildItem', cwd: 'sub' });
      assert.deepEqual(commands, ['first', `Set-Location -LiteralPath '${sub}'`, 'Get-ChildItem']);
    });

    it('fails with InvalidInput when the cd fails, and leaves the terminal usable', async () => {
      const sub = path.join(t.workspace, 'sub');
      t.host.onExecute = (execution) => {
        if (execution.commandLine.startsWith('cd ')) execution.complete(`bash: cd: ${sub}: Permission denied\r\n`, 1);
        else execution.complete('', 0);
      };
      await t.service.run({ command: 'first' });
      await rejectsWith(
        t.service.run({ command: 'ls', cwd: 'sub' }),
        BridgeErrorCode.InvalidInput,
        `Could not change terminal "default" to cwd "${sub}" (completed, exit code 1): bash: cd: ${sub}: Permission denied`,
      );
      assert.deepEqual(
        t.host.last.executions.map((e) => e.commandLine),
        ['first', `cd -- '${sub}'`],
        'the command was not sent after the failed cd',
      );
      assert.equal((await t.service.run({ command: 'pwd' })).status, 'completed');
    });
  });

  describe('terminal_state, terminal_list and reveal', () => {
    it('names the known terminals when asked for an unknown one', async () => {
      const notFound = (known: string): string => `No terminal named "nope". ${known} terminal_run creates a terminal for a new name.`;
      await rejectsWith(t.service.state({ name: 'nope' }), BridgeErrorCode.TerminalNotFound, notFound('No managed terminal exists yet.'));
      script(t.host, { ls: ['', 0] });
      await t.service.run({ command: 'ls' });
      await t.service.run({ command: 'ls', name: 'build' });
      await rejectsWith(t.service.state({ name: 'nope' }), BridgeErrorCode.TerminalNotFound, notFound('Managed terminals: "default", "build".'));
    });

    it('lists every open terminal: name, busy, pid, cwd, command, status, exit code and the agent session that started it', async () => {
      script(t.host, { false: ['', 1] });
      const agentSession = { client: 'claude-code', id: 's-1', from: 'env.CLAUDE_CODE_SESSION_ID' };
      await t.service.run({ command: 'false' });
      await t.service.run({ command: 'npm run dev', name: 'dev', waitMode: 'background' }, { meta: { agentSession } });
      assert.deepEqual(t.service.list(), [
        { name: 'default', busy: false, shellIntegration: true, shell: 'bash', strategy: 'shepherd', pid: 1001, cwd: t.workspace, command: 'false', status: 'completed', exitCode: 1 },
        { name: 'dev', busy: true, shellIntegration: true, shell: 'bash', strategy: 'shepherd', pid: 1002, cwd: t.workspace, command: 'npm run dev', status: 'running', agentSession },
      ]);
      t.host.last.close(undefined);
      assert.deepEqual(
        t.service.list().map((info) => info.name),
        ['default'],
      );
    });

    it('reveals a managed terminal to the user, and says when there is none', async () => {
      script(t.host, { ls: ['', 0] });
      await t.service.run({ command: 'ls' });
      assert.equal(t.service.reveal('default'), true);
      assert.equal(t.service.reveal('nope'), false);
      assert.deepEqual(t.host.last.shown, [false]);
    });
  });
});
