/**
 * What it costs, on the REAL /proc: a `yes > /dev/null &` started in a watched shell shows its CPU%
 * within two polls, in list(), in the summary every response carries and in the terminal's tree.
 */
import assert from 'node:assert/strict';
import { describeWhere } from '../../support/skips';
import { waitFor } from '../processes/helpers';
import { flatten, makeTracker, realProcessSuite, runInShell } from './trackerSupport';

describeWhere(process.platform === 'linux', 'needs Linux /proc')('ProcessTracker: what processes cost (real /proc)', function () {
  this.timeout(30_000);
  const { monitor, janitor, dirs, fixtures } = realProcessSuite();

  it('a busy background job: CPU% and memory in list(), the summary and the terminal\'s tree', async () => {
    const fixture = makeTracker(monitor, dirs.make());
    fixtures.push(fixture);
    const { tracker } = fixture;
    await tracker.start();
    runInShell(janitor, tracker, 'busy', 'yes > /dev/null &');
    const yes = await waitFor('yes tracked', () => flatten(tracker.list().active).find((p) => p.name === 'yes'));
    janitor.track(yes.pid);
    // Two polls at most (pollIntervalMs 100 here): the share over the last one.
    const busy = await waitFor('CPU% of yes', async () => {
      await tracker.refresh();
      const p = flatten(tracker.list().active).find((q) => q.pid === yes.pid);
      return p?.cpuPercent !== undefined && p.cpuPercent > 30 ? p : undefined;
    }, 10_000, 50);
    assert.ok(busy.rssBytes! > 0, 'resident memory');
    assert.equal(busy.waitingForTerminal, false);
    const entry = tracker.summary().running.find((e) => e.pid === yes.pid);
    assert.ok(entry?.cpuPercent !== undefined && entry.rssBytes !== undefined, 'the per-response summary carries the cost');
    const tree = tracker.treeUsage('busy');
    assert.ok(tree && tree.processes >= 1 && tree.cpuPercent > 30, `tree ${JSON.stringify(tree)}`);
    assert.equal(tracker.treeUsage('no such terminal'), undefined);
  });
});
