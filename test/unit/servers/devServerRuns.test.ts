/**
 * The dev-server rules through the terminal service, with everything real but the editor and the
 * OS: TerminalService on a scripted terminal host, the real ProcessTracker (ledger) and DevServers
 * on a scripted process table (FakeProcessMonitor), and scripted loopback probes. Covers ready,
 * already running, restart (the old tree killed through the ledger, identity-checked), a port
 * taken (holder named: this window's, a client's own tools', an orphan, or foreign), a server never ready, and bad input; and a
 * server an MCP client's own tools started outside managed terminals (clientServers.ts): answered
 * already_running naming that client and its session, nothing typed.
 */
import assert from 'node:assert/strict';
import type { TerminalRunResult } from '../../../common/src/protocol';
import type { CheckVerdict } from '../../../extension/src/core/checks/commandCheck';
import { BridgeErrorCode, ShepherdError } from '../../../extension/src/core/errors';
import type { Disposable } from '../../../extension/src/core/events';
import { attachToTerminalService } from '../../../extension/src/core/service/terminalServiceAdapter';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import { DevServers } from '../../../extension/src/core/servers/devServers';
import type { ProbeResult } from '../../../extension/src/core/servers/probe';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { type TerminalService } from '../../../extension/src/core/service/terminalService';
import { FakeTerminalHost, type FakeExecution } from '../terminals/fakeTerminalHost';
import { fakeTerminalService } from '../service/serviceSupport';
import { FakeProcessMonitor } from '../ledger/fakeProcessMonitor';
import { collectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { waitFor } from '../processes/helpers';
import { makeTracker, type TrackerFixture } from '../ledger/trackerSupport';

// Typed lines are asserted exactly; the leading space that keeps them out of history is tested in terminalServiceSecrets.
const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 200, defaultTimeoutMs: 5000, shellIntegrationTimeoutMs: 1000, preventShellHistory: false };
/** The fake table's clock starts here (see FakeProcessMonitor); DevServers reads the same clock. */
const FAKE_EPOCH = Date.parse('2026-01-01T00:00:00.000Z');

describe('dev servers through the terminal service (scripted host and OS, real ledger)', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let monitor: FakeProcessMonitor;
  let ledger: TrackerFixture;
  let service: TerminalService;
  let attachment: Disposable;
  /** What the probes answer, per URL or `port N`; anything else is refused. */
  let answers: Map<string, ProbeResult>;
  /** What a check after the built-in ones answers (the safety decision's place). */
  let laterCheck: CheckVerdict;
  const cleanups: (() => void)[] = [];

  beforeEach(async () => {
    host = new FakeTerminalHost();
    monitor = new FakeProcessMonitor();
    for (let pid = 1001; pid <= 1004; pid++) monitor.spawn(1, 'bash', '/bin/bash', pid); // the shells the fake host hands out
    ledger = makeTracker(monitor, dirs.make('servers-ledger-'));
    await ledger.tracker.start();
    answers = new Map();
    laterCheck = { kind: 'pass' };
    const servers = new DevServers({
      ledger: ledger.tracker,
      monitor,
      logger: collectingLogger(),
      now: () => FAKE_EPOCH,
      probes: {
        probeUrl: async (url) => answers.get(url) ?? { kind: 'refused' },
        probePort: async (port) => answers.get(`port ${port}`) ?? { kind: 'refused' },
      },
    });
    service = fakeTerminalService(host, () => settings, dirs, { servers, checks: [{ id: 'later', check: () => laterCheck }] });
    attachment = attachToTerminalService(ledger.tracker, service, collectingLogger());
  });

  afterEach(async () => {
    cleanups.splice(0).forEach((c) => c());
    attachment.dispose();
    service.dispose();
    host.dispose();
    await ledger.tracker.dispose();
    dirs.cleanup();
  });

  /**
   * Scripts `command`: when run, it starts a process under the terminal's shell that prints
   * `output`, listens on `port` after `bindAfterMs` (then answers HTTP 200 there), and ends its
   * execution with exit code 143 when its process is killed.
   */
  function serverScript(command: string, options: { output: string; port?: number; bindAfterMs?: number; exitCode?: number }): { processes: ProcessInfo[] } {
    const started = { processes: [] as ProcessInfo[] };
    const previous = host.onExecute;
    host.onExecute = (execution: FakeExecution, terminal) => {
      if (execution.commandLine !== command) return previous?.(execution, terminal);
      execution.start();
      const proc = monitor.spawn(terminal.pid, 'node', `node ${command}`);
      started.processes.push(proc);
      execution.push(options.output.replace(/\n/g, '\r\n'));
      if (options.exitCode !== undefined) {
        monitor.exit(proc.pid);
        setTimeout(() => execution.end(options.exitCode), 20);
        return;
      }
      if (options.port !== undefined) {
        const port = options.port;
        const bind = setTimeout(() => {
          void monitor.isAlive(proc).then((alive) => {
            if (!alive) return;
            monitor.setPorts(proc.pid, [port]);
            answers.set(`http://localhost:${port}/`, { kind: 'http', url: `http://localhost:${port}/`, status: 200, accepted: true });
            answers.set(`port ${port}`, { kind: 'http', url: `http://localhost:${port}/`, status: 200, accepted: true });
          });
        }, options.bindAfterMs ?? 50);
        cleanups.push(() => clearTimeout(bind));
      }
      const watch = setInterval(() => {
        void monitor.isAlive(proc).then((alive) => {
          if (alive) return;
          clearInterval(watch);
          answers.delete(`http://localhost:${options.port}/`);
          answers.delete(`port ${options.port}`);
          execution.end(143);
        });
      }, 20);
      cleanups.push(() => clearInterval(watch));
    };
    return started;
  }

  const vite = 'npm run dev';
  const viteOutput = '\n  VITE v7.3.8  ready in 114 ms\n\n  ➜  Local:   http://localhost:5173/\n';

  it('waitMode ready: returns running once the port of its own tree answers, with ports and URLs', async () => {
    serverScript(vite, { output: viteOutput, port: 5173, bindAfterMs: 150 });
    const result = await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    assert.equal(result.status, 'running');
    assert.equal(result.ready?.via, 'http');
    assert.deepEqual(result.ready?.ports, [5173]);
    assert.deepEqual(result.ready?.urls, ['http://localhost:5173/']);
    assert.ok((result.ready?.waitedMs ?? 0) >= 100, `not before the bind (${result.ready?.waitedMs} ms)`);
    assert.match(String(result.message), /^Ready after .*: http:\/\/localhost:5173\/ answered HTTP 200\. Use http:\/\/localhost:5173\/\. It keeps running in terminal "web"/);
  });

  it('never twice: the same command in the same directory answers already_running, in any terminal name, and starts nothing', async () => {
    const started = serverScript(vite, { output: viteOutput, port: 5173 });
    await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    const executions = host.terminals.reduce((n, t) => n + t.executions.length, 0);
    for (const [name, waitMode, spelled] of [['web', 'ready', vite], ['other', 'background', '  npm  run dev '], [undefined, 'ready', vite]] as const) {
      const again = await service.run({ command: spelled, ...(name ? { name } : {}), waitMode });
      assert.equal(again.status, 'already_running', `${name} ${waitMode}`);
      assert.equal(again.name, 'web');
      assert.deepEqual(
        { ...again.server, uptimeMs: 0, startedAt: '' },
        { terminal: 'web', command: vite, cwd: '/w', pid: started.processes[0]!.pid, ports: [5173], urls: ['http://localhost:5173/'], startedAt: '', uptimeMs: 0, status: 'running' },
      );
      assert.match(again.output, /Local: {3}http:\/\/localhost:5173\//);
      assert.match(String(again.message), /^Not started again: `npm run dev` already runs in terminal "web" \(pid \d+\) at http:\/\/localhost:5173\/.*restart: true/);
    }
    assert.equal(host.terminals.reduce((n, t) => n + t.executions.length, 0), executions, 'nothing was sent to any terminal');
    const elsewhere = await service.run({ command: vite, name: 'api', cwd: '/', waitMode: 'background' });
    assert.equal(elsewhere.status, 'running', 'another directory is another server');
  });

  it("never twice across agent sessions: the second session's start names the first's session and terminal", async () => {
    serverScript(vite, { output: viteOutput, port: 5173 });
    const first = { client: 'claude-code', id: 'session-a', from: 'env.CLAUDE_CODE_SESSION_ID' };
    await service.run({ command: vite, name: 'web', waitMode: 'ready' }, { meta: { agentSession: first } });
    const again = await service.run({ command: vite, name: 'mine', waitMode: 'ready' }, { meta: { agentSession: { ...first, id: 'session-b' } } });
    assert.equal(again.status, 'already_running');
    assert.match(String(again.message), /already runs in terminal "web" \(pid \d+\) at http:\/\/localhost:5173\/, started .* by claude-code session session-a\. If that is not your session, the server is that session's: use it, and do not restart or stop it\./);
  });

  it('restart: true refused by a check kills nothing: the old server keeps running, nothing is typed', async () => {
    const started = serverScript(vite, { output: viteOutput, port: 5173 });
    await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    const old = started.processes[0]!;
    laterCheck = { kind: 'refuse', error: new ShepherdError(BridgeErrorCode.InvalidInput, 'refused') };
    await assert.rejects(service.run({ command: vite, waitMode: 'ready', restart: true }), /refused/);
    assert.deepEqual(monitor.killRequests, []);
    assert.ok(await monitor.isAlive(old));
    assert.equal(started.processes.length, 1, 'not started again');
    assert.deepEqual(host.terminals.map((t) => t.executions.length), [1]);
    assert.deepEqual(host.terminals.map((t) => t.sentText.length), [0], 'no Ctrl+C either');
  });

  it('restart: true kills the old tree through the ledger (identity-checked) and starts it again in its terminal', async () => {
    const started = serverScript(vite, { output: viteOutput, port: 5173 });
    const first = await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    assert.equal(first.status, 'running');
    const old = started.processes[0]!;
    const second = await service.run({ command: vite, waitMode: 'ready', restart: true });
    assert.equal(second.status, 'running');
    assert.equal(second.name, 'web', 'restarted where it ran');
    assert.deepEqual(monitor.killRequests.map((r) => [r.pid, r.startTime]), [[old.pid, old.startTime]]);
    assert.equal(await monitor.isAlive(old), false);
    assert.equal(started.processes.length, 2);
    assert.ok(await monitor.isAlive(started.processes[1]!));
    assert.ok((await ledger.events()).some((e) => e.event === 'killed' && e.pid === old.pid && e.reason === 'kill_request'));
  });

  it('a port taken by a foreign process: completed with the exit code, the holder named, never killed', async () => {
    const holder = monitor.spawn(1, 'python3', 'python3 -m http.server 3000');
    monitor.setPorts(holder.pid, [3000]);
    serverScript('node server.js', { output: 'Error: listen EADDRINUSE: address already in use :::3000\n', exitCode: 1 });
    const result = await service.run({ command: 'node server.js', name: 'api', waitMode: 'ready' });
    assert.equal(result.status, 'completed');
    assert.equal(result.exitCode, 1);
    assert.deepEqual(result.portConflict, { port: 3000, holders: [{ pid: holder.pid, name: 'python3', commandLine: 'python3 -m http.server 3000', owner: 'foreign' }] });
    assert.match(String(result.message), /^Port 3000 is already in use\. python3 \(pid \d+: python3 -m http\.server 3000\) holds it; Terminal Shepherd did not start it and will not kill it\./);
    assert.ok(await monitor.isAlive(holder));
  });

  it("a port taken by this window's own server: the terminal named and how to reuse or stop it (any wait mode)", async () => {
    serverScript(vite, { output: viteOutput, port: 5173 });
    await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    await ledger.tracker.refresh();
    serverScript('npx vite --strictPort', { output: 'error when starting dev server:\nError: Port 5173 is already in use\n', exitCode: 1 });
    const result = await service.run({ command: 'npx vite --strictPort', name: 'web2' });
    assert.equal(result.portConflict?.holders[0]?.owner, 'ledger');
    assert.equal(result.portConflict?.holders[0]?.terminal, 'web');
    assert.match(String(result.message), new RegExp(`started in Terminal Shepherd terminal "web"\\. Use it, or stop it with kill_process \\{pid: ${result.portConflict?.holders[0]?.pid}\\}`));
  });

  it('a server that never gets ready: timeout says what was seen; it keeps running and stays reachable', async () => {
    serverScript('python3 slow.py', { output: 'Starting development server at http://127.0.0.1:8000/\n' });
    const result = await service.run({ command: 'python3 slow.py', name: 'slow', waitMode: 'ready', timeoutMs: 400 });
    assert.equal(result.status, 'timeout');
    assert.match(String(result.message), /^Not ready after 400 ms: it printed "Starting development server at http:\/\/127\.0\.0\.1:8000\/"; none of its processes listens on a TCP port\./);
    assert.equal((await service.state({ name: 'slow' })).status, 'running');
  });

  it('readyPattern: only with waitMode ready (implied when waitMode is left out); a watcher gets ready on it', async () => {
    await assert.rejects(service.run({ command: 'tsc -w', waitMode: 'background', readyPattern: 'x' }), (e: unknown) => e instanceof ShepherdError && e.code === BridgeErrorCode.InvalidInput && /readyPattern applies to waitMode "ready" only/.test(e.message));
    serverScript('tsc -w', { output: 'Starting compilation in watch mode...\nbuilt: 0 errors\n' });
    const result: TerminalRunResult = await service.run({ command: 'tsc -w', name: 'watch', readyPattern: 'built: \\d+ errors' });
    assert.equal(result.status, 'running');
    assert.deepEqual(result.ready && { via: result.ready.via, line: result.ready.line }, { via: 'pattern', line: 'built: 0 errors' });
  });

  it('the servers list (for the reminder, the views and workspace_info)', async () => {
    serverScript(vite, { output: viteOutput, port: 5173 });
    await service.run({ command: vite, name: 'web', waitMode: 'ready' });
    await waitFor('the ledger to see the port', async () => {
      await ledger.tracker.refresh();
      return ledger.tracker.summary().running.some((p) => p.ports.includes(5173));
    });
    const servers = new DevServers({ ledger: ledger.tracker, monitor, logger: collectingLogger(), now: () => FAKE_EPOCH, probes: { probeUrl: async () => ({ kind: 'refused' }), probePort: async () => ({ kind: 'refused' }) } });
    const listed = servers.list(service.sessionViews());
    assert.deepEqual(listed.map((s) => [s.terminal, s.command, s.ports, s.urls]), [['web', vite, [5173], ['http://localhost:5173/']]]);
    monitor.setPorts(monitor.spawn(1, 'ruby', 'puma 4.3').pid, [3000]);
    assert.equal(servers.list(service.sessionViews()).length, 1, 'a process no terminal of ours started is not listed');
    const health = await servers.listWithHealth(service.sessionViews());
    assert.equal(health[0]?.healthy, false, 'the probe (scripted here) did not answer');
  });

  /** A client whose own tool started `npm run dev` in `folder` (its vite listening on 5173), watched by the ledger. */
  function clientServer(folder: string, session?: string): { client: number; shell: number; vite: number; watch: Disposable } {
    const client = monitor.spawn(1, 'node', 'node /usr/bin/claude');
    const watch = ledger.tracker.watchClient({
      identity: { pid: client.pid, startTime: client.startTime },
      label: 'claude-code (own tools)',
      clientTools: { client: 'claude-code', pid: client.pid, command: 'node' },
      ...(session ? { agentSession: { client: 'claude-code', id: session, from: 'env.CLAUDE_CODE_SESSION_ID' } } : {}),
      select: (table) => table.filter((p) => p.pid !== client.pid && p.pid > client.pid),
    });
    const shell = monitor.spawn(client.pid, 'bash', 'bash -c npm run dev');
    const npm = monitor.spawn(shell.pid, 'npm run dev', 'npm run dev');
    const vite = monitor.spawn(npm.pid, 'node', 'node node_modules/.bin/vite');
    for (const p of [shell, npm, vite]) monitor.setCwd(p.pid, folder);
    monitor.setPorts(vite.pid, [5173]);
    return { client: client.pid, shell: shell.pid, vite: vite.pid, watch };
  }

  const typed = (): string[] => host.terminals.flatMap((t) => t.executions.map((e) => e.commandLine)).filter((line) => line.includes('npm run'));

  it('terminal_run of the same server in the same folder answers already_running, naming the client and its session; nothing is typed', async () => {
    const folder = dirs.make('client-servers-folder-');
    const { client, shell } = clientServer(folder, 'sess-a');
    for (const waitMode of ['ready', 'background'] as const) {
      const result = await service.run({ command: 'npm run dev', cwd: folder, waitMode });
      assert.equal(result.status, 'already_running', JSON.stringify(result));
      assert.equal(result.server?.pid, shell);
      assert.deepEqual(result.server?.ports, [5173]);
      assert.match(String(result.message), new RegExp(`already runs outside Terminal Shepherd's terminals \\(pid ${shell}\\) at http://localhost:5173/, .* by claude-code's own tools \\(client pid ${client}, node\\), claude-code session sess-a\\. If that is not your session`));
      assert.match(String(result.message), new RegExp(`kill_process \\{pid: ${shell}\\}`));
    }
    // A one-shot run of it is a duplicate too once it listens (the ledger already knows its port).
    assert.equal((await service.run({ command: 'npm run dev', cwd: folder })).status, 'already_running');
    assert.deepEqual(typed(), [], 'nothing typed, no second copy');
  });

  it('another folder, another command, or restart: true: the call goes ahead', async () => {
    const folder = dirs.make('client-servers-folder-');
    clientServer(folder);
    host.onExecute = (execution) => {
      execution.start();
      setTimeout(() => execution.end(0), 10);
    };
    const other = dirs.make('client-servers-other-');
    assert.equal((await service.run({ command: 'npm run dev', cwd: other, waitMode: 'background' })).status === 'already_running', false);
    assert.equal((await service.run({ command: 'npm run build', cwd: folder })).status, 'completed');
    assert.notEqual((await service.run({ command: 'npm run dev', cwd: folder, waitMode: 'background', restart: true })).status, 'already_running');
    assert.deepEqual(typed(), ['npm run dev', 'npm run build', 'npm run dev']);
  });

  it("a port taken by a client's own server: that client and session named (no terminal), kill_process offered, restart: true not; once the client is gone, an orphan", async () => {
    const folder = dirs.make('client-servers-folder-');
    const { client, vite: holder, watch } = clientServer(folder, 'sess-a');
    await ledger.tracker.refresh();
    serverScript('npx vite --strictPort', { output: 'error when starting dev server:\nError: Port 5173 is already in use\n', exitCode: 1 });
    const result = await service.run({ command: 'npx vite --strictPort', name: 'web2' }, { meta: { agentSession: { client: 'claude-code', id: 'sess-b', from: 'env.CLAUDE_CODE_SESSION_ID' } } });
    const found = result.portConflict?.holders[0];
    assert.deepEqual(found && [found.pid, found.owner, found.terminal, found.clientTools?.pid, found.agentSession?.id], [holder, 'client', undefined, client, 'sess-a']);
    assert.match(
      String(result.message),
      new RegExp(`holds it, started outside Terminal Shepherd's terminals by claude-code's own tools \\(client pid ${client}, node\\), claude-code session sess-a\\. If that is not your session, .* kill_process \\{pid: ${holder}\\}.* restart: true cannot stop it`),
    );
    watch.dispose();
    await waitFor('the client’s processes orphaned', () => ledger.tracker.list().orphaned.length > 0);
    const again = await service.run({ command: 'npx vite --strictPort', name: 'web2' });
    assert.equal(again.portConflict?.holders[0]?.owner, 'orphan');
    assert.match(String(again.message), new RegExp(`left running by claude-code's own tools \\(client pid ${client}, node\\), claude-code session sess-a after that client exited or disconnected\\. Nothing runs it any more: use it, or end it with kill_process \\{pid: ${holder}\\} \\(or kill_orphans\\)`));
  });
});
