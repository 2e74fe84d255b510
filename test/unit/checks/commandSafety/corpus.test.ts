/**
 * The corpus (corpus.ts) through the decision as the extension makes it: the real grammars,
 * VS Code 1.139's default rules and settings, a real workspace folder with a package.json. Every
 * line gets its expected decision; no dangerous line runs unasked; the totals are printed.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildRules, EMPTY_RULES } from '../../../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine } from '../../../../extension/src/core/checks/commandSafety/decide';
import { inProcessParser } from '../../../../extension/src/core/checks/commandSafety/lineParser';
import type { LoadedGrammars } from '../../../../extension/src/core/checks/commandSafety/shellGrammars';
import { TempDirs } from '../../../support/tempDirs';
import { grammars } from '../../../support/packageGrammars';
import { CORPUS, type Expected } from './corpus';
import { HOME, defaultSafetySettings } from './fixtures';

describe('command safety: the corpus', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  let loaded: LoadedGrammars;
  let workspace: string;
  const decided: { expected: Expected; got: Expected; dangerous: boolean; stricter: boolean; shell: string }[] = [];

  before(async () => {
    loaded = await grammars.load();
    workspace = dirs.make('corpus-ws-');
    writeFileSync(`${workspace}/package.json`, JSON.stringify({ scripts: { build: 'tsc', test: 'mocha', dev: 'vite', lint: 'eslint .' } }));
  });
  after(() => {
    dirs.cleanup();
    const count = (f: (d: (typeof decided)[number]) => boolean): number => decided.filter(f).length;
    const shells = [...new Set(decided.map((d) => d.shell))].map((s) => `${s} ${count((d) => d.shell === s)}`).join(', ');
    console.log(
      `      corpus: ${decided.length} lines (${shells}); run ${count((d) => d.got === 'run')}, ask ${count((d) => d.got === 'ask')}, floor ${count((d) => d.got === 'floor')}; ` +
        `as expected ${count((d) => d.got === d.expected)}; dangerous ${count((d) => d.dangerous)}, of them run unasked ${count((d) => d.dangerous && d.got === 'run')}; stricter than VS Code ${count((d) => d.stricter)}`,
    );
  });

  const rules = buildRules({}, false);
  for (const entry of CORPUS) {
    const title = `${entry.shell} [${entry.source}] ${entry.line.length > 90 ? `${entry.line.slice(0, 87)}...` : entry.line} → ${entry.expected}`.replaceAll('\n', '\\n');
    it(title, async () => {
      const line = entry.line.replaceAll('/ws', workspace);
      const decision = await decideLine(
        { line, powershell: entry.shell === 'pwsh', cwd: workspace },
        { parser: inProcessParser(loaded), settings: defaultSafetySettings(workspace), rules, session: { rules: EMPTY_RULES, allowAll: false }, home: HOME },
      );
      const got: Expected = decision.approved ? 'run' : decision.floor ? 'floor' : 'ask';
      decided.push({ expected: entry.expected, got, dangerous: entry.dangerous, stricter: entry.stricter, shell: entry.shell });
      if (entry.dangerous) assert.notEqual(got, 'run', `a dangerous line ran unasked: ${decision.reason}`);
      assert.equal(got, entry.expected, decision.reason);
    });
  }

  it('holds at least 300 lines in every shell, every source, and no line twice', () => {
    assert.ok(CORPUS.length >= 300, `${CORPUS.length} lines`);
    for (const shell of ['bash', 'zsh', 'fish', 'sh', 'pwsh']) assert.ok(CORPUS.some((e) => e.shell === shell), shell);
    const keys = CORPUS.map((e) => `${e.shell}\u0000${e.line}`);
    assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), []);
  });
});
