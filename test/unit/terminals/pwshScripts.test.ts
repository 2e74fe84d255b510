/**
 * Terminal Shepherd's PowerShell scripts (shell/pwsh.ps1, pwshCommon.ps1, pwshUtf8.ps1), read
 * with a real PowerShell grammar: nothing in what a ConstrainedLanguage session runs (the hook and
 * the exit-code ladder) is a method call or a type literal other than [char]; the .NET-typed UTF-8
 * setup is loaded only in FullLanguage; and the names the TypeScript side types or reads are the
 * ones the scripts define and write. PowerShell itself cannot be installed here: the scripts run
 * in real PowerShell on the CI runners (test/desktop, docs/shells.md "Proven where").
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT_CODE_PROPERTY, EXIT_SOURCE_PROPERTY, SCREEN_PROPERTY } from '../../../extension/src/core/output/shellMarkers';
import { PWSH_COMMON_VARIABLE, pwshReportingFileText } from '../../../extension/src/core/terminals/commandText';
import { shepherdCommandLines } from '../../../extension/src/core/terminals/strategies/shepherdStrategy';
import { vscodeCommandLines } from '../../../extension/src/core/terminals/strategies/vscodeStrategy';
import { constrainedLanguageViolations, dotSourceConditions } from '../../support/powershellSyntax';
import { SHELL_SCRIPTS } from './fakeTerminalHost';

const script = (name: string): string => readFileSync(path.join(SHELL_SCRIPTS, name), 'utf8');
/** The only type literal the scripts need: [char] for ESC and BEL, a core type (allowed in ConstrainedLanguage). */
const ALLOWED_TYPES = ['char'];

describe("PowerShell scripts, parsed (ConstrainedLanguage: no method calls, no type literals but core ones)", function () {
  this.timeout(20_000);

  for (const name of ['pwsh.ps1', 'pwshCommon.ps1']) {
    it(`${name}: parses cleanly, with no method call and no type literal but [char]`, async () => {
      assert.deepEqual(await constrainedLanguageViolations(script(name), ALLOWED_TYPES), []);
    });
  }

  it('the command files Terminal Shepherd writes add none either', async () => {
    assert.deepEqual(await constrainedLanguageViolations(pwshReportingFileText('git status'), ALLOWED_TYPES), []);
    assert.deepEqual(await constrainedLanguageViolations(vscodeCommandLines.fileText!('pwsh', 'git status'), ALLOWED_TYPES), []);
    assert.deepEqual(await constrainedLanguageViolations(shepherdCommandLines.sourceLine('pwsh', 'c-1.ps1'), ALLOWED_TYPES), []);
  });

  it('pwshUtf8.ps1 needs .NET types, and is dot-sourced only under a FullLanguage check', async () => {
    const violations = await constrainedLanguageViolations(script('pwshUtf8.ps1'), ALLOWED_TYPES);
    assert.deepEqual(
      violations.map((v) => [v.kind, v.text]),
      [
        ['method call', '[System.Text.UTF8Encoding]::new($false)'],
        ['type literal', '[System.Text.UTF8Encoding]'],
        ['type literal', '[Console]'],
      ],
    );
    assert.deepEqual(await dotSourceConditions(script('pwshCommon.ps1'), 'pwshUtf8.ps1'), ["$ExecutionContext.SessionState.LanguageMode -eq 'FullLanguage'"]);
    assert.equal(script('pwsh.ps1').includes('pwshUtf8.ps1'), false, 'only pwshCommon.ps1 loads it');
  });

  describe('the check catches what ConstrainedLanguage refuses', () => {
    // The constructs shell integrations use (VS Code's own shellIntegration.ps1 calls its saved
    // prompt with .Invoke() and writes with [Console]::Write, which is why it turns itself off
    // outside FullLanguage), each in a line of its own.
    const cases: ReadonlyArray<[string, string, string]> = [
      ['a saved prompt called as a method', '$Global:__State.OriginalPrompt.Invoke()', 'method call'],
      ['a static .NET method', '[Console]::Write("$([char]0x1b)]633;A`a")', 'method call'],
      ['a method of a string', '$line = "a;b".Replace(";", "\\x3b")', 'method call'],
      ['a .NET type other than a core one', '$enc = [System.Text.Encoding]::UTF8', 'type literal'],
      ['a cast to a type not allowed', '$n = [int]$value', 'type literal'],
      ['a script that does not parse', 'function f {', 'parse error'],
    ];
    for (const [what, line, kind] of cases) {
      it(what, async () => {
        const found = await constrainedLanguageViolations(`$ok = $true\n${line}\n`, ALLOWED_TYPES);
        assert.ok(
          found.some((v) => v.kind === kind && v.line === 2),
          `expected a ${kind} on line 2, got ${JSON.stringify(found)}`,
        );
      });
    }
    it('and passes what it allows: cmdlets, operators, variables, properties, [char], & on a script block', async () => {
      const allowed = '$e = [char]27\n$p = $executionContext.SessionState.Path.CurrentLocation.ProviderPath -replace "\\\\", "\\\\"\nWrite-Host -NoNewline "$e]633;C"\n& $global:__TshepUserPrompt\n';
      assert.deepEqual(await constrainedLanguageViolations(allowed, ALLOWED_TYPES), []);
    });
  });

  describe('the names both sides share', () => {
    it('the properties the run reads are the ones the ladder writes', () => {
      const common = script('pwshCommon.ps1');
      assert.match(common, new RegExp(`P;${EXIT_CODE_PROPERTY}=`));
      assert.match(common, new RegExp(`P;${EXIT_SOURCE_PROPERTY}=`));
      assert.match(common, new RegExp(`P;${SCREEN_PROPERTY}=`));
      for (const source of ['native', 'shell', 'inferred']) assert.match(common, new RegExp(`Source = '${source}'`));
    });
    it('the functions the typed lines and command files call are defined by the scripts', () => {
      const defined = [...(script('pwsh.ps1') + script('pwshCommon.ps1')).matchAll(/function global:(\w+)/g)].map((m) => m[1]);
      const lines = shepherdCommandLines.sourceLine('pwsh', 'c.ps1') + shepherdCommandLines.fileText!('pwsh', 'x') + vscodeCommandLines.sourceLine('pwsh', 'c.ps1') + vscodeCommandLines.fileText!('pwsh', 'x');
      const called = [...lines.matchAll(/(?<![$:])__Tshep\w+/g)].map((m) => m[0]); // functions, not $global: variables
      assert.ok(called.length >= 4);
      for (const name of called) assert.ok(defined.includes(name), `${name} is not defined by shell/pwsh*.ps1`);
      assert.match(pwshReportingFileText('x'), new RegExp(`^\\. \\$env:${PWSH_COMMON_VARIABLE}\\n`));
    });
    it('the end marker is in the prompt function, after $? and LASTEXITCODE are read first', () => {
      const prompt = /function global:prompt \{\n([\s\S]*?)\n\}/.exec(script('pwsh.ps1'))?.[1] ?? '';
      const statements = prompt.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
      assert.deepEqual(statements.slice(0, 2), ['$ok = $global:?', '$native = $global:LASTEXITCODE']);
      assert.match(prompt, /__TshepOsc "D;\$\(\$status\.Code\)"/);
    });
    it('PSReadLine predictions are turned off (where the option exists)', () => {
      assert.match(script('pwsh.ps1'), /try \{ Set-PSReadLineOption -PredictionSource None -ErrorAction Stop \} catch \{ \}/);
    });
  });
});
