/**
 * `npm run soak`: the reliability suite at full size; prints the table, exits 1 when a goal is not met.
 *   npm run soak                        full size, a fresh seed (printed)
 *   npm run soak -- --seed 12345        replay a seed
 *   npm run soak -- --short             the size npm test runs
 *   npm run soak -- --only hostile,faults   some parts: load, hostile, faults, isolation
 */
import { newSeed } from './random';
import { SCALES, runSoak } from './soak';

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

async function main(): Promise<void> {
  const seedArg = argument('seed') ?? process.env.TS_SOAK_SEED;
  const seed = seedArg ? Number(seedArg) : newSeed();
  if (!Number.isSafeInteger(seed) || seed <= 0) throw new Error(`--seed needs a positive integer, got ${seedArg}`);
  const scale = process.argv.includes('--short') ? SCALES.short : SCALES.full;
  const only = argument('only')?.split(',').filter(Boolean);
  const result = await runSoak({ seed, scale, log: (line) => console.log(line), ...(only ? { only } : {}) });
  console.log(`\n${result.header}\n\n${result.table}\n`);
  console.log(result.passed ? 'Every goal met.' : 'NOT every goal was met (rows marked NOT MET).');
  process.exitCode = result.passed ? 0 : 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
