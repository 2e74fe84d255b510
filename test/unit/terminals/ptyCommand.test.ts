/** How the extension-owned terminal runs a command on each platform: pure forms (Windows and macOS only here). */
import assert from 'node:assert/strict';
import { commandFileText, keeperRequest, shellFileArgs, type PtyCommandInput } from '../../../extension/src/core/terminals/pty/ptyCommand';

const base: PtyCommandInput = {
  command: 'echo hi',
  kind: 'bash',
  shellPath: '/bin/bash',
  file: '/r/pty-1.sh',
  cwdFile: '/r/pty-1.cwd',
  cwd: "/w/it's",
  columns: 100,
  rows: 30,
  platform: 'linux',
  hasScript: true,
};

describe('pseudoterminal command forms', () => {
  it('Linux: util-linux script with -e (exit status) and -f (flush), in the cwd', () => {
    assert.equal(keeperRequest(base), `cd -- '/w/it'\\''s' 2>/dev/null; SHELL=/bin/sh script -qefc 'exec '\\''/bin/bash'\\'' '\\''/r/pty-1.sh'\\''' /dev/null`);
  });
  it('macOS: BSD script syntax', () => {
    assert.equal(keeperRequest({ ...base, platform: 'darwin' }), `cd -- '/w/it'\\''s' 2>/dev/null; script -q /dev/null '/bin/bash' '/r/pty-1.sh'`);
  });
  it('without script: the shell on pipes', () => {
    assert.equal(keeperRequest({ ...base, hasScript: false, cwd: undefined }), `'/bin/bash' '/r/pty-1.sh'`);
  });
  it('POSIX shells: terminal size, the command, then the cwd with the exit status kept', () => {
    assert.equal(commandFileText(base), "stty cols 100 rows 30 2>/dev/null\necho hi\n__tshep_rc=$?; pwd > '/r/pty-1.cwd' 2>/dev/null; exit $__tshep_rc\n");
    assert.match(commandFileText({ ...base, kind: 'fish' }), /\nset -l __tshep_rc \$status; pwd > '\/r\/pty-1\.cwd' 2>\/dev\/null; exit \$__tshep_rc\n$/);
  });
  it('Git Bash: the cwd in its Windows form (MSYS pwd prints /c/...), which the next command starts in', () => {
    const text = commandFileText({ ...base, platform: 'win32', hasScript: false, cwdFile: 'C:\\r\\1.cwd' });
    assert.equal(text, "echo hi\n__tshep_rc=$?; { pwd -W || pwd; } > 'C:\\r\\1.cwd' 2>/dev/null; exit $__tshep_rc\n");
  });
  it('cmd.exe: CRLF, UTF-8 in its own console, the ERRORLEVEL kept through the cwd write; PowerShell: the exit-code ladder, reported, and its code as the exit status', () => {
    const cmd = commandFileText({ ...base, kind: 'cmd', command: 'dir\nver', platform: 'win32', hasScript: false, cwdFile: 'C:\\r\\1.cwd' });
    assert.equal(cmd, '@echo off\r\n@chcp 65001 >nul\r\ndir\r\nver\r\n@set __tshep_rc=%ERRORLEVEL%\r\n@cd > "C:\\r\\1.cwd"\r\n@exit /b %__tshep_rc%\r\n');
    const pwsh = commandFileText({ ...base, kind: 'pwsh', command: 'git status', platform: 'win32', hasScript: false, cwdFile: "C:\\r\\it's.cwd" });
    assert.match(pwsh, /^\. \$env:TSHEP_PWSH\n__TshepBefore\ngit status\n\$__tshepOk = \$\?\n\$__tshepNative = \$global:LASTEXITCODE\n/);
    assert.match(pwsh, /Write-Host -NoNewline \(__TshepExitProperties \$__tshepStatus\)\n/);
    assert.match(pwsh, /Set-Content -LiteralPath 'C:\\r\\it''s\.cwd'\nexit \$__tshepStatus\.Code\n$/);
    assert.deepEqual(shellFileArgs('cmd', 'C:\\r\\1.cmd'), ['/d', '/c', 'C:\\r\\1.cmd']);
    assert.deepEqual(shellFileArgs('pwsh', 'C:\\r\\1.ps1').slice(-2), ['-File', 'C:\\r\\1.ps1']);
  });
});
