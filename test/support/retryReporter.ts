/**
 * The e2e suite's reporter: mocha's spec report, plus a line for each retry. The suite is retried
 * once (test/e2e/.mocharc.json): a real VS Code on a busy machine can drop a click or a chat's first
 * turn. The first attempt's error is printed (`[retrying]`), and a test that passed only on its retry
 * is printed again (`[retried]`); the test runner repeats those lines in its summary, so a flaky
 * test is seen and fixed, never hidden.
 */
import Mocha from 'mocha';

const { EVENT_TEST_PASS, EVENT_TEST_RETRY } = Mocha.Runner.constants;

export default class RetryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.on(EVENT_TEST_RETRY, (test: Mocha.Test, error: Error & { actual?: unknown; expected?: unknown }) => {
      const values = error && 'actual' in error ? ` (actual ${short(error.actual)}, expected ${short(error.expected)})` : '';
      console.log(`      [retrying] ${test.fullTitle()}\n      [first attempt] ${String(error?.message ?? error).split('\n')[0]}${values}`);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      // currentRetry() is public at run time; @types/mocha marks it protected.
      if ((test as unknown as { currentRetry(): number }).currentRetry() > 0) console.log(`      [retried] ${test.fullTitle()}`);
    });
  }
}

/** A value on one line, at most 300 characters. */
function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
