/**
 * The agent session on the ledger's records: what a run of a session starts carries it in list(),
 * the process log (started/spawned), active-processes.json and the session summary, and keeps it
 * as an orphan a reloaded window adopts; a later run of another caller in the same terminal
 * stamps what appears from then on; files written before the field load as before. A run in the
 * sandbox stamps its mode and network on the same started/spawned lines, a later run outside it not.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AgentSession } from '../../../common/src/protocol';
import { parseActiveEntry, parseLedgerEvent, type RunSandbox } from '../../../extension/src/core/ledger/formats';
import { waitFor } from '../processes/helpers';
import { ON_DEMAND, useFakeTable } from './processTrackerLogicSupport';
import { flatten } from './trackerSupport';

const copilot: AgentSession = { client: 'github-copilot-developer', id: '6f1c0b7e-session', from: 'env.COPILOT_AGENT_SESSION_ID' };
const chat: AgentSession = { client: 'Visual Studio Code', id: 'conv-42', from: '_meta.vscode.conversationId' };
const sandbox: RunSandbox = { mode: 'vscode', network: false };

describe('ledger: the agent session on each run’s records', function () {
  const t = useFakeTable();

  it('records the run’s agent session (and its sandbox) on its processes: list(), started/spawned lines, active file, session summary', async () => {
    const w = await t.openWindow(t.dirs.make(), { settings: ON_DEMAND, sessionId: 'sessionA' });
    const shell = t.openTerminal(w.tracker, 'dev');
    w.tracker.runStarted('dev', copilot, sandbox);
    const npm = t.fake.spawn(shell.pid, 'npm', 'npm run dev');
    const node = t.fake.spawn(npm.pid, 'node', 'node server.js');
    await w.tracker.refresh();
    w.tracker.runEnded('dev');
    // A later run by a caller that names no session, outside the sandbox: what it starts is nobody's, unsandboxed.
    w.tracker.runStarted('dev');
    const sleep = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    await w.tracker.refresh();

    const listed = flatten(w.tracker.list().active);
    assert.deepEqual(listed.map((p) => [p.pid, p.agentSession?.id]), [[npm.pid, copilot.id], [node.pid, copilot.id], [sleep.pid, undefined]]);
    const events = await waitFor('three discovery lines', async () => ((await w.events()).length >= 3 ? w.events() : undefined));
    assert.deepEqual(
      events.map((e) => `${e.event} ${e.pid} ${e.agentSession ? `${e.agentSession.client}/${e.agentSession.id}/${e.agentSession.from}` : '-'}`),
      [`started ${npm.pid} ${copilot.client}/${copilot.id}/${copilot.from}`, `spawned ${node.pid} ${copilot.client}/${copilot.id}/${copilot.from}`, `started ${sleep.pid} -`],
    );
    assert.deepEqual(events.map((e) => e.sandbox), [sandbox, sandbox, undefined]);
    await w.tracker.dispose();
    const active = JSON.parse(fs.readFileSync(path.join(w.store.dir, 'active-processes.json'), 'utf8')) as { entries: { pid: number; agentSession?: AgentSession }[] };
    assert.deepEqual(active.entries.map((e) => [e.pid, e.agentSession]).sort(), [[npm.pid, copilot], [node.pid, copilot], [sleep.pid, undefined]].sort());
    const summary = JSON.parse(fs.readFileSync(path.join(w.store.dir, 'sessions', 'sessionA.json'), 'utf8')) as { processes: { pid: number; agentSession?: AgentSession }[] };
    assert.deepEqual(summary.processes.find((p) => p.pid === npm.pid)?.agentSession, copilot);
  });

  it('keeps the agent session on an orphan a reloaded window adopts', async () => {
    const dir = t.dirs.make();
    const a = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionA' });
    const shell = t.openTerminal(a.tracker, 'srv');
    a.tracker.runStarted('srv', chat);
    const server = t.fake.spawn(shell.pid, 'node', 'node server.js');
    await a.tracker.refresh();
    await a.tracker.dispose();
    t.fake.exit(a.host.pid);
    t.fake.exit(shell.pid);

    const b = await t.openWindow(dir, { settings: ON_DEMAND, sessionId: 'sessionB' });
    assert.deepEqual(b.tracker.list().orphaned.map((p) => [p.pid, p.agentSession]), [[server.pid, chat]]);
    const orphaned = await waitFor('the orphaned line', async () => (await b.events()).find((e) => e.event === 'orphaned' && e.sessionId === 'sessionB'));
    assert.deepEqual(orphaned.agentSession, chat);
  });

  it('loads entries and lines written before the field (none), and drops an unusable one', () => {
    const owner = { pid: 10, startTime: 'x' };
    const old = { pid: 5, startTime: 's', startedAt: 'now', name: 'n', commandLine: 'c', parentPid: 1, terminalName: 't', ports: [], status: 'running', sessionId: 'a', owner };
    assert.equal(parseActiveEntry(old)?.agentSession, undefined);
    assert.equal(parseActiveEntry({ ...old, agentSession: { client: 'x' } })?.agentSession, undefined, 'no id: not a session');
    assert.equal(parseActiveEntry({ ...old, agentSession: 'conv-1' })?.agentSession, undefined, 'not an object');
    assert.deepEqual(parseActiveEntry({ ...old, agentSession: chat })?.agentSession, chat);
    assert.equal(parseLedgerEvent({ event: 'started', ts: 'now', sessionId: 'a', pid: 5, startTime: 's', name: 'n', terminal: 't' })?.event, 'started');
  });
});
