/**
 * Skips that say why, loudly: on stderr when mocha loads the suite, and in the test title the
 * report prints. Used where a suite needs what only some machines have (Linux /proc, ps).
 */

/** `describe` when `available`, else `describe.skip` that announces `why`. */
export function describeWhere(available: boolean, why: string): (title: string, fn: (this: Mocha.Suite) => void) => Mocha.Suite | void {
  if (available) return describe;
  return (title, fn) => {
    process.stderr.write(`\n!!! SKIPPING "${title}": ${why} !!!\n`);
    return describe.skip(`${title} [SKIPPED: ${why}]`, fn);
  };
}
