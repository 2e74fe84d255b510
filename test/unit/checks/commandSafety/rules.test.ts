/**
 * Rule reading and matching with VS Code's semantics, on the cases VS Code's own tests document
 * (microsoft/vscode src/vs/workbench/contrib/terminalContrib/chatAgentTools/test/browser/
 * commandLineAutoApprover.test.ts): prefixes and word boundaries, paths with either separator,
 * regexes and flags, endless-loop and invalid regexes, PowerShell's case and `(`, matchCommandLine,
 * and the settings' scopes: `null` unsets, a later scope wins, ignoreDefaultAutoApproveRules.
 */
import assert from 'node:assert/strict';
import { buildRules, EMPTY_RULES, matchCommandLine, matchSubCommand, rulesFrom, type AutoApproveLayers } from '../../../../extension/src/core/checks/commandSafety/autoApproveRules';

/** The user's setting alone (no defaults), as VS Code's test sets it. */
const user = (entries: Record<string, unknown>): AutoApproveLayers => ({ defaultValue: {}, userValue: entries });
const approved = (layers: AutoApproveLayers, command: string, powershell = false): boolean => matchSubCommand(buildRules(layers, false), EMPTY_RULES, command, powershell).result === 'approved';
const lineApproved = (layers: AutoApproveLayers, line: string): boolean => matchCommandLine(buildRules(layers, false), EMPTY_RULES, line).result === 'approved';

/** [rules, command, approved?] from commandLineAutoApprover.test.ts, suite by suite. */
const SUB_COMMAND_CASES: [Record<string, unknown>, string, boolean][] = [
  [{ echo: true }, 'echo', true], [{ echo: true }, 'echo hello world', true], [{ echo: true }, 'ls', false], [{ echo: true }, 'echotest', false],
  [{ echo: true, ls: true, pwd: true }, 'ls -la', true], [{ echo: true, ls: true, pwd: true }, 'rm', false],
  [{ rm: false, del: false }, 'rm file.txt', false], [{ rm: false }, 'echo hello', false],
  [{ echo: true, rm: false }, 'echo hello', true], [{ echo: true, rm: false }, 'rm file.txt', false],
  [{ '/.*/': true }, 'echo hello', true], [{ '/^echo/': true, '/^ls/': true, pwd: true }, 'ls -la', true], [{ '/^echo/': true, '/^ls/': true, pwd: true }, 'rm file', false],
  [{ echo: true, rm: true, '/^rm\\s+/': false }, 'rm', true], [{ echo: true, rm: true, '/^rm\\s+/': false }, 'rm file.txt', false],
  [{ '/^(echo|ls|pwd)\\b/': true, '/^git (status|show\\b.*)$/': true, '/rm|del|kill/': false }, 'git show HEAD', true],
  [{ '/^(echo|ls|pwd)\\b/': true, '/^git (status|show\\b.*)$/': true, '/rm|del|kill/': false }, 'kill process', false],
  [{ '/^echo/i': true, '/rm|del/i': false }, 'ECHO hello', true], [{ '/^echo/i': true, '/rm|del/i': false }, 'DEL file', false],
  [{ '/^git\\s+/gim': true, '/dangerous/gim': false }, 'GIT status', true], [{ '/^git\\s+/gim': true, '/dangerous/gim': false }, 'DANGEROUS command', false],
  [{ '/^echo.*/s': true }, 'echo hello\nworld', true], [{ '/^echo/': true }, 'ECHO hello', false],
  [{}, 'echo hello', false], [{ echo: true }, '', false], [{ echo: true }, '   ', false], [{ echo: true }, 'echo   hello   world', true],
  [{ echo: true }, 'ECHO hello', false], [{ 'pwsh.exe -File D:\\foo.bar\\a-script.ps1': true }, 'pwsh.exe -File D:\\foo.bar\\a-script.ps1 -AnotherArg', true],
  [{ '': true }, 'echo hello', false], [{ '//': true, '/(?:)/': true, '/*/': true, '/.**/': true }, 'echo hello', false],
  [{ '/a*/': true, '/b?/': true, '/(x|)*/': true, '/(?:)*/': true }, 'a', false], [{ '/^echo/': true, '//': true, '/a*/': true, pwd: true }, 'pwd', true],
  [{ '/*/': true, '/(?:+/': true, '/[/': true, '/^echo/': true, ls: true }, 'random command', false],
  [{ 'bin/foo': true }, 'bin/foo --arg', true], [{ 'bin/foo': true }, 'bin\\foo', true], [{ 'bin/foo': true }, './bin/foo', true], [{ 'bin/foo': true }, '.\\bin\\foo', true],
  [{ 'bin/foo': true }, 'bin/foobar', false], [{ 'bin/foo': true }, 'notbin/foo', false], [{ 'bin\\script.bat': true }, './bin/script.bat --help', true],
  [{ 'src/utils/helper.js': true }, 'src\\utils/helper.js', true], [{ echo: true, ls: true }, './echo', false], [{ echo: true, ls: true }, '.\\ls', false],
  [{ 'bin/foo\\bar': true }, 'bin/foo/bar', true], [{ 'tools/run (debug).exe': true }, 'tools\\run (debug).exe', true],
];

/** PowerShell: case-insensitive whatever the OS, and a leading `(` (from the same file's PowerShell suite). */
const POWERSHELL_CASES: [Record<string, unknown>, string, boolean][] = [
  [{ 'Get-ChildItem': true, 'Remove-Item': false }, 'get-childitem', true], [{ 'Get-ChildItem': true, 'Remove-Item': false }, 'REMOVE-ITEM file.txt', false],
  [{ 'Get-Content': true }, '(Get-Content file.txt', true], [{ 'Get-Content': true }, '[Get-Content', false], [{ ls: true, rm: false }, 'LS', true],
  [{ ls: true, rm: false }, 'Rm file.txt', false], [{ '/^Get-/': true, '/Remove-Item|rm/': false }, 'GET-PROCESS', true],
  [{ '/^Get-/': true, '/Remove-Item|rm/': false }, 'RM file.txt', false], [{ 'Get-Process': true, 'Stop-Process': false }, 'stop-process', false],
];

const COMMAND_LINE_CASES: [Record<string, unknown>, string, boolean][] = [
  [{ echo: { approve: true, matchCommandLine: true } }, 'echo test && ls', true], [{ echo: true }, 'echo hello', false],
  [{ '/echo.*world/': { approve: true, matchCommandLine: true } }, 'echo hello', false], [{ '/echo/i': { approve: true, matchCommandLine: true } }, 'Echo hello', true],
  [{ '/^npm run build/': { approve: true, matchCommandLine: true }, '/\\.ps1/i': { approve: true, matchCommandLine: true } }, 'pwsh -File SCRIPT.PS1', true],
  [{ echo: { approve: true, matchCommandLine: true } }, '', false], [{ echo: true, ls: { approve: true, matchCommandLine: true }, rm: { approve: true, matchCommandLine: false } }, 'rm file.txt', false],
  [{ echo: { approve: true, matchCommandLine: true }, '/dangerous/': { approve: false, matchCommandLine: true } }, 'echo dangerous command', false],
  [{ '/echo/': { approve: true, matchCommandLine: true }, '/echo.*dangerous/': { approve: false, matchCommandLine: true } }, 'echo hello', true],
  [{ npm: { approve: true, matchCommandLine: true }, '/npm.*--force/': { approve: false, matchCommandLine: true } }, 'npm install --force', false],
  [{ '//': { approve: true, matchCommandLine: true }, '/a*/': { approve: true, matchCommandLine: true } }, 'a', false],
];

describe("command safety: VS Code's rule matching", () => {
  for (const [rules, command, expected] of SUB_COMMAND_CASES) {
    it(`${JSON.stringify(rules)}: \`${command}\` ${expected ? 'approved' : 'not approved'}`, () => assert.equal(approved(user(rules), command), expected));
  }
  for (const [rules, command, expected] of POWERSHELL_CASES) {
    it(`PowerShell ${JSON.stringify(rules)}: \`${command}\` ${expected ? 'approved' : 'not approved'}`, () => assert.equal(approved(user(rules), command, true), expected));
  }
  for (const [rules, line, expected] of COMMAND_LINE_CASES) {
    it(`matchCommandLine ${JSON.stringify(rules)}: \`${line}\` ${expected ? 'approved' : 'not approved'}`, () => assert.equal(lineApproved(user(rules), line), expected));
  }

  it('an env-variable prefix is denied whatever the rules', () => {
    assert.equal(matchSubCommand(buildRules(user({ '/.*/': true }), false), EMPTY_RULES, 'FOO=1 ls', false).result, 'denied');
  });

  it("VS Code's git rules (inline modifiers) work on this engine: `git -C dir status` runs, `git -c x status` does not", () => {
    const rules = buildRules({}, false);
    assert.equal(matchSubCommand(rules, EMPTY_RULES, 'git -C dir status', false).result, 'approved');
    assert.equal(matchSubCommand(rules, EMPTY_RULES, 'git -c core.pager=sh status', false).result, 'noMatch');
  });
});

describe('command safety: the settings, scope by scope', () => {
  const defaults = { echo: true, rm: false, cat: true };
  const result = (layers: AutoApproveLayers, command: string, ignore = false) => matchSubCommand(buildRules(layers, ignore), EMPTY_RULES, command, false);

  it('merges the scopes key by key, a later scope winning, and names where a rule comes from', () => {
    const layers = { defaultValue: defaults, userValue: { rm: true, ls: true }, workspaceValue: { ls: false } };
    assert.equal(result(layers, 'rm x').result, 'approved');
    assert.equal(result(layers, 'rm x').rule?.source, 'user');
    assert.deepEqual([result(layers, 'ls').result, result(layers, 'ls').rule?.source], ['denied', 'workspace']);
    assert.deepEqual([result(layers, 'cat f').result, result(layers, 'cat f').rule?.source, result(layers, 'cat f').rule?.isDefaultRule], ['approved', 'default', true]);
    assert.equal(result({ ...layers, workspaceFolderValue: { ls: true } }, 'ls').rule?.source, 'workspaceFolder');
  });

  it('`null` unsets a rule of a lower scope', () => {
    assert.equal(result({ defaultValue: defaults, userValue: { rm: null } }, 'rm x').result, 'noMatch');
    assert.equal(result({ defaultValue: defaults, userValue: { echo: true }, workspaceValue: { echo: null } }, 'echo hi').result, 'noMatch');
  });

  it('ignoreDefaultAutoApproveRules drops the rules still equal to the default, keeps those set again by the user', () => {
    assert.equal(result({ defaultValue: defaults }, 'echo hi', true).result, 'noMatch');
    assert.equal(result({ defaultValue: defaults }, 'rm x', true).result, 'noMatch');
    assert.equal(result({ defaultValue: defaults, userValue: { echo: true } }, 'echo hi', true).result, 'approved');
  });

  it('{approve, matchCommandLine} and the deprecated chat.agent.terminal.autoApprove merged over the rest', () => {
    const rules = buildRules({ defaultValue: {}, userValue: { '/^make( test)?$/': { approve: true, matchCommandLine: true }, mkdir: { approve: true } }, deprecatedValue: { touch: true } }, false);
    assert.equal(matchCommandLine(rules, EMPTY_RULES, 'make test').result, 'approved');
    assert.equal(matchSubCommand(rules, EMPTY_RULES, 'make test', false).result, 'noMatch');
    assert.equal(matchSubCommand(rules, EMPTY_RULES, 'mkdir -p build', false).result, 'approved');
    assert.equal(matchSubCommand(rules, EMPTY_RULES, 'touch x', false).result, 'approved');
  });

  it('without a default from the editor, VS Code 1.139s default rules apply', () => {
    assert.equal(result({}, 'ls -la').result, 'approved');
    assert.equal(result({}, 'rm -rf x').result, 'denied');
  });

  it("a session's rules approve after the configured deny rules, never past them", () => {
    const session = rulesFrom({ mkdir: true, rm: true }, 'session');
    const rules = buildRules({}, false);
    assert.deepEqual([matchSubCommand(rules, session, 'mkdir x', false).result, matchSubCommand(rules, session, 'mkdir x', false).rule?.source], ['approved', 'session']);
    assert.equal(matchSubCommand(rules, session, 'rm x', false).result, 'denied');
  });
});
