/**
 * TerminalService against a fake TerminalHost (terminalServiceSupport.ts): the end of a terminal
 * and of the service. A shell that exits or is killed mid-run, or is gone while VS Code keeps its
 * terminal, ends the call with terminal_closed and an honest exit code; the window closing or
 * reloading ends every wait at once; a terminal the user closes answers the call waiting on it and
 * its name starts afresh. The service's events come in order, and dispose leaves no timer behind.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import type { TerminalSessionEvent } from '../../../extension/src/core/terminals/terminalSession';
import { executionsIn, rejectsWith, script, sleep, useTerminalService, withoutDuration } from './terminalServiceSupport';

describe('TerminalService against a fake TerminalHost', () => {
  const t = useTerminalService();

  describe('events and lifetime', () => {
    it('fires sessionCreated, runStarted, runStateChanged and sessionClosed in order', async () => {
      const seen: string[] = [];
      const line = (e: TerminalSessionEvent): string => [e.kind, e.session.name, ...('run' in e ? [e.run.command, e.run.state.kind] : [])].join(' ');
      t.service.onDidChange((e) => seen.push(line(e)));
      t.host.onExecute = (execution) => {
        execution.start();
        execution.push('Proceed? [y/N] ');
      };
      assert.equal((await t.service.run({ command: 'rm -ri build' })).status, 'waiting_for_input');
      const terminal = t.host.last;
      terminal.onSendText = () => terminal.current.end(0);
      await t.service.input({ name: 'default', text: 'y' });
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
      script(t.host);
      await t.service.run({ command: 'npm run dev', waitMode: 'background' });
      assert.ok(timers() > before, 'the running command has its timers');
      t.service.dispose();
      await sleep(10);
      assert.equal(timers(), before);
      // Events of the editor after dispose reach nobody.
      t.host.last.current.end(0);
      t.host.last.close(0);
      assert.deepEqual(t.service.list(), []);
    });
  });

  describe('closed terminals', () => {
    it('reports terminal_closed with the exit code when the shell exits mid-run', async () => {
      script(t.host);
      const call = t.service.run({ command: 'node server.js' });
      const terminal = await executionsIn(t.host, 'default', 1);
      terminal.close(137);
      assert.deepEqual(withoutDuration(await call), {
        status: 'terminal_closed',
        output: '',
        exitCode: 137,
        exitCodeSource: 'shell',
        name: 'default',
        command: 'node server.js',
        pid: 1001,
        strategy: 'shepherd',
        message: 'The shell of terminal "default" exited before the command finished (the exit code is the shell\'s). terminal_run with the name "default" starts a new terminal.',
      });
    });

    it('a shell killed mid-run (VS Code says exit code 0, as for a signal) never reports a success', async () => {
      script(t.host);
      const call = t.service.run({ command: 'sleep 60' });
      const terminal = await executionsIn(t.host, 'default', 1);
      terminal.close(0);
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, undefined);
      assert.match(String(result.message), /VS Code reported exit code 0, which it also reports for a shell killed by a signal, so no exit code is given/);
      assert.deepEqual(t.service.list(), []);
    });

    it('the shell gone while VS Code keeps the terminal (no close event ever): terminal_closed, the terminal disposed, the name starts afresh', async () => {
      script(t.host, { 'echo reborn': ['reborn\r\n', 0] });
      const events: string[] = [];
      t.service.onDidChange((e) => events.push(e.kind));
      const call = t.service.run({ command: 'exit 3', timeoutMs: 5000 });
      const terminal = await executionsIn(t.host, 'default', 1);
      t.probe.gone.add(terminal.pid);
      const result = await call;
      assert.deepEqual(withoutDuration(result), {
        status: 'terminal_closed',
        output: '',
        name: 'default',
        command: 'exit 3',
        pid: 1001,
        strategy: 'shepherd',
        message:
          'The shell of terminal "default" is gone (it exited or was killed) before the command finished. VS Code kept the terminal ' +
          "without reporting the shell's exit, so no exit code is given; the terminal was closed. terminal_run with the name \"default\" starts a new terminal.",
      });
      assert.ok(result.durationMs < 3000, `ended by the OS's answer, not the timeout (${result.durationMs} ms)`);
      assert.equal(terminal.disposed, true, 'the dead terminal is closed');
      assert.deepEqual(t.service.list(), []);
      assert.deepEqual(events, ['sessionCreated', 'runStarted', 'runStateChanged', 'sessionClosed']);
      const again = await t.service.run({ command: 'echo reborn' });
      assert.equal(again.output, 'reborn');
      assert.equal(again.pid, 1002);
    });

    it('the shell gone, then VS Code closes the terminal with the exit code: that exit code is reported', async () => {
      script(t.host);
      const call = t.service.run({ command: 'exit 3' });
      const terminal = await executionsIn(t.host, 'default', 1);
      t.probe.gone.add(terminal.pid);
      await sleep(500); // probed "gone" meanwhile; VS Code's close comes within the grace
      terminal.close(3);
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, 3);
    });

    it('an idle terminal whose shell died unseen is replaced by the next run, not typed into', async () => {
      script(t.host, { true: ['', 0] });
      await t.service.run({ command: 'true' });
      const dead = t.host.last;
      t.probe.gone.add(dead.pid);
      const result = await t.service.run({ command: 'true' });
      assert.equal(dead.disposed, true);
      assert.equal(result.status, 'completed');
      assert.equal(result.pid, 1002);
      assert.equal(dead.executions.length, 1, 'nothing was typed into the dead terminal');
    });

    it('the window closing closes the terminal first: terminal_closed, saying so, with no exit code', async () => {
      script(t.host);
      const call = t.service.run({ command: 'npm test' });
      const terminal = await executionsIn(t.host, 'default', 1);
      terminal.close(0, 'window');
      const result = await call;
      assert.equal(result.status, 'terminal_closed');
      assert.equal(result.exitCode, undefined);
      assert.match(String(result.message), /^Terminal "default" closed because the VS Code window is closing or reloading; the command ended with it\. Once the window is back/);
    });

    it('a call waiting when the service is disposed (window reload) ends at once with WindowClosing, not at its timeout', async () => {
      script(t.host);
      const call = t.service.run({ command: 'npm test', timeoutMs: 60_000 });
      await executionsIn(t.host, 'default', 1);
      const t0 = performance.now();
      t.service.dispose();
      await rejectsWith(call, BridgeErrorCode.WindowClosing, /^The VS Code window is closing or reloading, so the wait on `npm test` in terminal "default" ended/);
      assert.ok(performance.now() - t0 < 1000);
      t.service.dispose(); // idempotent
    });

    it('answers a call waiting on a terminal the user closes, keeps its last run, and starts a new terminal for the name', async () => {
      script(t.host, { 'npm start': ['started\r\n', 0] });
      await t.service.run({ command: 'npm run dev', waitMode: 'background' });
      // A timeout the test cannot reach: a hang would show as 'timeout' instead of terminal_closed.
      const waiting = t.service.state({ name: 'default', wait: true, timeoutMs: 8000 });
      t.host.last.close(undefined);
      const closed = await waiting;
      assert.equal(closed.status, 'terminal_closed');
      assert.equal(closed.exitCode, undefined);
      assert.equal(closed.message, 'Terminal "default" was closed by the user before the command finished. terminal_run with the name "default" starts a new terminal.');
      assert.equal(closed.command, 'npm run dev');

      assert.deepEqual(withoutDuration(await t.service.state({ name: 'default' })), withoutDuration(closed));
      assert.deepEqual(t.service.list(), []);
      await rejectsWith(
        t.service.input({ name: 'default', text: 'y' }),
        BridgeErrorCode.TerminalClosed,
        'Terminal "default" was closed. Start a new one with terminal_run {name: "default", command}.',
      );
      assert.deepEqual(t.host.last.sentText, []);

      const fresh = await t.service.run({ command: 'npm start' });
      assert.equal(fresh.status, 'completed');
      assert.equal(fresh.pid, 1002);
      assert.equal(t.host.terminals.length, 2);
      assert.equal((await t.service.state({ name: 'default' })).command, 'npm start');
    });
  });
});
