/**
 * Watchers' cycle ends and summaries on output recorded from the real tools (test/fixtures/
 * watchers/: vitest 4, jest 30 (also with CI set), webpack 5, rollup 4, vite 7 build --watch, nodemon 3, node 20
 * --watch, rendered as the terminal shows them; tsc 5 from fixtures/servers/), and on lines quoted
 * from the sources of tools these machines cannot install (cargo-watch, Karma for ng test).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countsIn, findCycleEnd } from '../../../extension/src/core/run/watchOutput';
import { findReadyLine, isShortcutHint } from '../../../extension/src/core/servers/serverOutput';

const fixture = (folder: string, name: string): string[] => readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', folder, name), 'utf8').split('\n');
const recorded = (name: string): string[] => fixture('watchers', name);

describe('watchers: cycle ends and summaries', () => {
  it('vitest, a failing test: its cycle, the test counts (not the file counts) and both summary lines', () => {
    const end = findCycleEnd('npx vitest', recorded('vitest-4-fail.txt'));
    assert.equal(end?.watcher.tool, 'vitest');
    assert.deepEqual(end?.summary, ['Test Files  1 failed | 1 passed (2)', 'Tests  1 failed | 3 passed (4)']);
    assert.deepEqual([end?.passed, end?.failed], [3, 1]);
    assert.equal(end?.watcher.stop?.text, 'q');
  });

  it('vitest, all passing: the final counts, not the progress lines printed while it ran', () => {
    const end = findCycleEnd('npx vitest', recorded('vitest-4-pass.txt'));
    assert.deepEqual(end?.summary, ['Test Files  2 passed (2)', 'Tests  4 passed (4)']);
    assert.deepEqual([end?.passed, end?.failed], [4, undefined]);
  });

  it('vitest, a re-run after an edit: the counts of that cycle', () => {
    const end = findCycleEnd('npx vitest', recorded('vitest-4-rerun.txt'));
    assert.deepEqual([end?.passed, end?.failed], [1, 1]);
    assert.deepEqual(end?.summary, ['Test Files  1 failed (1)', 'Tests  1 failed | 1 passed (2)']);
  });

  it('jest --watch: its usage block ends a cycle; jest --watchAll after an edit: the short usage line', () => {
    const first = findCycleEnd('npx jest --watch', recorded('jest-30-watch.txt'));
    assert.equal(first?.watcher.tool, 'jest');
    assert.deepEqual(first?.summary, ['Test Suites: 1 failed, 1 passed, 2 total', 'Tests:       1 failed, 3 passed, 4 total']);
    assert.deepEqual([first?.passed, first?.failed], [3, 1]);
    const rerun = findCycleEnd('npx jest --watchAll', recorded('jest-30-watchall-rerun.txt'));
    assert.deepEqual([rerun?.passed, rerun?.failed], [4, undefined]);
    // jest reads keys once idle: its last line is a shortcut hint, never a question.
    assert.equal(isShortcutHint(' › Press Enter to trigger a test run.'), true);
    assert.equal(isShortcutHint('Watch Usage: Press w to show more.'), true);
    assert.equal(isShortcutHint('Press Enter to continue.'), false);
  });

  it('jest --watch with CI set (no usage block): its last summary line ends a cycle, only for a command line that watches', () => {
    const lines = recorded('jest-30-watch-ci.txt');
    const end = findCycleEnd('npx jest --watch', lines);
    assert.equal(end?.watcher.tool, 'jest');
    assert.deepEqual([end?.passed, end?.failed], [3, 1]);
    assert.equal(end?.watcher.stop?.text, 'q', 'it still reads keys');
    assert.equal(findCycleEnd('npx jest --watchAll=true', lines)?.watcher.tool, 'jest');
    assert.equal(findCycleEnd('npx jest', lines), undefined, 'a one-shot run prints the same line, then exits');
    assert.equal(findCycleEnd('npx jest --watch', [...lines, 'Determining test suites to run...']), undefined, 'the next cycle has begun');
  });

  it('tsc --watch: its line ends a cycle with the error count; a new compilation after it is a new cycle, not this one', () => {
    const lines = fixture('servers', 'tsc-5-watch.txt');
    const end = findCycleEnd('npx tsc -w', lines);
    assert.equal(end?.watcher.tool, 'tsc --watch');
    assert.equal(end?.errors, 0);
    assert.equal(findCycleEnd('npx tsc -w', [...lines, '[4:01:00 PM] File change detected. Starting incremental compilation...']), undefined);
  });

  it('webpack and vite build end cycles only in watch mode (a one-shot build prints the same line and exits)', () => {
    const webpack = recorded('webpack-5-watch.txt');
    assert.equal(findCycleEnd('npx webpack --watch --mode development', webpack)?.watcher.tool, 'webpack --watch');
    assert.equal(findCycleEnd('npx webpack --mode production', webpack), undefined);
    const vite = recorded('vite-7-build-watch.txt');
    const end = findCycleEnd('npx vite build --watch', vite);
    assert.equal(end?.watcher.tool, 'vite build --watch');
    assert.deepEqual(end?.summary, ['✓ 1 modules transformed.', 'built in 46ms.']);
    assert.equal(findCycleEnd('npx vite build', vite), undefined);
  });

  it('rollup --watch, nodemon and node --watch', () => {
    assert.deepEqual(findCycleEnd('npx rollup -c --watch', recorded('rollup-4-watch.txt'))?.summary, ['created dist/bundle.js in 26ms']);
    const nodemon = findCycleEnd('npx nodemon app.js', recorded('nodemon-3.txt'));
    assert.equal(nodemon?.watcher.tool, 'nodemon');
    assert.deepEqual(nodemon?.summary, ['[nodemon] clean exit - waiting for changes before restart']);
    assert.equal(nodemon?.watcher.rerun?.text, 'rs');
    assert.equal(findCycleEnd('node --watch app2.js', recorded('node-20-watch.txt'))?.watcher.tool, 'node --watch');
    assert.equal(findCycleEnd('node app2.js', recorded('node-20-watch.txt')), undefined);
    // nodemon restarting: the banner before it belongs to the last cycle.
    assert.equal(findCycleEnd('nodemon app.js', ['[nodemon] clean exit - waiting for changes before restart', '[nodemon] restarting due to changes...']), undefined);
  });

  it('cargo watch and ng test (Karma), on lines quoted from their sources', () => {
    const cargo = findCycleEnd('cargo watch -x test', [
      "[Running 'cargo test']",
      'running 4 tests',
      'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '[Finished running. Exit status: 101]',
    ]);
    assert.deepEqual([cargo?.watcher.tool, cargo?.passed, cargo?.failed, cargo?.skipped], ['cargo watch', 3, 1, 0]);
    const karma = ['Chrome Headless 120.0.0.0 (Linux x86_64): Executed 5 of 5 (1 FAILED) (0.021 secs / 0.015 secs)'];
    const ng = findCycleEnd('npx ng test', karma);
    assert.deepEqual([ng?.watcher.tool, ng?.passed, ng?.failed], ['ng test (Karma)', 4, 1]);
    assert.equal(findCycleEnd('npx ng test --watch=false', karma), undefined);
  });

  it('ordinary output is no cycle end, and a banner far from the end does not count', () => {
    assert.equal(findCycleEnd('npm run build', ['> build', '> tsc -p .', 'Done in 4.2s']), undefined);
    assert.equal(findCycleEnd('npx vitest', [' PASS  Waiting for file changes...', ...Array.from({ length: 5 }, (_, i) => `log line ${i}`)]), undefined);
  });

  it('counts from the usual summary wordings', () => {
    assert.deepEqual(countsIn('Tests  1 failed | 3 passed | 2 skipped (6)'), { failed: 1, passed: 3, skipped: 2 });
    assert.deepEqual(countsIn('webpack 5.90.0 compiled with 1 error and 2 warnings in 320 ms'), { errors: 1, warnings: 2 });
    assert.deepEqual(countsIn('[4:00:10 PM] Found 2 errors. Watching for file changes.'), { errors: 2 });
  });

  it('the watchers\' banners are ready lines too (waitMode "ready" on a watcher without a port), with their command-line guards', () => {
    assert.equal(findReadyLine(recorded('vitest-4-pass.txt').join('\n'), undefined, 'npx vitest')?.tool, 'vitest');
    assert.equal(findReadyLine(recorded('jest-30-watch.txt').join('\n'), undefined, 'npx jest --watch')?.kind, 'watcher');
    // A banner one-shot runs print too is a ready line only for a command line that watches.
    const ci = recorded('jest-30-watch-ci.txt').join('\n');
    assert.equal(findReadyLine(ci, undefined, 'npx jest --watch')?.line, 'Ran all test suites related to changed files.');
    assert.equal(findReadyLine(ci, undefined, 'npx jest'), undefined);
    const webpack = recorded('webpack-5-watch.txt').join('\n');
    assert.equal(findReadyLine(webpack, undefined, 'npx webpack --watch')?.tool, 'webpack --watch');
    assert.equal(findReadyLine(webpack, undefined, 'npx webpack --mode production'), undefined);
  });
});
