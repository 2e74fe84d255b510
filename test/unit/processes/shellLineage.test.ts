/**
 * Windows after a crash: what dead terminal shells started, by CIM lineage (ParentProcessId chains
 * checked by CreationDate), on a recorded Win32_Process snapshot (win32-after-crash.json) taken
 * after the window died: terminal "web" (shell 7000, dead) ran `npm run dev` (cmd -> npm -> vite ->
 * esbuild) and a Start-Process no poll saw; terminal "jobs" (shell 9000, dead, its pid reused since
 * by a newer notepad) ran a ping; terminal "ops" (shell 9500) outlived the window. Beside them: a
 * program that claims pid 7000 as parent but predates the shell, a console host, a grandchild whose
 * middle process exited, and a stranger.
 */
import assert from 'node:assert/strict';
import { MARK_SESSION, MARK_TERMINAL, processMarkEnv } from '../../../extension/src/core/ledger/processMarks';
import { shellDescendants } from '../../../extension/src/core/processes/shellLineage';
import type { LoggedShell, MarkedProcess } from '../../../extension/src/core/processes/types';
import { parseWin32Processes } from '../../../extension/src/core/processes/windowsParsers';
import { LIST_PROCESSES_SCRIPT, WindowsProcessMonitor } from '../../../extension/src/core/processes/windowsProcessMonitor';
import { fixture, fixtureJson } from './helpers';

const table = parseWin32Processes(fixtureJson('win32-after-crash.json') as Array<Record<string, unknown>>);
const shell = (pid: number, created: string, terminal: string, session = 'A'): LoggedShell => ({ pid, startTime: `2025-11-16T${created}Z`, marks: processMarkEnv(session, terminal) });
const shells = [
  shell(7000, '09:00:00.1000000', 'web'),
  shell(9000, '09:00:30.0000000', 'jobs'),
  shell(9500, '09:01:00.0000000', 'ops'),
  // An older session's shell had pid 7000 too: the newest one that started before a child is its parent.
  shell(7000, '08:55:00.0000000', 'old', 'Z'),
];
const found = (list: readonly MarkedProcess[]): string[] => list.map((m) => `${m.info.pid} ${m.marks[MARK_TERMINAL]}`).sort();

describe('Windows: what dead shells started, by CIM lineage (recorded snapshot)', () => {
  it('finds the whole tree of each dead shell and the children of one that lives on, each with its terminal and session', () => {
    const result = shellDescendants(table, shells);
    assert.deepEqual(found(result), ['7100 web', '7200 web', '7300 web', '7400 web', '7500 web', '9200 jobs', '9600 ops']);
    assert.ok(result.every((m) => m.marks[MARK_SESSION] === 'A' && !m.terminalShell));
  });

  it('never takes a process older than the shell, one under a reused pid, a console host, the live shell itself or a stranger', () => {
    const pids = shellDescendants(table, shells).map((m) => m.info.pid);
    for (const pid of [6900, 9000, 9100, 7010, 9500, 8000, 4]) assert.equal(pids.includes(pid), false, `pid ${pid}`);
  });

  it('what remains: a grandchild whose middle process exited is lost (no lineage survives a restart)', () => {
    assert.equal(shellDescendants(table, shells).some((m) => m.info.pid === 7700), false);
  });

  it('nothing without logged shells, and nothing for a shell logged with another start time (its pid was another process)', () => {
    assert.deepEqual(shellDescendants(table, []), []);
    assert.deepEqual(found(shellDescendants(table, [shell(7000, '09:30:00.0000000', 'later')])), [], 'every child predates that shell');
  });

  it('the monitor asks one fresh CIM snapshot for it', async () => {
    const scripts: string[] = [];
    const monitor = new WindowsProcessMonitor({
      session: {
        run: async (script: string) => {
          scripts.push(script);
          return fixture('win32-after-crash.json');
        },
        dispose: () => undefined,
      },
    });
    assert.deepEqual(await monitor.shellDescendants([]), [], 'no shells: no query');
    assert.deepEqual(found(await monitor.shellDescendants(shells)), found(shellDescendants(table, shells)));
    assert.deepEqual(scripts, [LIST_PROCESSES_SCRIPT]);
  });
});
