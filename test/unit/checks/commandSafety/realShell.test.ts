/**
 * The danger is real: lines of classes 1, 2, 4 and 5 of issue 24 run for real in bash (as a
 * terminal would hand them over) in a temp folder with HOME pointed at another temp folder, and do
 * what the check now says they do; the same lines, decided, ask. Ground truth is the disk.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildRules, EMPTY_RULES } from '../../../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine } from '../../../../extension/src/core/checks/commandSafety/decide';
import { inProcessParser } from '../../../../extension/src/core/checks/commandSafety/lineParser';
import { grammars } from '../../../support/packageGrammars';
import { TempDirs } from '../../../support/tempDirs';
import { defaultSafetySettings } from './fixtures';

describe('command safety: the misread spellings do harm in a real bash, and now ask', function () {
  this.timeout(30_000);
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  /** A workspace with a victim file, a folder outside it, and a home of its own. */
  function sandbox(): { ws: string; outside: string; home: string } {
    const root = dirs.make('real-shell-');
    const ws = path.join(root, 'ws');
    const outside = path.join(root, 'outside');
    const home = path.join(root, 'home');
    for (const dir of [ws, outside, home]) mkdirSync(dir);
    writeFileSync(path.join(ws, 'victim.txt'), 'keep\n');
    writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ scripts: { test: 'echo tested' } }));
    return { ws, outside, home };
  }
  /** Interactive bash reads the line from stdin as a terminal hands it over (history expansion on). */
  const bash = (line: string, cwd: string, home: string): void => {
    execFileSync('bash', ['--norc', '--noprofile', '-i'], { cwd, input: `set -o histexpand\n${line}\n`, env: { PATH: process.env.PATH, HOME: home, PS1: '' }, stdio: ['pipe', 'ignore', 'ignore'], timeout: 10_000 });
  };
  async function decided(line: string, ws: string, home: string): Promise<string> {
    const settings = defaultSafetySettings(ws);
    const d = await decideLine({ line, powershell: false, cwd: ws }, { parser: inProcessParser(await grammars.load()), settings, rules: buildRules({}, false), session: { rules: EMPTY_RULES, allowAll: false }, home });
    return d.approved ? 'run' : d.floor ? 'floor' : 'ask';
  }

  const cases: { cls: number; line: (s: { ws: string; outside: string }) => string; harm: (s: { ws: string; outside: string; home: string }) => boolean }[] = [
    { cls: 1, line: () => 'echo ok\rrm victim.txt', harm: ({ ws }) => !existsSync(path.join(ws, 'victim.txt')) },
    { cls: 2, line: ({ outside }) => `cd ${outside} && echo pwned > note.txt`, harm: ({ outside }) => existsSync(path.join(outside, 'note.txt')) },
    { cls: 2, line: ({ outside }) => `echo pwned > ''${outside}/quoted.txt`, harm: ({ outside }) => existsSync(path.join(outside, 'quoted.txt')) },
    { cls: 4, line: () => "sed -n '1e rm victim.txt' package.json", harm: ({ ws }) => !existsSync(path.join(ws, 'victim.txt')) },
    { cls: 4, line: ({ outside }) => `sed "s/x/y/w ${outside}/w.txt" package.json`, harm: ({ outside }) => existsSync(path.join(outside, 'w.txt')) },
    { cls: 5, line: () => 'echo \'{"scripts":{"test":"rm victim.txt"}}\' > package.json && npm test', harm: ({ ws }) => !existsSync(path.join(ws, 'victim.txt')) },
    // The grammar sees one echo; history expansion removes both quotes of word 1 and eats the modifier's own: `rm` runs.
    { cls: 5, line: () => 'echo "a" !#:1:gs/"// ; rm victim.txt ; # "', harm: ({ ws }) => !existsSync(path.join(ws, 'victim.txt')) },
  ];
  for (const c of cases) {
    const shown = c.line({ ws: '<ws>', outside: '<outside>' }).replace('\r', '\\r');
    it(`class ${c.cls}: ${shown}`, async () => {
      const s = sandbox();
      const line = c.line(s);
      assert.equal(await decided(line, s.ws, s.home), c.cls === 1 ? 'floor' : 'ask');
      bash(line, s.ws, s.home);
      assert.ok(c.harm(s), 'bash did the harm the check now asks about');
    });
  }
});
