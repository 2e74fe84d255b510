import assert from 'node:assert/strict';
import { silentLogger } from '../../../common/src/logger';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { ShellProbes } from '../../../extension/src/core/run/shellProbes';

describe('ShellProbes', () => {
  it('asks one probe at a time; a failed one reads as "cannot tell"; the foreground job is kept', async () => {
    let asked = 0;
    let fail = false;
    const probes = new ShellProbes({
      probeShell: () => {
        asked++;
        return fail ? Promise.reject(new Error('EACCES')) : Promise.resolve<ShellActivity>({ foreground: 'job', foregroundCommand: 'vim a.txt', readingTerminal: true });
      },
      logger: silentLogger,
      label: 'run 1',
      wanted: () => true,
      onGone: () => assert.fail('not gone'),
    });
    const answers: ShellActivity[] = [];
    const answered = new Promise<void>((resolve) => probes.ask((a) => (answers.push(a), resolve())));
    probes.ask((a) => answers.push(a));
    assert.equal(probes.pending, true);
    await answered;
    assert.equal(asked, 1, 'the second ask while one was out asked nothing');
    assert.equal(probes.foregroundCommand, 'vim a.txt');
    fail = true;
    await new Promise<void>((resolve) => probes.ask((a) => (answers.push(a), resolve())));
    assert.deepEqual(answers.at(-1), { foreground: 'unknown', readingTerminal: 'unknown' });
    assert.equal(probes.foregroundCommand, undefined);
    probes.stop();
  });

  it('a shell that is gone gets no answer; the run hears it after the grace unless it ended meanwhile', async function () {
    this.timeout(5000);
    let wanted = true;
    let gone = 0;
    const make = () =>
      new ShellProbes({
        probeShell: () => Promise.resolve<ShellActivity>({ foreground: 'gone', readingTerminal: false }),
        logger: silentLogger,
        label: 'run 2',
        wanted: () => wanted,
        onGone: () => gone++,
      });
    const first = make();
    first.ask(() => assert.fail('no answer for a gone shell'));
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal(gone, 1);
    const second = make();
    second.ask(() => assert.fail('no answer for a gone shell'));
    await new Promise((r) => setTimeout(r, 10));
    wanted = false;
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal(gone, 1, 'not heard once the run no longer wanted it');
    first.stop();
    second.stop();
  });
});
