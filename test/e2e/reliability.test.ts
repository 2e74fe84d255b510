// The reliability suite's short form (npm run soak runs the same code at full size): hostile
// input, load, faults and isolation against the real chain, every goal asserted, the table printed.
// TS_SOAK_SEED=<n> replays a seed; otherwise a fresh one is drawn and printed.
import assert from 'node:assert/strict';
import { newSeed } from '../soak/random';
import { SCALES, runSoak } from '../soak/soak';

describe('reliability: the short form of npm run soak (hostile input, load, faults, isolation)', function () {
  this.timeout(900_000);

  it('loses nothing: every call answered, clearly; no crash, hang or foreign kill; nothing served without the token', async () => {
    const seed = Number(process.env.TS_SOAK_SEED) || newSeed();
    const result = await runSoak({ seed, scale: SCALES.short, log: (line) => console.log(`      ${line}`) });
    console.log(`\n${result.header}\n\n${result.table}\n`);
    const failed = result.checks.filter((c) => !c.met);
    assert.deepEqual(
      failed.map((c) => `${c.name}: lost ${c.lost}; ${c.figures}`),
      [],
      `replay with TS_SOAK_SEED=${seed} (or npm run soak -- --short --seed ${seed})`,
    );
  });
});
