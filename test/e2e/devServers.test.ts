// Dev servers through the real chain (MCP client -> MCP server -> bridge -> extension in a real VS
// Code -> bash) with real servers installed by the test setup, never committed: a Vite dev server
// (vite@7 from the npm registry, npm-installed into a temp copy of test/fixtures/vite-app), Python's
// http.server, Django's runserver (Debian's python3-django; its ready line comes before the bind), a
// server failing on a port the test itself holds, a watcher with a readyPattern, tsc --watch, and a
// server that never gets ready. Ground truth comes from the OS (`ss` for who listens) and from HTTP
// requests the test makes itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import type { DevServer, ListProcessesResult, WorkspaceInfoResult } from '../../common/src/protocol';
import { repoRoot, toolText } from '../support/mcpClient';
import { alive, flatten, freePort, makeWorkspace, openShepherdWindow, suiteWindow, waitFor, type ShepherdWindow } from '../support/shepherdE2e';

/** Pids listening on the TCP port, as the OS says (ss), not as the product says. */
function listeners(port: number): number[] {
  const out = spawnSync('ss', ['-Htlnp', `( sport = :${port} )`], { encoding: 'utf8' }).stdout ?? '';
  return [...new Set([...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])))];
}

/** GET a local URL from the test process: its status, or undefined when nothing answers. */
function httpStatus(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 5000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
    request.on('timeout', () => request.destroy());
  });
}

/** A Python 3 that can import django: Debian's python3-django lives in /usr/bin/python3's path. */
function pythonWithDjango(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import django'], { stdio: 'ignore' }).status === 0);
}

describe('dev servers in a real VS Code: ready, never twice, port taken, watchers', function () {
  this.timeout(180_000);
  let vitePort = 0;
  let python = '';
  const leftovers: number[] = [];
  const holders: net.Server[] = [];

  const win = suiteWindow(openWorkspace, () => {
    for (const holder of holders) holder.close();
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  async function openWorkspace(): Promise<ShepherdWindow> {
    const found = pythonWithDjango();
    assert.ok(found, 'Django is missing: install Debian\'s python3-django (it is listed in .ci/debian-packages), e.g. apt-get install -y python3-django');
    python = found;
    const workspace = makeWorkspace();
    // Vite, installed from the npm registry into a temp copy of the fixture (never committed).
    vitePort = await freePort();
    const web = path.join(workspace, 'web');
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'vite-app'), web, { recursive: true });
    const pkg = path.join(web, 'package.json');
    writeFileSync(pkg, readFileSync(pkg, 'utf8').replace('__PORT__', String(vitePort)));
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: web, encoding: 'utf8', timeout: 300_000 });
    assert.equal(install.status, 0, `npm install vite failed: ${install.stderr}`);
    // A Django project, made by Django itself.
    mkdirSync(path.join(workspace, 'site'));
    const made = spawnSync(python, ['-m', 'django', 'startproject', 'mysite', path.join(workspace, 'site')], { encoding: 'utf8' });
    assert.equal(made.status, 0, `django startproject failed: ${made.stderr}`);
    // A TypeScript project for tsc --watch.
    mkdirSync(path.join(workspace, 'tsproj'));
    writeFileSync(path.join(workspace, 'tsproj', 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'out', strict: true }, files: ['a.ts'] }));
    writeFileSync(path.join(workspace, 'tsproj', 'a.ts'), 'export const a: number = 1;\n');
    return openShepherdWindow({ workspace, label: 'dev-servers' });
  }

  const viteUrl = (): string => `http://localhost:${vitePort}/`;
  let vitePid = 0;

  it('Vite: waitMode ready returns once its port answers, with its URL; the OS agrees', async () => {
    const r = await win.run('terminal_run', { command: 'npm run dev', cwd: 'web', name: 'web', waitMode: 'ready', timeout: 90_000 });
    assert.equal(r.status, 'running', String(r.message));
    assert.equal(r.ready?.via, 'http');
    assert.deepEqual(r.ready?.ports, [vitePort]);
    assert.ok(r.ready?.urls.includes(viteUrl()), JSON.stringify(r.ready));
    assert.equal(await httpStatus(viteUrl()), 200, 'the URL answers the test too, right after the tool returned');
    const pids = listeners(vitePort);
    assert.equal(pids.length, 1, `one process listens on ${vitePort}: ${pids.join(', ')}`);
    vitePid = pids[0]!;
    leftovers.push(vitePid);
    assert.match(String(r.message), /^Ready after .*answered HTTP 200/);
  });

  it('a second `npm run dev` in the same folder is already running: nothing started, its URLs and output tail', async () => {
    const before = (await win.run('terminal_list', {})).terminals as unknown[];
    const r = await win.run('terminal_run', { command: 'npm  run dev', cwd: 'web', name: 'web-2', waitMode: 'ready' });
    assert.equal(r.status, 'already_running');
    const server = r.server as DevServer;
    assert.equal(server.terminal, 'web');
    assert.ok(server.urls.includes(viteUrl()), JSON.stringify(server));
    assert.deepEqual(server.ports, [vitePort]);
    assert.match(r.output, new RegExp(`Local:\\s+http://localhost:${vitePort}/`));
    assert.match(String(r.message), /already runs in terminal "web".*restart: true/);
    assert.equal(((await win.run('terminal_list', {})).terminals as unknown[]).length, before.length, 'no terminal was created');
    assert.deepEqual(listeners(vitePort), [vitePid], 'still the one server');
  });

  it('restart: true kills the old tree and starts it again; a new process answers', async () => {
    const r = await win.run('terminal_run', { command: 'npm run dev', cwd: 'web', waitMode: 'ready', restart: true, timeout: 90_000 });
    assert.equal(r.status, 'running', String(r.message));
    assert.equal(r.name, 'web');
    await waitFor('the old Vite to be gone', 10_000, () => !alive(vitePid));
    const pids = listeners(vitePort);
    assert.equal(pids.length, 1);
    assert.notEqual(pids[0], vitePid, 'another process serves now');
    leftovers.push(pids[0]!);
    assert.equal(await httpStatus(viteUrl()), 200);
  });

  let pyPort = 0;
  it('python3 -m http.server 0: ready on the port it picked, from its own output and the OS', async () => {
    const r = await win.run('terminal_run', { command: 'python3 -m http.server 0 --bind 127.0.0.1', name: 'py', waitMode: 'ready', timeout: 30_000 });
    assert.equal(r.status, 'running', String(r.message));
    pyPort = r.ready!.ports[0]!;
    assert.ok(pyPort > 0);
    assert.equal(await httpStatus(`http://127.0.0.1:${pyPort}/`), 200);
    assert.equal(listeners(pyPort).length, 1);
    leftovers.push(...listeners(pyPort));
  });

  it("Django's runserver: its ready line comes before the bind; the tool returns only once the port answers", async () => {
    // Picked now, with VS Code up: one picked before the window opened was once taken by code-server itself.
    const djangoPort = await freePort();
    const r = await win.run('terminal_run', { command: `${python} manage.py runserver 127.0.0.1:${djangoPort}`, cwd: 'site', name: 'django', waitMode: 'ready', timeout: 60_000 });
    assert.equal(r.status, 'running', String(r.message));
    assert.match(r.output, new RegExp(`Starting development server at http://127\\.0\\.0\\.1:${djangoPort}/`));
    assert.equal(r.ready?.via, 'http');
    assert.deepEqual(r.ready?.urls, [`http://127.0.0.1:${djangoPort}/`]);
    // The autoreloader's child binds: the port belongs to the run's tree, not its first process.
    const pids = listeners(djangoPort);
    assert.equal(pids.length, 1);
    leftovers.push(...pids);
    assert.equal(await httpStatus(`http://127.0.0.1:${djangoPort}/`), 200, 'answering when the tool returned');
  });

  it('a server exiting on EADDRINUSE: completed with its exit code, the holder named (a foreign process is never killed)', async () => {
    const holder = http.createServer((_q, s) => s.end('held by the test'));
    holders.push(holder);
    const port = await new Promise<number>((resolve) => holder.listen(0, () => resolve((holder.address() as net.AddressInfo).port)));
    const r = await win.run('terminal_run', { command: `node -e "require('http').createServer().listen(${port})"`, name: 'clash', waitMode: 'ready', timeout: 30_000 });
    assert.equal(r.status, 'completed');
    assert.equal(r.exitCode, 1);
    assert.match(r.output, /EADDRINUSE/);
    assert.equal(r.portConflict?.port, port);
    assert.deepEqual(r.portConflict?.holders.map((h) => [h.pid, h.owner]), [[process.pid, 'foreign']]);
    assert.match(String(r.message), new RegExp(`^Port ${port} is already in use\\. .*\\(pid ${process.pid}: .*\\) holds it; Terminal Shepherd did not start it and will not kill it\\.`));
    assert.equal(await httpStatus(`http://127.0.0.1:${port}/`), 200, 'the holder still serves');
  });

  it("a port held by this window's own server: the holder is named with its terminal", async () => {
    const r = await win.run('terminal_run', { command: `python3 -m http.server ${pyPort} --bind 127.0.0.1`, name: 'clash', waitMode: 'ready', timeout: 30_000 });
    assert.equal(r.status, 'completed');
    assert.notEqual(r.exitCode, 0);
    assert.equal(r.portConflict?.port, pyPort);
    assert.deepEqual(r.portConflict?.holders.map((h) => [h.owner, h.terminal]), [['ledger', 'py']]);
    const holder = r.portConflict?.holders[0]?.pid;
    assert.match(String(r.message), new RegExp(`started in Terminal Shepherd terminal "py"( by [^.]+)?\\. .*[Uu]se it, or stop it with kill_process \\{pid: ${holder}\\}`));
  });

  it('a watcher with a readyPattern: ready on its line, no port needed', async () => {
    const r = await win.run('terminal_run', {
      command: 'echo "building..."; sleep 1; echo "built in 1.0s, watching for changes"; sleep 600',
      name: 'watch',
      waitMode: 'ready',
      readyPattern: 'watching for changes$',
      timeout: 30_000,
    });
    assert.equal(r.status, 'running', String(r.message));
    assert.deepEqual({ via: r.ready?.via, line: r.ready?.line, ports: r.ready?.ports }, { via: 'pattern', line: 'built in 1.0s, watching for changes', ports: [] });
    assert.ok((r.ready?.waitedMs ?? 0) >= 900, `not before the line (${r.ready?.waitedMs} ms)`);
    await win.run('terminal_input', { name: 'watch', text: '\u0003' });
  });

  it("tsc --watch: ready on tsc's own line (the stack patterns), without a readyPattern", async () => {
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await win.run('terminal_run', { command: `node ${JSON.stringify(tsc)} --watch -p tsproj`, name: 'tsc', waitMode: 'ready', timeout: 60_000 });
    assert.equal(r.status, 'running', String(r.message));
    assert.equal(r.ready?.via, 'line');
    assert.match(r.ready?.line ?? '', /Found 0 errors\. Watching for file changes\./);
    await win.run('terminal_input', { name: 'tsc', text: '\u0003' });
  });

  it('a server that never gets ready: timeout, still running and reachable, then killed through kill_process', async () => {
    const r = await win.run('terminal_run', { command: `node -e "console.log('warming up'); setInterval(() => {}, 1000)"`, name: 'never', waitMode: 'ready', timeout: 2500 });
    assert.equal(r.status, 'timeout');
    assert.match(String(r.message), /^Not ready after 2\.5 s: none of its processes listens on a TCP port\..*keeps running in terminal "never"/);
    assert.equal((await win.run('terminal_state', { name: 'never' })).status, 'running');
    const node = await waitFor('the node process in list_processes', 15_000, async () =>
      flatten(((await win.run('list_processes', {})) as unknown as ListProcessesResult).active).find((p) => p.terminalName === 'never' && p.name === 'node'),
    );
    leftovers.push(node.pid);
    const killed = await win.run('kill_process', { pid: node.pid });
    assert.ok((killed.killed as unknown as number[]).includes(node.pid));
    assert.equal(alive(node.pid), false);
    const ended = await win.run('terminal_state', { name: 'never', wait: true, timeout: 10_000 });
    assert.equal(ended.status, 'completed');
  });

  it('workspace_info: the stacks, the dev-server commands, and the servers running now (answering)', async () => {
    const result = await win.call('workspace_info', {});
    assert.notEqual(result.isError, true, toolText(result));
    const info = result.structuredContent as unknown as WorkspaceInfoResult;
    for (const stack of ['Node.js', 'npm', 'Python', 'Django', 'TypeScript']) assert.ok(info.analysis?.detectedStacks.includes(stack), `${stack} in ${info.analysis?.detectedStacks.join(', ')}`);
    assert.deepEqual(info.analysis?.devCommands.find((c) => c.cwd === 'web'), { command: 'npm run dev', cwd: 'web', source: `package.json script "dev": vite --port ${vitePort} --strictPort` });
    assert.ok(info.analysis?.devCommands.some((c) => c.command === 'python3 manage.py runserver' && c.cwd === 'site'));
    const vite = info.servers.find((s) => s.terminal === 'web');
    assert.equal(vite?.healthy, true, JSON.stringify(info.servers));
    assert.ok(vite?.urls.includes(viteUrl()));
    assert.equal(info.servers.find((s) => s.terminal === 'django')?.healthy, true);
    // Every response's reminder names the running servers with their URLs.
    assert.match(toolText(result), new RegExp(`Dev servers running .*\\n(- .*\\n)*- \`npm run dev\` in terminal "web": ${viteUrl().replace(/[/.]/g, '\\$&')}`));
  });

  it('the Processes view shows the server URL rows', async () => {
    const page = win.vscode.page;
    await page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Terminal Shepherd"]') }).click();
    const row = page.locator(`.part.sidebar .monaco-list-row[role="treeitem"][aria-label="Dev server URL ${viteUrl()}, in terminal web"]`);
    await row.waitFor({ timeout: 15_000 });
    await win.vscode.screenshot(path.join(repoRoot, 'test-results', 'dev-servers-view.png'));
  });
});

