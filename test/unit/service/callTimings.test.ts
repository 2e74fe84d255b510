/**
 * A call's stage timings (issue 30): marks end stages in order, a stage marked twice adds up, a time
 * before the last mark counts as nothing; a terminal_run result carries them only when its caller
 * asked (meta.timings), with every stage of the run path named.
 */
import assert from 'node:assert/strict';
import { CallTimings } from '../../../extension/src/core/service/callTimings';
import type { TerminalService } from '../../../extension/src/core/service/terminalService';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { TempDirs } from '../../support/tempDirs';
import { FakeTerminalHost, completeEveryCommand } from '../terminals/fakeTerminalHost';
import { fakeTerminalService, serviceForEachTest } from './serviceSupport';

describe('CallTimings', () => {
  it('ends each stage at its mark; a stage marked twice adds up; a time before the last mark counts 0', () => {
    let now = 100;
    const timings = new CallTimings(() => now);
    now = 103;
    timings.mark('plan');
    now = 104;
    timings.mark('start');
    timings.mark('shell', 110);
    timings.mark('completion', 109); // before the last mark
    now = 115;
    timings.mark('start');
    assert.deepEqual(timings.done(), { plan: 3, start: 6, shell: 6, completion: 0, total: 15 });
  });
});

describe('stage timings in a terminal_run result', () => {
  const dirs = new TempDirs();
  const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 200, shellIntegrationTimeoutMs: 1000, preventShellHistory: false };
  let host: FakeTerminalHost;
  let service: TerminalService;
  serviceForEachTest(
    dirs,
    () => {
      host = new FakeTerminalHost();
      completeEveryCommand(host);
      service = fakeTerminalService(host, () => settings, dirs);
    },
    () => ({ service, host }),
  );

  it('only when the call asks, naming every stage of the run path, each within the total', async () => {
    const plain = await service.run({ command: 'true', name: 't' });
    assert.equal(plain.timings, undefined);
    const timed = await service.run({ command: 'true', name: 't' }, { meta: { timings: true } });
    const spans = timed.timings!;
    assert.deepEqual(Object.keys(spans).sort(), ['checks', 'completion', 'drain', 'environment', 'plan', 'redaction', 'report', 'shell', 'start', 'total', 'typing']);
    const stages = Object.entries(spans).filter(([k]) => k !== 'total');
    assert.ok(stages.every(([, ms]) => ms >= 0 && ms <= spans.total!), JSON.stringify(spans));
    assert.ok(stages.reduce((sum, [, ms]) => sum + ms, 0) <= spans.total! + 0.1, JSON.stringify(spans));
  });
});
