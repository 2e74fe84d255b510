/**
 * The never-twice rule for dev servers an MCP client's own tools started outside managed
 * terminals: which command lines run the same command (runsCommand), which recorded process is the
 * same server (findClientServer: by the port the command asks for, or by command and folder).
 * Through the terminal service: devServerRuns.test.ts.
 */
import assert from 'node:assert/strict';
import type { TrackedProcess } from '../../../common/src/protocol';
import { findClientServer, runsCommand } from '../../../extension/src/core/servers/clientServers';

const CLAUDE = { client: 'claude-code', pid: 4242, command: 'claude' };

function tracked(pid: number, parentPid: number, commandLine: string, extra: Partial<TrackedProcess> = {}): TrackedProcess {
  return { pid, parentPid, name: commandLine.split(' ')[0]!, commandLine, terminalName: 'claude-code (own tools)', startedAt: '2026-01-01T00:00:00.000Z', status: 'running', ports: [], clientTools: CLAUDE, ...extra };
}

describe('dev servers of an MCP client’s own tools: the same server', () => {
  it('runsCommand: the same key without quotes, or a shell script that runs it as a whole command', () => {
    const cases: Array<[string, string, boolean]> = [
      ['npm run dev', 'npm run dev', true],
      ['npm run dev', 'npm  run-script dev &', true],
      ['node -e require(http).listen(5173)', `node -e "require('http').listen(5173)"`, true],
      ['/bin/bash -c -l shopt -u extglob 2>/dev/null || true && eval npm run dev < /dev/null && pwd -P >| /tmp/claude-1-cwd', 'npm run dev', true],
      ['sh -c cd web && npm run dev', 'npm run dev', true],
      ['sh -c npm run dev:api', 'npm run dev', false],
      ['sh -c xnpm run dev', 'npm run dev', false],
      ['node /w/node_modules/.bin/vite', 'npm run dev', false],
      ['vim notes about npm run dev', 'npm run dev', false],
      ['npm run dev -- --port 3000', 'npm run dev', false],
    ];
    for (const [line, command, expected] of cases) assert.equal(runsCommand(line, command), expected, `${line} runs ${command}`);
  });

  const uptime = (): number => 1000;

  it('findClientServer: by command in the same folder, the tree under the topmost process of the client; not in another folder', async () => {
    const shell = tracked(100, CLAUDE.pid, 'bash -c npm run dev &', { agentSession: { client: 'claude-code', id: 'sess-a', from: 'env.CLAUDE_CODE_SESSION_ID' } });
    const npm = tracked(101, 100, 'npm run dev');
    const vite = tracked(102, 101, 'node /w/web/node_modules/.bin/vite', { ports: [5173] });
    const cwds = new Map([[100, '/w/web'], [101, '/w/web'], [102, '/w/web']]);
    const cwdOf = async (pid: number): Promise<string | undefined> => cwds.get(pid);
    const found = await findClientServer('npm run dev', '/w/web/', [{ ...shell, children: [{ ...npm, children: [vite] }] }], cwdOf, uptime);
    assert.equal(found?.server.pid, 100, 'the root of the client’s tree');
    assert.deepEqual(found?.server.ports, [5173]);
    assert.equal(found?.server.command, 'bash -c npm run dev &');
    assert.equal(found?.server.terminal, 'claude-code (own tools)');
    assert.equal(found?.owner, "claude-code's own tools (client pid 4242, claude), claude-code session sess-a");
    assert.equal(await findClientServer('npm run dev', '/w/api', [shell, npm, vite], cwdOf, uptime), undefined, 'another folder');
    assert.equal(await findClientServer('npm run dev', '/w/web', [shell, npm, vite], undefined, uptime), undefined, 'no folder from the OS: the command alone never counts');
    assert.equal(await findClientServer('npm run dev', '/w/web', [{ ...npm, clientTools: undefined }], cwdOf, uptime), undefined, 'a terminal’s process is the terminal rule’s');
    assert.equal(await findClientServer('npm run dev', '/w/web', [{ ...npm, status: 'orphaned' }], cwdOf, uptime), undefined, 'an orphan is not running for anyone');
  });

  it('findClientServer: by the port the command asks for, in any folder, without a session named', async () => {
    const python = tracked(200, CLAUDE.pid, 'python3 -m http.server 8000', { ports: [8000] });
    const found = await findClientServer('python -m http.server 8000 --bind 127.0.0.1', '/elsewhere', [python], async () => '/w', uptime);
    assert.equal(found?.server.pid, 200);
    assert.equal(found?.server.cwd, '/w');
    assert.equal(found?.owner, "claude-code's own tools (client pid 4242, claude)");
    assert.equal(await findClientServer('python -m http.server 8001', '/w', [python], async () => '/w', uptime), undefined, 'another port, another command');
  });
});
