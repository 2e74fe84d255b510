// Test runners in watch mode through the real chain (MCP SDK client -> MCP server -> bridge ->
// extension in a real VS Code -> bash): real vitest 4 and jest 30 from the npm registry (installed
// once into a cache under .vscode-test/, see test/support/npmFixture.ts), run the way an agent runs
// them, in completion mode. Each returns `watching` with the right pass/fail counts while its
// process goes on (checked in /proc); editing a test file (the test writes it) and calling
// terminal_state reports the next cycle; a second copy is never started; `q` stops it. The window
// has a person's environment, without the CI variables of the machine the tests run on (on which
// vitest would not watch); one test sets CI itself for jest. Managed terminals carry AI_AGENT, under
// which vitest 4 does not watch unless asked (--watch), as an agent wants.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ListProcessesResult, TerminalRunResult } from '../../common/src/protocol';
import { npmFixture } from '../support/npmFixture';
import { alive, flatten, makeWorkspace, openShepherdWindow, suiteWindow, type ShepherdWindow } from '../support/shepherdE2e';

describe('test runners in watch mode in a real VS Code: watching, the next cycle, never twice', function () {
  this.timeout(240_000);
  const win = suiteWindow(openProject);

  /**
   * `q` to a watcher, until it has quit: one edit can start a second re-run (the write may reach
   * the watcher as two changes), and a cycle that ends after the key is reported as `watching`
   * before the runner reads the `q`.
   */
  async function quit(name: string): Promise<TerminalRunResult> {
    const stopped = await win.run('terminal_input', { name, text: 'q', enter: false });
    return stopped.status === 'watching' ? win.run('terminal_state', { name, wait: true, timeout: 30_000 }) : stopped;
  }

  async function openProject(): Promise<ShepherdWindow> {
    const fixture = await npmFixture('watch-project');
    const workspace = makeWorkspace();
    const project = path.join(workspace, 'tests');
    fixture.copyInto(project);
    // jest --watch follows the files git calls changed: a repository with nothing committed yet.
    writeFileSync(path.join(project, '.gitignore'), 'node_modules\n.vitest-cache\n.jest-cache\n');
    const git = spawnSync('git', ['init', '-q', project], { encoding: 'utf8' });
    assert.equal(git.status, 0, `git init: ${git.stderr}`);
    return openShepherdWindow({ workspace, label: 'watchers' });
  }

  /** The runner's node process under the terminal, from the ledger, checked alive in /proc. */
  async function runnerPid(name: string, pattern: RegExp): Promise<number> {
    const listed = (await win.run('list_processes', {})) as unknown as ListProcessesResult;
    const found = flatten(listed.active).find((p) => p.terminalName === name && pattern.test(p.commandLine));
    assert.ok(found, `no ${pattern} under terminal "${name}": ${JSON.stringify(listed.active)}`);
    assert.ok(alive(found.pid), `pid ${found.pid} alive in /proc`);
    return found.pid;
  }

  function counts(r: TerminalRunResult): [number | undefined, number | undefined] {
    return [r.watch?.passed, r.watch?.failed];
  }

  const fix = (file: string): void => writeFileSync(path.join(win.workspace, 'tests', file), file.startsWith('vitest') ? "import { expect, test } from 'vitest';\ntest('multiplies', () => { expect(2 * 2).toBe(4); });\ntest('divides', () => { expect(6 / 2).toBe(3); });\n" : "test('multiplies', () => { expect(2 * 2).toBe(4); });\ntest('divides', () => { expect(6 / 2).toBe(3); });\n");

  it('plain npx vitest runs once and ends: vitest 4 reads the AI_AGENT that managed terminals carry and does not watch', async () => {
    const r = await win.run('terminal_run', { command: 'npx vitest', cwd: 'tests', name: 'vitest-once', timeout: 120_000 });
    assert.equal(r.status, 'completed', JSON.stringify(r));
    assert.equal(r.exitCode, 1);
    assert.match(r.output, /Tests {2}1 failed \| 3 passed \(4\)/);
  });

  it('npx vitest --watch returns watching with 3 passed and 1 failed, and keeps running', async () => {
    const r = await win.run('terminal_run', { command: 'npx vitest --watch', cwd: 'tests', name: 'vitest', timeout: 120_000 });
    assert.equal(r.status, 'watching', JSON.stringify(r));
    assert.equal(r.watch?.tool, 'vitest');
    assert.equal(r.watch?.cycle, 1);
    assert.deepEqual(counts(r), [3, 1]);
    assert.deepEqual(r.nextCall, { tool: 'terminal_state', arguments: { name: 'vitest', wait: true } });
    assert.match(r.output, /FAIL {2}Tests failed\. Watching for file changes\.\.\./);
    await runnerPid('vitest', /vitest/);
  });

  it('a second `npx vitest --watch` in the same folder is already running: nothing started', async () => {
    const again = await win.run('terminal_run', { command: 'npx  vitest  --watch', cwd: 'tests', name: 'vitest-2' });
    assert.equal(again.status, 'already_running');
    assert.equal(again.server?.terminal, 'vitest');
    const terminals = (await win.run('terminal_list', {})) as unknown as { terminals: { name: string }[] };
    assert.ok(!terminals.terminals.some((t) => t.name === 'vitest-2'));
  });

  it('after an edit of the failing test, terminal_state {wait: true} reports the next cycle: the edited file passes', async () => {
    fix('vitest/broken.test.js');
    const next = await win.run('terminal_state', { name: 'vitest', wait: true, timeout: 60_000 });
    assert.equal(next.status, 'watching', JSON.stringify(next));
    assert.equal(next.watch?.cycle, 2);
    assert.deepEqual(counts(next), [2, undefined], 'vitest re-runs the edited file only: 2 passed');
    assert.equal((await quit('vitest')).status, 'completed');
  });

  it('npx jest --watch returns watching with 3 passed and 1 failed; the next cycle after an edit; q quits', async () => {
    const r = await win.run('terminal_run', { command: 'npx jest --watch', cwd: 'tests', name: 'jest', timeout: 120_000 });
    assert.equal(r.status, 'watching', JSON.stringify(r));
    assert.equal(r.watch?.tool, 'jest');
    assert.deepEqual(counts(r), [3, 1]);
    const pid = await runnerPid('jest', /jest/);
    fix('jest/broken.test.js');
    const next = await win.run('terminal_state', { name: 'jest', wait: true, timeout: 60_000 });
    assert.equal(next.status, 'watching', JSON.stringify(next));
    assert.equal(next.watch?.cycle, 2);
    assert.deepEqual(counts(next), [4, undefined], 'jest re-runs the files git calls changed: all of them, none committed');
    assert.ok(alive(pid), 'the same jest goes on watching');
    assert.equal((await quit('jest')).status, 'completed');
  });

  it('with CI set jest --watch prints no usage block and still returns watching; q quits it', async () => {
    const r = await win.run('terminal_run', { command: 'CI=true npx jest --watch', cwd: 'tests', name: 'jest-ci', timeout: 120_000 });
    assert.equal(r.status, 'watching', JSON.stringify(r));
    assert.doesNotMatch(r.output, /Watch Usage/);
    assert.deepEqual(counts(r), [4, undefined]);
    const pid = await runnerPid('jest-ci', /jest/);
    const stopped = await win.run('terminal_input', { name: 'jest-ci', text: 'q', enter: false });
    assert.equal(stopped.status, 'completed');
    assert.ok(!alive(pid), `jest (pid ${pid}) is gone after q`);
  });
});
