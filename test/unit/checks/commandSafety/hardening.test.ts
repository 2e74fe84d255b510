/**
 * Issue 24: the line is decided on what the shell will run. The hardening corpus
 * (test/fixtures/safety/hardeningCorpus.ts, each line with its source) through the decision under
 * VS Code 1.139's defaults: no dangerous line runs unasked, benign lines of the same shapes still
 * run; then each class's reading in detail (where writes land, the output-option table, sed, code
 * through approved commands, the bounds), and the person's own whole-line approval.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildRules, EMPTY_RULES } from '../../../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine, type SafetyDecision, type SafetySettings } from '../../../../extension/src/core/checks/commandSafety/decide';
import { inProcessParser } from '../../../../extension/src/core/checks/commandSafety/lineParser';
import { OUTPUT_OPTIONS, outputWrites } from '../../../../extension/src/core/checks/commandSafety/outputOptions';
import { readSed, scriptDanger } from '../../../../extension/src/core/checks/commandSafety/sedScript';
import type { LoadedGrammars } from '../../../../extension/src/core/checks/commandSafety/shellGrammars';
import { parseCommandLine } from '../../../../extension/src/core/checks/commandSafety/shellSyntax';
import { HARDENING_CORPUS } from '../../../fixtures/safety/hardeningCorpus';
import { grammars } from '../../../support/packageGrammars';
import { TempDirs } from '../../../support/tempDirs';
import { HOME, defaultSafetySettings } from './fixtures';

describe('command safety: hardened against the spellings it misread (issue 24)', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  let loaded: LoadedGrammars;
  let workspace: string;

  before(async () => {
    loaded = await grammars.load();
    workspace = dirs.make('hardening-ws-');
    writeFileSync(`${workspace}/package.json`, JSON.stringify({ scripts: { build: 'tsc', test: 'mocha', dev: 'vite', lint: 'eslint .' } }));
  });
  after(() => dirs.cleanup());

  async function decide(line: string, options: { shell?: string; settings?: Partial<SafetySettings>; cwd?: string | null } = {}): Promise<SafetyDecision> {
    const settings = { ...defaultSafetySettings(workspace), ...options.settings };
    return decideLine(
      { line: line.replaceAll('/ws', workspace), powershell: options.shell === 'pwsh', cwd: options.cwd === null ? undefined : (options.cwd ?? workspace) },
      { parser: inProcessParser(loaded), settings, rules: buildRules(settings.autoApprove, settings.ignoreDefaultAutoApproveRules), session: { rules: EMPTY_RULES, allowAll: false }, home: HOME },
    );
  }
  const verdict = (d: SafetyDecision): string => (d.approved ? 'run' : d.floor ? 'floor' : 'ask');

  describe('the corpus', () => {
    const counts = new Map<string, number>();
    after(() => {
      const byClass = [...counts].map(([k, v]) => `${k} ${v}`).join(', ');
      console.log(`      hardening corpus: ${HARDENING_CORPUS.length} lines (${byClass}); dangerous ${HARDENING_CORPUS.filter((e) => e.cls > 0).length}`);
    });
    for (const entry of HARDENING_CORPUS) {
      const shown = JSON.stringify(entry.line).slice(1, -1);
      it(`class ${entry.cls} ${entry.shell} [${entry.source}] ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} → ${entry.expected}`, async () => {
        counts.set(`class ${entry.cls}`, (counts.get(`class ${entry.cls}`) ?? 0) + 1);
        const decision = await decide(entry.line, { shell: entry.shell });
        if (entry.cls > 0) assert.notEqual(verdict(decision), 'run', `a dangerous line ran unasked: ${decision.reason}`);
        assert.equal(verdict(decision), entry.expected, decision.reason);
      });
    }
    it('holds every class in every shell it applies to, and no line twice', () => {
      for (const cls of [1, 2, 3, 4, 5]) for (const shell of ['bash', 'zsh', 'fish', 'sh']) assert.ok(HARDENING_CORPUS.some((e) => e.cls === cls && e.shell === shell), `${cls} ${shell}`);
      for (const cls of [1, 2, 5, 6]) assert.ok(HARDENING_CORPUS.some((e) => e.cls === cls && e.shell === 'pwsh'), `${cls} pwsh`);
      const keys = HARDENING_CORPUS.map((e) => `${e.shell}\u0000${e.line}`);
      assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), []);
    });
  });

  describe('1. bytes a terminal acts on', () => {
    it('a carriage return, NUL, Ctrl-U, escape or C1 control is on the floor under every setting; tab and newline are not', async () => {
      for (const settings of [{}, { perCommandCheck: false }, { globalAutoApprove: true }, { autoApprove: { defaultValue: {}, userValue: { '/.*/': true } } }]) {
        assert.equal(verdict(await decide('echo ok\rrm -rf dir', { settings })), 'floor');
        assert.equal(verdict(await decide('tr\u0000uncate -s 0 x', { settings })), 'floor');
      }
      assert.match((await decide('echo ok\rrm x')).reason, /U\+000D \(carriage return\)/);
      assert.equal(verdict(await decide('echo\ta')), 'run');
    });
  });

  describe('2. writes resolved like the shell', () => {
    const writesOf = async (line: string): Promise<string> => (await decide(line)).reason;
    it('follows cd/pushd/Set-Location through the line, also in a subshell and a -c string', async () => {
      assert.match(await writesOf('cd /etc && echo x > motd'), /\/etc\/motd`, outside the workspace/);
      assert.match(await writesOf('(cd /etc && echo x > motd)'), /\/etc\/motd/);
      assert.match(await writesOf('bash -c "cd /etc; echo x > motd"'), /\/etc\/motd/);
      assert.match((await decide('Set-Location /etc; Get-Date > motd', { shell: 'pwsh' })).reason, /\/etc\/motd/);
      assert.equal(verdict(await decide('cd src && echo x > out.txt')), 'run');
      assert.equal(verdict(await decide('echo x > out.txt; cd /etc')), 'run', 'a cd after the write does not move it');
    });
    it('resolves quotes, escapes and ANSI-C strings; expansions, ~ and unknown directories ask', async () => {
      for (const line of ["echo x > ''/etc/motd", 'echo x > "/et"c/motd', 'echo x > \\/etc/motd', "echo x > $'\\x2fetc/motd'", "echo x > $'\\057etc/motd'"]) {
        assert.match(await writesOf(line), /`\/etc\/motd`, outside the workspace/, line);
      }
      for (const line of ['echo x > $OUT', 'echo x > $(echo a)', 'echo x > ~root/x', 'echo x > $HOME/../x', 'echo x > `pwd`/x']) assert.match(await writesOf(line), /a variable, a sub-command or ~ decides/, line);
      assert.match((await decide('cd $DIR && echo x > y')).reason, /not known/);
      assert.match(await writesOf('echo x >! /etc/motd'), /\/etc\/motd/, "zsh's >!");
      assert.equal(verdict(await decide('ls 2>&1 | head')), 'run', 'a descriptor is not a file');
    });
  });

  describe('3. output options are writes', () => {
    it('the table: each program, each spelling', () => {
      const word = (value: string): { raw: string; value: string } => ({ raw: value, value });
      const written = (line: string): string[] => outputWrites(line.split(' ').map(word)).map((w) => w.value ?? `unplaced:${w.raw}`);
      const cases: [string, string[]][] = [
        ['find . -fprint a', ['a']], ['find . -fprint0 a', ['a']], ['find . -fprintf a %p', ['a']], ['find . -fls a', ['a']], ['find . -print0', []],
        ['sort -o a f', ['a']], ['sort -oa f', ['a']], ['sort -uo a f', ['a']], ['sort --output=a f', ['a']], ['sort --o a f', ['a']], ['sort -u f', []],
        ['git log --output=a', ['a']], ['git show --output a', ['a']], ['git diff --out=a', ['a']], ['git --no-pager diff --output=a', ['a']], ['git diff --output-indicator-new=x', []],
        ['tree -o a', ['a']], ['tree -R -H . x', ['unplaced:-R']], ['tree -L 2', []],
        ['docker compose config -o a', ['a']], ['docker compose config --output=a', ['a']], ['docker compose ps', []],
        ['file -C -m magic', ['unplaced:-C']], ['file x', []],
      ];
      for (const [line, expected] of cases) assert.deepEqual(written(line), expected, line);
      assert.deepEqual([...new Set(OUTPUT_OPTIONS.map((r) => r.program))], ['find', 'sort', 'git', 'tree', 'docker', 'file']);
    });
  });

  describe('4. sed as GNU and BSD sed read it', () => {
    it('e, r, R, w, W commands and s///e, s///w flags, any delimiter or address; plain scripts pass', () => {
      for (const script of ['e id', '1e id', '$!e id', 's/a/b/e', 's|a|b|ge', 's/a/b/w x', 's/a/b/;e id', 's/a/b/\nW x', '/x/,+2r /etc/shadow', '1{e id\n}', '0~1R x', 's/a\\/b/c/e']) assert.ok(scriptDanger(script), script);
      for (const script of ['s/a/b/g', '1,10p', '/x/d', 's/e/w/', 's|w|e|gI', '$a\\\nend', 'y/ew/we/', ':a;N;$!ba;s/\\n/ /g', '1!G;h;$!d']) assert.equal(scriptDanger(script), undefined, script);
    });
    it('-i in every spelling rewrites every file operand; options from expansions and backups elsewhere ask', () => {
      const words = (line: string): { raw: string; value: string | undefined }[] => line.split(' ').map((w) => ({ raw: w, value: w.startsWith('$') ? undefined : w }));
      const files = (line: string): string[] => readSed(words(line)).inPlace.map((w) => w.raw);
      assert.deepEqual(files('-i s/a/b/ f g'), ['f', 'g']);
      assert.deepEqual(files('-ni s/a/b/ f'), ['f']);
      assert.deepEqual(files('--in-pl s/a/b/ f'), ['f']);
      assert.deepEqual(files('-e s/a/b/ -i f'), ['f']);
      assert.deepEqual(files('s/a/b/ -inside.txt'), [], 'the file is read as -i with a suffix, and the script is the only operand');
      assert.ok(readSed(words('s/a/b/ -inside.txt')).inPlace.length === 0 && files('-i.bak s/a/b/ f').length === 1);
      assert.ok(readSed(words('$OPTS s/a/b/ f')).danger);
      assert.ok(readSed(words("-i'../x/*' s/a/b/ f")).danger);
      assert.ok(readSed(words('--fi x.sed f')).danger);
      assert.ok(readSed(words('--expr=e f')).danger);
    });
  });

  describe('5. no code through an approved command', () => {
    it('asks for prompt and history expansion in bash and zsh, not for a ! that expands nothing', async () => {
      for (const line of ['echo ${x@P}', 'echo !#', 'echo !!', '^ls^rm']) assert.equal(verdict(await decide(line)), 'ask', line);
      for (const line of ['echo "done!"', "echo '!!'", 'echo $!', 'echo ${!x}', 'ls !(x)']) assert.doesNotMatch((await decide(line)).reason, /history/, line);
    });
    it('a file written and then run in the same line asks; the write alone does not', async () => {
      assert.match((await decide('echo "rm -rf x" > run.sh && ./run.sh')).reason, /then runs `\.\/run\.sh`/);
      assert.match((await decide('echo {} > package.json; npm test')).reason, /then runs `npm test`/);
      assert.equal(verdict(await decide('npm test > out.txt')), 'run');
    });
    it('git into folders outside the workspace, external diff programs and branch rewrites ask', async () => {
      assert.match((await decide('git -C /tmp status')).reason, /outside the workspace/);
      assert.equal(verdict(await decide('git -C src status')), 'run');
      for (const line of ['git branch -f main x', 'git branch -qD main', 'git branch --del main', 'git diff --ext-diff', 'git log --textconv']) assert.equal(verdict(await decide(line)), 'ask', line);
    });
  });

  describe('6. bounded', () => {
    it('a megabyte line and 10,000 nested parentheses ask unread, whatever the settings', async () => {
      for (const line of [`echo ${'a'.repeat(1_000_000)}`, `${'('.repeat(10_000)}ls${')'.repeat(10_000)}`, `${'$('.repeat(200)}ls${')'.repeat(200)}`]) {
        const decision = await decide(line, { settings: { perCommandCheck: false } });
        assert.equal(verdict(decision), 'ask');
        assert.match(decision.reason, /unread/);
      }
    });
    it('a parse past its deadline throws (the check then asks, fail closed)', () => {
      assert.throws(() => parseCommandLine(loaded, 'bash', 'ls && '.repeat(1000), performance.now() - 1), /longer than the bound/);
    });
  });

  describe("the person's word", () => {
    const everything = { autoApprove: { userValue: { '/.*/': true } } };
    it('an explicit whole-line approval overrides the stricter readings, never VS Code\'s denials or the floor', async () => {
      assert.equal(verdict(await decide('git branch -qD main', { settings: everything })), 'run');
      assert.equal(verdict(await decide("sed 's/a/b/e' f", { settings: everything })), 'ask', "VS Code's own sed rule denies it");
      assert.equal(verdict(await decide('echo !!', { settings: everything })), 'run');
      assert.equal(verdict(await decide('rm -rf x', { settings: everything })), 'ask', "VS Code's default deny rule");
      assert.equal(verdict(await decide('rm -rf /', { settings: everything })), 'floor');
      const line = { autoApprove: { userValue: { '/^git branch -qD main$/': { approve: true, matchCommandLine: true } } } };
      assert.equal(verdict(await decide('git branch -qD main', { settings: line })), 'run');
      assert.equal(verdict(await decide('git branch -qD main')), 'ask', "VS Code's default git rule is no whole-line approval");
    });
  });
});
