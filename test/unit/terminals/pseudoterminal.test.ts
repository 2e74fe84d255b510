/**
 * The extension-owned terminal (strategy `pseudoterminal`) end to end below VS Code: the real
 * TerminalService with its runs and output capture, a scripted editor host, and real processes —
 * a keeper sh, util-linux `script` giving the command a TTY, bash running it — probed through the
 * real /proc monitor. Proves exact output and exit code, cwd carried over, a TTY, live display,
 * input prompts answered, Ctrl+C, and the keeper as the terminal's root pid.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { LinuxProcessMonitor } from '../../../extension/src/core/processes/linuxProcessMonitor';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { integrationFilesProvider } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { hasScriptCommand } from '../../../extension/src/core/terminals/pty/ptyTerminal';
import { noDevServers } from '../../../extension/src/core/servers/noDevServers';
import { TerminalService } from '../../../extension/src/core/service/terminalService';
import { describeWhere } from '../../support/skips';
import { collectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { waitFor } from '../processes/helpers';
import { FakeTerminalHost, SHELL_SCRIPTS } from './fakeTerminalHost';

const available = process.platform === 'linux' && hasScriptCommand() && existsSync('/bin/bash');

describeWhere(available, 'needs Linux, bash and util-linux `script`')('the extension-owned terminal (pseudoterminal strategy) with real processes', function () {
  this.timeout(30_000);
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let service: TerminalService;
  let monitor: LinuxProcessMonitor;
  let workspace: string;

  beforeEach(() => {
    workspace = dirs.make('pty-workspace-');
    host = new FakeTerminalHost();
    monitor = new LinuxProcessMonitor();
    const settings: ShepherdSettings = { ...defaultSettings, shellPath: '/bin/bash', strategy: 'pseudoterminal', gracePeriodMs: 2000, defaultTimeoutMs: 10_000 };
    service = new TerminalService({
      host,
      settings: () => settings,
      createOutput: (_name, options) => new OutputCapture({ limitChars: settings.outputLimitChars, ...options }),
      probeShell: (pid) => monitor.probeShell(pid),
      descendants: (pid) => monitor.descendants(pid),
      workspaceFolder: () => workspace,
      integrationFiles: integrationFilesProvider(SHELL_SCRIPTS, dirs.make('pty-private-')),
      logger: collectingLogger(),
      isTrusted: () => true,
      servers: noDevServers,
    });
  });

  afterEach(() => {
    service.dispose();
    host.dispose();
    monitor.dispose();
    dirs.cleanup();
  });

  it('exact output and exit code, a real TTY, shown live; the keeper is the root pid', async () => {
    const r = await service.run({ command: "echo hello; [ -t 1 ] && echo tty; sh -c 'exit 7'" });
    assert.deepEqual([r.status, r.output, r.exitCode, r.strategy], ['completed', 'hello\ntty', 7, 'pseudoterminal']);
    assert.equal(readFileSync(`/proc/${r.pid}/comm`, 'utf8').trim(), 'sh', 'the keeper');
    assert.equal(host.terminals.length, 0, 'no shell terminal was created');
    const shown = host.pseudoterminals[0]!.shown;
    assert.match(shown, /\$.*echo hello/);
    assert.match(shown, /hello\r\ntty\r\n/);
    assert.match(shown, /\[exit code 7\]/);
    assert.deepEqual(service.list().map((t) => [t.shell, t.strategy, t.pid]), [['bash', 'pseudoterminal', r.pid]]);
  });

  it('cd carries over to the next command; the process tree hangs under the keeper', async () => {
    await service.run({ command: 'cd /tmp' });
    assert.equal((await service.run({ command: 'pwd' })).output, '/tmp');
    const started = await service.run({ command: 'sleep 5', waitMode: 'background' });
    const tree = await waitFor('sleep under the keeper', async () => {
      const d = await monitor.descendants(started.pid!);
      return d.some((p) => p.name === 'sleep') && d;
    });
    assert.ok(tree.some((p) => p.name === 'script'));
    const stopped = await service.input({ name: 'default', text: '\u0003' });
    assert.deepEqual([stopped.status, stopped.exitCode], ['completed', 130]);
  });

  it('an input prompt is waiting_for_input; terminal_input answers it', async () => {
    const asked = await service.run({ command: 'read -p "Your name? " n; echo "hi $n"' });
    assert.deepEqual([asked.status, asked.prompt], ['waiting_for_input', 'Your name?']);
    const answered = await service.input({ name: 'default', text: 'Ada' });
    assert.equal(answered.status, 'completed');
    assert.match(answered.output, /hi Ada$/);
    assert.equal(answered.exitCode, 0);
  });

  it('a multi-line command with a heredoc runs whole, with the exit code of its last line', async () => {
    const r = await service.run({ command: "cat <<EOF\nline one\nEOF\necho after\nsh -c 'exit 3'" });
    assert.deepEqual([r.output, r.exitCode], ['line one\nafter', 3]);
  });

  it("a program printing an end marker of its own (ESC ] 633 ; D) neither ends the run nor hides its output", async () => {
    const r = await service.run({ command: "printf 'before\\033]633;D;0\\007\\n'; sleep 0.5; echo real-end; sh -c 'exit 4'" });
    assert.deepEqual([r.status, r.output, r.exitCode], ['completed', 'before\nreal-end', 4]);
    assert.ok(r.durationMs >= 450, `${r.durationMs} ms`);
  });

  it('closing the terminal ends a running command with terminal_closed', async () => {
    await service.run({ command: 'sleep 30', waitMode: 'background' });
    const waiting = service.state({ name: 'default', wait: true, timeoutMs: 10_000 });
    host.pseudoterminals[0]!.behaviour.close();
    assert.equal((await waiting).status, 'terminal_closed');
  });
});
