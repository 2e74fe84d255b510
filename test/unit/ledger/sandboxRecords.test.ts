/**
 * A run in the sandbox on the ledger's records: what it starts (the runtime's launcher, bubblewrap,
 * the command under them) is logged with the sandbox in its started/spawned line; what a later run
 * outside it starts in the same terminal is not.
 */
import assert from 'node:assert/strict';
import { waitFor } from '../processes/helpers';
import { ON_DEMAND, useFakeTable } from './processTrackerLogicSupport';

describe('ledger: the sandbox on a run’s records', function () {
  const t = useFakeTable();

  it('stamps the started/spawned lines of a sandboxed run’s processes with its mode and network, and not a later unsandboxed run’s', async () => {
    const w = await t.openWindow(t.dirs.make(), { settings: ON_DEMAND, sessionId: 'sessionA' });
    const shell = t.openTerminal(w.tracker, 'build');
    w.tracker.runStarted('build', undefined, { mode: 'vscode', network: false });
    const runner = t.fake.spawn(shell.pid, 'node', 'node dist/sandboxRunner.mjs policy.json npm test');
    const bwrap = t.fake.spawn(runner.pid, 'bwrap', 'bwrap --unshare-net -- bash -c npm test');
    await w.tracker.refresh();
    w.tracker.runEnded('build');
    w.tracker.runStarted('build');
    const plain = t.fake.spawn(shell.pid, 'sleep', 'sleep 100');
    await w.tracker.refresh();

    const events = await waitFor('three discovery lines', async () => ((await w.events()).length >= 3 ? w.events() : undefined));
    assert.deepEqual(
      events.map((e) => [e.event, e.pid, e.sandbox]),
      [
        ['started', runner.pid, { mode: 'vscode', network: false }],
        ['spawned', bwrap.pid, { mode: 'vscode', network: false }],
        ['started', plain.pid, undefined],
      ],
    );
    await w.tracker.dispose();
  });
});
