/**
 * The desktop suite's shell matrix per system (test/desktop/shells.ts), where the suite itself
 * cannot run (no desktop VS Code can be had here): which shells each CI runner is asked for, and
 * reading the OS's answer about the terminal's process from recorded tasklist and ps output.
 */
import assert from 'node:assert/strict';
import { desktopShells, psCommandName, shellChecks, tasklistImageName } from '../../desktop/shells';

describe('desktop suite shell matrix', () => {
  it('Windows: pwsh 7, Windows PowerShell 5.1, cmd.exe (%ComSpec%) and Git Bash, from the runner\'s install folders', () => {
    const shells = desktopShells('win32', { SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
    assert.deepEqual(
      shells.map((s) => [s.label, s.candidates[0], s.strategies.join('|')]),
      [
        ['pwsh 7', 'C:\\Program Files\\PowerShell\\7\\pwsh.exe', 'shepherd'],
        ['Windows PowerShell 5.1', 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'shepherd'],
        ['cmd.exe', 'C:\\Windows\\system32\\cmd.exe', 'pseudoterminal'],
        ['Git Bash', 'C:\\Program Files\\Git\\bin\\bash.exe', 'vscode|shepherd'],
      ],
    );
  });

  it('macOS: zsh (the default), bash 3.2 and fish from Homebrew (Apple silicon or Intel)', () => {
    assert.deepEqual(
      desktopShells('darwin', {}).map((s) => [s.label, ...s.candidates]),
      [
        ['zsh', '/bin/zsh'],
        ['bash 3.2', '/bin/bash'],
        ['fish', '/opt/homebrew/bin/fish', '/usr/local/bin/fish'],
      ],
    );
  });

  it('Linux: the shells of .ci/debian-packages', () => {
    assert.deepEqual(desktopShells('linux', {}).map((s) => s.label), ['bash', 'zsh', 'fish', 'dash', 'mksh']);
  });

  it('PowerShell checks cover the ladder: native code, `;` chain, stale code, cmdlet error, terminating error, 5.1 stderr, multi-line, UTF-8', () => {
    const checks = shellChecks('pwsh', 'win32');
    assert.deepEqual(
      checks.map((c) => [c.exitCode, (c.sources ?? []).join('|')]),
      [
        [0, 'shell'],
        [42, 'native'],
        [3, 'native'],
        [0, 'shell'],
        [1, 'shell'],
        [1, 'shell'],
        [0, ''],
        [0, 'native|inferred'],
        [0, ''],
        [0, ''],
      ],
    );
    assert.equal(checks[1]!.command, 'cmd /c exit 42');
    assert.equal(shellChecks('pwsh', 'darwin')[1]!.command, "sh -c 'exit 42'");
    assert.ok(shellChecks('cmd', 'win32').every((c) => !c.command.includes("'")), 'cmd.exe has no single quotes');
  });

  it('reads the image name from tasklist /FO CSV /NH and the command from ps -o comm=', () => {
    assert.equal(tasklistImageName('"pwsh.exe","6412","Console","1","98,304 K"\r\n'), 'pwsh');
    assert.equal(tasklistImageName('"powershell.exe","512","Console","1","70,112 K"'), 'powershell');
    assert.equal(tasklistImageName('INFO: No tasks are running which match the specified criteria.'), undefined);
    assert.equal(psCommandName('/bin/zsh\n'), 'zsh');
    assert.equal(psCommandName('-zsh\n'), 'zsh');
    assert.equal(psCommandName('/opt/homebrew/bin/fish'), 'fish');
  });
});
