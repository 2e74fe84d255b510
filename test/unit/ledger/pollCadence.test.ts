/** The poll cadence: which checks a poll owes, on the injected clock, and the timer that asks for polls. */
import assert from 'node:assert/strict';
import { defaultLedgerSettings } from '../../../extension/src/core/ledger/api';
import { PollCadence, dueScope, type PollActivity } from '../../../extension/src/core/ledger/pollCadence';
import { collectingLogger } from '../../support/collectingLogger';
import { waitFor } from '../processes/helpers';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('ledger poll cadence', () => {
  it('dueScope: every live process at the idle cadence (a little early counts), ports at most every 2 s', () => {
    const last = { checkAllAt: 10_000, portsAt: 12_000 };
    assert.deepEqual(dueScope(13_000, last, 5000), { checkAll: false, ports: false });
    assert.deepEqual(dueScope(13_950, last, 5000), { checkAll: false, ports: true });
    assert.deepEqual(dueScope(14_960, last, 5000), { checkAll: true, ports: true });
    const never = { checkAllAt: Number.NEGATIVE_INFINITY, portsAt: Number.NEGATIVE_INFINITY };
    assert.deepEqual(dueScope(0, never, 5000), { checkAll: true, ports: true });
  });

  it('due and polled count on the injected clock, from when a poll started', () => {
    let clock = 1_000_000;
    const cadence = new PollCadence({
      now: () => clock,
      settings: () => ({ ...defaultLedgerSettings, pollIntervalMs: 100, idlePollIntervalMs: 5000 }),
      logger: collectingLogger(),
      activity: () => 'quiet',
      poll: async () => undefined,
    });
    const first = cadence.due();
    assert.deepEqual(first, { at: 1_000_000, checkAll: true, ports: true });
    clock += 1000; // the poll took a while: its checks still count from its start
    cadence.polled(first);
    clock = 1_001_950;
    assert.deepEqual(cadence.due(), { at: 1_001_950, checkAll: false, ports: true });
    cadence.checkedAll();
    clock += 4900;
    assert.deepEqual(cadence.due(), { at: clock, checkAll: false, ports: true });
    clock += 50;
    assert.deepEqual(cadence.due(), { at: clock, checkAll: true, ports: true });
  });

  it('polls while there is activity, logs a failed poll and goes on, and stops for good', async () => {
    let activity: PollActivity = 'running';
    let polls = 0;
    const logger = collectingLogger();
    const cadence = new PollCadence({
      now: Date.now,
      settings: () => ({ ...defaultLedgerSettings, pollIntervalMs: 10, idlePollIntervalMs: 10 }),
      logger,
      activity: () => activity,
      poll: async () => {
        polls++;
        if (polls === 1) throw new Error('monitor down');
        if (polls === 3) activity = 'quiet'; // this poll's reschedule finds nothing to watch
      },
    });
    cadence.runStarted();
    await waitFor('three polls', () => polls >= 3, 2000);
    assert.ok(logger.has('warn', /polling processes failed.*monitor down/));
    await sleep(50);
    assert.equal(polls, 3, 'no tick while nothing is watched');
    cadence.stop();
    activity = 'running';
    cadence.reschedule();
    cadence.runStarted();
    await sleep(50);
    assert.equal(polls, 3, 'no tick once stopped');
  });
});
