import assert from 'node:assert/strict';
import type { ProcessInfo } from '../../../extension/src/core/processes/types';
import type { TrackedProcess } from '../../../common/src/protocol';
import { clientToolProcesses, orphansToAnnounce, serverOf } from '../../../extension/src/core/service/clientProcesses';

/** A process started `second` seconds into the minute, in group `pgid` (default its own). */
function proc(pid: number, ppid: number, second: number, commandLine: string, pgid = pid): ProcessInfo {
  const startedAt = `2026-01-01T10:00:${String(second).padStart(2, '0')}.000Z`;
  return { pid, ppid, pgid, name: commandLine.split(' ')[0]!, commandLine, startTime: `${second}@boot`, startedAt };
}

// The client (100) leads its group; it started two MCP servers (ours through sh, and another), then its tools ran commands.
const client = proc(100, 1, 0, 'node fake-client.js');
const launcher = proc(110, 100, 1, 'sh -c node mcp-server.js', 100);
const ourServer = proc(111, 110, 1, 'node /ext/dist/mcp-server.js', 100);
const otherServer = proc(120, 100, 2, 'npx -y @playwright/mcp', 100);
const otherServerChild = proc(121, 120, 3, 'node /tmp/cli.js', 100);
const earlier = proc(130, 100, 1, 'node helper.js', 100);
const sleep = proc(200, 100, 10, 'sleep 300', 100);
const bash = proc(210, 100, 11, 'bash -c npm run dev', 100);
const vite = proc(211, 210, 12, 'node vite', 100);
const doubleForked = proc(220, 1, 13, 'sleep 301', 100);
const setsid = proc(230, 1, 14, 'sleep 302', 230);
const stranger = proc(300, 1, 15, 'sleep 303', 300);
const strangerInAnotherGroup = proc(310, 300, 16, 'sleep 304', 300);
const table = [client, launcher, ourServer, otherServer, otherServerChild, earlier, sleep, bash, vite, doubleForked, setsid, stranger, strangerInAnotherGroup];

const pids = (list: readonly ProcessInfo[]): number[] => list.map((p) => p.pid).sort((a, b) => a - b);

describe("an MCP client's own processes", () => {
  it('are its descendants and the double-forked members of its group, never itself, its MCP servers, their trees or a stranger', () => {
    assert.deepEqual(pids(clientToolProcesses(table, client, launcher)), [200, 210, 211, 220]);
  });

  it('are only its descendants when it leads no group (a double-forked child is lost to it, strangers stay out)', () => {
    const inherited = { ...client, pgid: 50 };
    const members = table.map((p) => (p.pgid === 100 ? { ...p, pgid: 50 } : p));
    assert.deepEqual(pids(clientToolProcesses(members, inherited, launcher)), [200, 210, 211]);
  });

  it('the server path is checked parent by parent up to the client', () => {
    assert.equal(serverOf(table, client, [111, 110]), launcher);
    assert.equal(serverOf(table, client, [111]), undefined, 'its parent is sh, not the client');
    assert.equal(serverOf(table, client, [200]), sleep, 'a direct child is its own path');
    assert.equal(serverOf(table, client, [310]), undefined, "a stranger's process");
    assert.equal(serverOf(table, client, [999]), undefined, 'a pid that is gone');
  });
});

describe('a client started by another client', () => {
  it('keeps its tree to itself', () => {
    const nested = proc(240, 100, 20, 'codex exec', 240);
    const nestedChild = proc(241, 240, 21, 'sleep 305', 240);
    assert.deepEqual(pids(clientToolProcesses([...table, nested, nestedChild], client, launcher, new Set([240]))), [200, 210, 211, 220]);
  });
});

describe('the orphans a starting window announces', () => {
  it("leave out a live client's, which its MCP server claims back; keep a gone client's and the terminals'", () => {
    const orphan = (pid: number, clientPid?: number): TrackedProcess => ({
      pid, name: 'sleep', commandLine: 'sleep 1', parentPid: 1, terminalName: 't', startedAt: '', status: 'orphaned', ports: [],
      ...(clientPid ? { clientTools: { client: 'c', pid: clientPid, command: 'c' } } : {}),
    });
    const kept = orphansToAnnounce([orphan(1), orphan(2, 100), orphan(3, 200)], (pid) => pid === 100);
    assert.deepEqual(kept.map((p) => p.pid), [1, 3]);
    assert.deepEqual(orphansToAnnounce([orphan(4, process.pid)]), [], 'this process runs');
  });
});
