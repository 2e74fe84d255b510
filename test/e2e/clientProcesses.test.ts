// An MCP client's own processes in a real VS Code: fake clients (test/fixtures/fakeClient) start
// the real MCP server (dist/mcp-server.js) over stdio with the SDK, then their "own tools" start a
// sleep, a loopback server and a double-forked sleep. They are listed as that client's, become
// orphans when it exits and kill_orphans ends them (ground truth from /proc); an unrelated process
// is never listed. Two clients with different sessions in one folder: the second's start of the
// same dev server names the first's session and terminal; a dev server the first started with its
// own shell tool is named the same way (its client pid and session), and nothing is typed. A client
// that names no session: its runs and their processes are owned by its client process.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ListProcessesResult, PortConflict, TrackedProcess } from '../../common/src/protocol';
import { repoRoot, serverScript, toolText } from '../support/mcpClient';
import { alive, flatten, freePort, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

const FAKE_CLIENT = path.join(repoRoot, 'test', 'fixtures', 'fakeClient', 'fakeClient.mjs');

interface FakeClient {
  readonly child: ChildProcess;
  readonly pid: number;
  send(command: object): Promise<Record<string, unknown>>;
}

describe('client processes in a real VS Code', function () {
  if (process.platform !== 'linux') return;
  this.timeout(240_000);
  const leftovers: number[] = [];
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'client-processes', settings: { 'terminalShepherd.processes.trackClientProcesses': true } }),
    () => {
      for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  async function startClient(name: string, sessionId: string | undefined): Promise<FakeClient> {
    // Detached: its own process group, as a CLI started from a person's shell.
    const child = spawn(process.execPath, [FAKE_CLIENT, '--mcp-server', serverScript, '--workspace', win.workspace, '--name', name, ...(sessionId ? ['--env', `CLAUDE_CODE_SESSION_ID=${sessionId}`] : [])], {
      detached: true,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, TERMINAL_SHEPHERD_HOME: path.join(win.workspace, '.devtools', 'no-shepherd-home') },
    });
    leftovers.push(child.pid!);
    const lines = createInterface({ input: child.stdout! });
    const next = (): Promise<Record<string, unknown>> => new Promise((resolve) => lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>)));
    await next(); // ready: the MCP server answered initialize
    return { child, pid: child.pid!, send: (command) => (child.stdin!.write(`${JSON.stringify(command)}\n`), next()) };
  }

  async function processes(): Promise<ListProcessesResult> {
    return (await win.run('list_processes', {})) as unknown as ListProcessesResult;
  }
  /** The first pid pgrep finds with `args`, once the background child has exec'd (bounded). */
  const found = (args: string[]): Promise<number> =>
    waitFor(`pgrep ${args.join(' ')}`, 10_000, async () => {
      try {
        return Number(execFileSync('pgrep', args, { encoding: 'utf8' }).trim().split('\n')[0]) || undefined;
      } catch {
        return undefined; // none yet
      }
    });
  const ownedBy = (list: readonly TrackedProcess[], client: FakeClient): TrackedProcess[] => flatten(list).filter((p) => p.clientTools?.pid === client.pid);

  it("a client's sleep, loopback server and double-forked child are listed as its own, orphaned when it exits, ended by kill_orphans", async () => {
    const stranger = spawn('sh', ['-c', 'setsid sleep 4242 & exit 0'], { stdio: 'ignore' });
    await new Promise((resolve) => stranger.once('exit', resolve));
    const strangerPid = await found(['-fx', 'sleep 4242']);
    leftovers.push(strangerPid);
    const client = await startClient('fake-cli', 'sess-e2e-1');
    const own = (await client.send({ op: 'spawn', marker: 4300 })) as { sleep: number; server: number; port: number };
    const forked = await found(['-g', String(client.pid), '-fx', 'sleep 4301']);
    leftovers.push(own.sleep, own.server, forked);
    const mine = [own.sleep, own.server, forked].sort((a, b) => a - b);

    const listed = await waitFor("the client's three processes in list_processes", 15_000, async () => {
      const owned = ownedBy((await processes()).active, client);
      return mine.every((pid) => owned.some((p) => p.pid === pid)) ? owned : undefined;
    });
    assert.deepEqual(listed.map((p) => p.pid).sort((a, b) => a - b), mine, 'its own processes, not itself nor its MCP server');
    for (const p of listed) {
      assert.deepEqual(p.clientTools, { client: 'fake-cli', pid: client.pid, command: 'node' });
      assert.deepEqual(p.agentSession, { client: 'fake-cli', id: 'sess-e2e-1', from: 'env.CLAUDE_CODE_SESSION_ID' });
    }
    assert.deepEqual(listed.find((p) => p.pid === own.server)?.ports, [own.port]);
    const all = flatten([...(await processes()).active, ...(await processes()).orphaned]);
    assert.equal(all.some((p) => p.pid === strangerPid), false, 'an unrelated process is never listed');
    const text = toolText((await win.call('list_processes', {})) as CallToolResult);
    assert.match(text, /Outside managed terminals, "fake-cli \(own tools\)":/);
    assert.match(text, new RegExp(`started by fake-cli's own tools \\(client pid ${client.pid}, node\\), fake-cli session sess-e2e-1`));

    void client.send({ op: 'exit' }).catch(() => undefined);
    await waitFor('the client to exit', 10_000, () => !alive(client.pid));
    const orphaned = await waitFor('its processes as orphans', 15_000, async () => {
      const owned = ownedBy((await processes()).orphaned, client);
      return mine.every((pid) => owned.some((p) => p.pid === pid)) ? owned : undefined;
    });
    assert.ok(orphaned.every((p) => p.status === 'orphaned'));

    const killed = (await win.run('kill_orphans', {})) as unknown as { killed: number[]; failed: number[] };
    assert.deepEqual(killed.failed, []);
    for (const pid of mine) {
      assert.ok(killed.killed.includes(pid), `kill_orphans ended ${pid}`);
      await waitFor(`pid ${pid} gone from /proc`, 10_000, () => !alive(pid));
    }
    assert.ok(alive(strangerPid), 'the unrelated process lives on');
    process.kill(strangerPid, 'SIGKILL');
  });

  it("two clients with different sessions: the second's start of the same dev server names the first's session and terminal", async () => {
    const port = await freePort();
    const a = await startClient('fake-cli', 'sess-a');
    const b = await startClient('fake-cli', 'sess-b');
    const command = `node -e "require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1', () => console.log('ready on http://127.0.0.1:${port}/'))"`;
    const first = (await a.send({ op: 'call', tool: 'terminal_run', args: { command, name: 'dev-a', waitMode: 'ready' } })) as unknown as CallToolResult;
    assert.notEqual(first.isError, true, toolText(first));
    const startedPid = (first.structuredContent as { ready?: unknown; pid?: number }).pid;
    const second = (await b.send({ op: 'call', tool: 'terminal_run', args: { command, name: 'dev-b', waitMode: 'ready' } })) as unknown as CallToolResult;
    const result = second.structuredContent as { status: string; name: string; message: string };
    assert.equal(result.status, 'already_running', toolText(second));
    assert.equal(result.name, 'dev-a');
    assert.match(result.message, /already runs in terminal "dev-a" .* by fake-cli session sess-a\. If that is not your session, the server is that session's/);
    const listing = toolText((await b.send({ op: 'call', tool: 'terminal_list', args: {} })) as unknown as CallToolResult);
    assert.match(listing, /"dev-a": busy .* started by fake-cli session sess-a/);
    assert.doesNotMatch(listing, /"dev-b"/, 'no second terminal was opened for it');
    const web = await win.run('terminal_input', { name: 'dev-a', text: '\u0003', enter: false });
    assert.ok(web);
    if (startedPid) leftovers.push(startedPid);
    for (const client of [a, b]) void client.send({ op: 'exit' }).catch(() => undefined);
  });

  it("a dev server one client's shell tool started: another client's terminal_run of it answers already_running, naming that client and session", async () => {
    const port = await freePort();
    const a = await startClient('fake-cli', 'sess-shell-a');
    const b = await startClient('fake-cli', 'sess-shell-b');
    const command = `node -e "require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')"`;
    const { pid } = (await a.send({ op: 'shell', command, cwd: win.workspace })) as { pid: number };
    leftovers.push(pid);
    await waitFor("the client's server listed with its port", 15_000, async () => ownedBy((await processes()).active, a).find((p) => p.pid === pid && p.ports.includes(port)));
    const second = (await b.send({ op: 'call', tool: 'terminal_run', args: { command, name: 'dev-shell-b', waitMode: 'ready' } })) as unknown as CallToolResult;
    const result = second.structuredContent as { status: string; message: string; server?: { pid?: number; ports: number[] } };
    assert.equal(result.status, 'already_running', toolText(second));
    assert.equal(result.server?.pid, pid);
    assert.deepEqual(result.server?.ports, [port]);
    assert.match(result.message, new RegExp(`already runs outside Terminal Shepherd's terminals \\(pid ${pid}\\).* by fake-cli's own tools \\(client pid ${a.pid}, node\\), fake-cli session sess-shell-a\\.`));
    const listing = toolText((await b.send({ op: 'call', tool: 'terminal_list', args: {} })) as unknown as CallToolResult);
    assert.doesNotMatch(listing, /"dev-shell-b"/, 'no terminal was opened for it');
    // Another command on its port fails there, and names the client's server as that client's, not a terminal's.
    const clash = (await b.send({ op: 'call', tool: 'terminal_run', args: { command: `node -e "require('http').createServer().listen(${port}, '127.0.0.1')"`, name: 'clash-b', waitMode: 'ready', timeout: 30_000 } })) as unknown as CallToolResult;
    const failed = clash.structuredContent as { status: string; message: string; portConflict?: PortConflict };
    assert.deepEqual(failed.portConflict?.holders.map((h) => [h.pid, h.owner, h.clientTools?.pid, h.agentSession?.id]), [[pid, 'client', a.pid, 'sess-shell-a']], toolText(clash));
    assert.match(failed.message, new RegExp(`started outside Terminal Shepherd's terminals by fake-cli's own tools \\(client pid ${a.pid}, node\\), fake-cli session sess-shell-a\\. If that is not your session`));
    // Ground truth: one process listens on the port, the one the client's tool started.
    const holders = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
    assert.match(holders, new RegExp(`pid=${pid},`));
    assert.equal(holders.trim().split('\n').length, 1);
    process.kill(pid, 'SIGKILL');
    for (const client of [a, b]) void client.send({ op: 'exit' }).catch(() => undefined);
  });

  it('a client that names no session: its run and the processes it starts are owned by its client process, in terminal_list and list_processes', async () => {
    const client = await startClient('fake-cli', undefined);
    const ran = (await client.send({ op: 'call', tool: 'terminal_run', args: { command: 'sleep 4477', name: 'no-session', waitMode: 'background' } })) as unknown as CallToolResult;
    assert.notEqual(ran.isError, true, toolText(ran));
    const owner = { client: 'fake-cli', id: String(client.pid), from: 'client.pid' };
    const sleep = await waitFor('the sleep in list_processes', 15_000, async () => flatten((await processes()).active).find((p) => p.commandLine === 'sleep 4477'));
    leftovers.push(sleep.pid);
    assert.ok(alive(sleep.pid), 'ground truth: the listed sleep runs');
    assert.deepEqual(sleep.agentSession, owner);
    const listing = toolText((await client.send({ op: 'call', tool: 'terminal_list', args: {} })) as unknown as CallToolResult);
    assert.match(listing, new RegExp(`"no-session": .*started by fake-cli \\(client pid ${client.pid}, no session id\\)`));
    const mine = (await client.send({ op: 'call', tool: 'list_processes', args: { session: 'mine' } })) as unknown as CallToolResult;
    assert.ok(flatten((mine.structuredContent as unknown as ListProcessesResult).active).some((p) => p.pid === sleep.pid), toolText(mine));
    await win.run('kill_process', { pid: sleep.pid });
    await waitFor('the sleep gone', 10_000, () => !alive(sleep.pid));
    void client.send({ op: 'exit' }).catch(() => undefined);
  });
});
