/** Strategy choice, shell kinds, launch options and the command lines sent per shell: pure logic. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LONG_LINE_CHARS } from '../../../extension/src/core/terminals/commandText';
import { shepherdCommandLines as shepherd, shepherdStrategy } from '../../../extension/src/core/terminals/strategies/shepherdStrategy';
import { vscodeCommandLines as vscode, vscodeStrategy } from '../../../extension/src/core/terminals/strategies/vscodeStrategy';
import type { IntegrationFiles } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { fishQuote, managedEnv, PAGER_ENV, shepherdLaunch } from '../../../extension/src/core/terminals/integration/integrationLaunch';
import { chooseShell, shellInfo, shellLabel } from '../../../extension/src/core/terminals/shellKind';
import { strategyChain } from '../../../extension/src/core/terminals/strategies/strategyChain';
import { TempDirs } from '../../support/tempDirs';

describe('execution strategies: pure logic', () => {
  describe('shellInfo', () => {
    const cases: Array<[string | undefined, string, string]> = [
      ['/bin/bash', 'bash', 'bash'],
      ['/usr/bin/zsh', 'zsh', 'zsh'],
      ['/usr/local/bin/fish', 'fish', 'fish'],
      ['/usr/bin/dash', 'sh', 'dash'],
      ['/bin/sh', 'sh', 'sh'],
      ['/usr/bin/mksh', 'sh', 'mksh'],
      ['/bin/ksh93', 'sh', 'ksh93'],
      ['C:\\Program Files\\PowerShell\\7\\pwsh.exe', 'pwsh', 'pwsh'],
      ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', 'pwsh', 'pwsh'],
      ['C:\\Windows\\System32\\cmd.exe', 'cmd', 'cmd'],
      ['C:\\Program Files\\Git\\bin\\bash.exe', 'bash', 'bash'],
      ['/usr/bin/nu', 'unknown', 'nu'],
      [undefined, 'unknown', 'unknown'],
    ];
    for (const [path, kind, label] of cases) {
      it(`${path ?? '(none)'} is ${kind}, shown as ${label}`, () => {
        const info = shellInfo(path);
        assert.equal(info.kind, kind);
        assert.equal(shellLabel(info), label);
        assert.equal(info.path, path);
      });
    }
  });

  describe('chooseShell', () => {
    const onPath = (...files: string[]) => (file: string) => files.includes(file);
    it('the setting wins; else the editor default', () => {
      assert.equal(chooseShell('/bin/zsh', '/bin/bash', 'linux', '/usr/bin'), '/bin/zsh');
      assert.equal(chooseShell(undefined, '/bin/bash', 'linux', '/usr/bin'), '/bin/bash');
    });
    it('Windows with cmd.exe as the default profile: PowerShell 7, else Windows PowerShell, else cmd.exe', () => {
      const cmd = 'C:\\Windows\\System32\\cmd.exe';
      const pathValue = 'C:\\Program Files\\PowerShell\\7;C:\\Windows\\System32\\WindowsPowerShell\\v1.0';
      assert.equal(chooseShell(undefined, cmd, 'win32', pathValue, onPath('C:\\Program Files\\PowerShell\\7\\pwsh.exe')), 'C:\\Program Files\\PowerShell\\7\\pwsh.exe');
      assert.equal(
        chooseShell(undefined, cmd, 'win32', pathValue, onPath('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe')),
        'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      );
      assert.equal(chooseShell(undefined, cmd, 'win32', pathValue, onPath()), cmd);
      assert.equal(chooseShell(cmd, cmd, 'win32', pathValue, onPath('C:\\Program Files\\PowerShell\\7\\pwsh.exe')), cmd, 'the setting still wins');
    });
  });

  describe('strategyChain', () => {
    const chain = (kind: Parameters<typeof strategyChain>[0]['kind'], vscodeInjection = true, preference: Parameters<typeof strategyChain>[0]['preference'] = 'auto') =>
      strategyChain({ kind, vscodeInjection, preference });
    it("ours reports no execution behind a run's end (no settle after the OS's confirmation); VS Code's may (a redrawn prompt)", () => {
      assert.equal(shepherdStrategy.lateExecutions, false);
      assert.equal(vscodeStrategy.lateExecutions, true);
    });
    it('fish: VS Code first, then ours, then the pseudoterminal', () => {
      assert.deepEqual(chain('fish'), ['vscode', 'shepherd', 'pseudoterminal']);
    });
    it("bash: ours first (VS Code's reports $BASH_COMMAND once HISTCONTROL ignores spaces), then VS Code's, then the pseudoterminal", () => {
      assert.deepEqual(chain('bash'), ['shepherd', 'vscode', 'pseudoterminal']);
      assert.deepEqual(chain('bash', true, 'vscode'), ['vscode', 'shepherd', 'pseudoterminal']);
    });
    it('zsh: ours first (prompt themes defeat VS Code\'s), then VS Code\'s, then the pseudoterminal', () => {
      assert.deepEqual(chain('zsh'), ['shepherd', 'vscode', 'pseudoterminal']);
      assert.deepEqual(chain('zsh', true, 'vscode'), ['vscode', 'shepherd', 'pseudoterminal']);
    });
    it('injection off: ours first', () => {
      assert.deepEqual(chain('bash', false), ['shepherd', 'pseudoterminal']);
    });
    it('sh family: ours (VS Code injects nothing there)', () => {
      assert.deepEqual(chain('sh'), ['shepherd', 'pseudoterminal']);
    });
    it("pwsh: ours first (the exit code from the prompt, any language mode), then VS Code's, then the pseudoterminal", () => {
      assert.deepEqual(chain('pwsh'), ['shepherd', 'vscode', 'pseudoterminal']);
      assert.deepEqual(chain('pwsh', false), ['shepherd', 'pseudoterminal']);
    });
    it('cmd.exe and unknown shells: only the pseudoterminal', () => {
      assert.deepEqual(chain('cmd'), ['pseudoterminal']);
      assert.deepEqual(chain('unknown'), ['pseudoterminal']);
    });
    it('a preference goes first and keeps the others as fallbacks; an impossible one is ignored', () => {
      assert.deepEqual(chain('bash', true, 'shepherd'), ['shepherd', 'vscode', 'pseudoterminal']);
      assert.deepEqual(chain('bash', true, 'pseudoterminal'), ['pseudoterminal', 'shepherd', 'vscode']);
      assert.deepEqual(chain('fish', true, 'pseudoterminal'), ['pseudoterminal', 'vscode', 'shepherd']);
      assert.deepEqual(chain('sh', true, 'vscode'), ['shepherd', 'pseudoterminal']);
      assert.deepEqual(chain('cmd', true, 'shepherd'), ['pseudoterminal']);
    });
  });

  describe('launch options', () => {
    const files: IntegrationFiles = {
      bash: '/p/bash.sh',
      posix: '/p/posix.sh',
      fish: "/p/it's\\fish.fish",
      pwsh: "C:\\p\\it's\\pwsh.ps1",
      pwshCommon: 'C:\\p\\pwshCommon.ps1',
      zshDir: '/p/zsh',
      runsDir: '/p/runs',
    };
    it('every managed terminal gets pagers that print; zsh also loses its end-of-line mark', () => {
      const marks = { AI_AGENT: 'terminal-shepherd', TERMINAL_SHEPHERD: '1', VSCODE_PREVENT_SHELL_HISTORY: '1' };
      assert.deepEqual(managedEnv('bash'), { ...PAGER_ENV, ...marks });
      assert.deepEqual(managedEnv('bash', files), { ...PAGER_ENV, ...marks, TSHEP_R: '/p/runs' });
      assert.deepEqual(managedEnv('pwsh', files), { ...PAGER_ENV, ...marks, TSHEP_R: '/p/runs', TSHEP_PWSH: 'C:\\p\\pwshCommon.ps1' }, 'PowerShell also gets the exit-code ladder');
      assert.equal(managedEnv('zsh').PROMPT_EOL_MARK, '');
      assert.equal(PAGER_ENV.GIT_PAGER, 'cat');
      assert.equal(PAGER_ENV.PAGER, 'cat');
    });
    it('bash --init-file, zsh ZDOTDIR (the user\'s kept), fish --init-command, sh $ENV (the user\'s kept)', () => {
      assert.deepEqual(shepherdLaunch('bash', files, {}), { shellArgs: ['--init-file', '/p/bash.sh'], env: managedEnv('bash', files) });
      assert.deepEqual(shepherdLaunch('zsh', files, { ZDOTDIR: '/home/me/.zsh' }, 'linux'), {
        shellArgs: ['-i'],
        env: { ...managedEnv('zsh', files), ZDOTDIR: '/p/zsh', TSHEP_USER_ZDOTDIR: '/home/me/.zsh' },
      });
      assert.deepEqual(shepherdLaunch('zsh', files, {}, 'darwin')?.shellArgs, ['-i', '-o', 'login']);
      assert.deepEqual(shepherdLaunch('fish', files, {})?.shellArgs, ['--init-command', "source '/p/it\\'s\\\\fish.fish'"]);
      assert.deepEqual(shepherdLaunch('sh', files, { ENV: '/home/me/.kshrc' })?.env, { ...managedEnv('sh', files), ENV: '/p/posix.sh', TSHEP_USER_ENV: '/home/me/.kshrc' });
      assert.deepEqual(shepherdLaunch('pwsh', files, {}), {
        shellArgs: ['-NoLogo', '-NoExit', '-ExecutionPolicy', 'Bypass', '-Command', ". 'C:\\p\\it''s\\pwsh.ps1'"],
        env: managedEnv('pwsh', files),
      });
      assert.equal(shepherdLaunch('cmd', files, {}), undefined);
    });
    it('fishQuote survives fish itself', function () {
      if (spawnSync('fish', ['--version']).error) this.skip();
      const value = "it's a \\ path; $HOME";
      const r = spawnSync('fish', ['-c', `printf '%s' ${fishQuote(value)}`], { encoding: 'utf8' });
      assert.equal(r.stdout, value);
    });
  });

  describe('command lines', () => {
    const dirs = new TempDirs();
    after(() => dirs.cleanup());

    it('commands with inner line breaks need a file (a trailing newline does not); with our integration, long lines too', () => {
      assert.equal(vscode.needsScriptFile('echo a', 'unknown'), false);
      assert.equal(vscode.needsScriptFile('echo a\n', 'unknown'), false);
      assert.equal(vscode.needsScriptFile('echo a\necho b', 'unknown'), true);
      assert.equal(vscode.needsScriptFile('echo a\r\necho b', 'unknown'), true);
      const long = `echo ${'x'.repeat(LONG_LINE_CHARS)}`;
      assert.equal(vscode.needsScriptFile(long, 'unknown'), false, "VS Code's own integration reports the line itself");
      assert.equal(shepherd.needsScriptFile(long, 'unknown'), true);
    });
    it('sources through $TSHEP_R per shell; sh with our integration prints C first', () => {
      assert.equal(vscode.sourceLine('bash', 'c-1.sh'), '. "$TSHEP_R/c-1.sh"');
      assert.equal(shepherd.sourceLine('fish', 'c-1.fish'), 'source $TSHEP_R/c-1.fish');
      assert.equal(vscode.sourceLine('pwsh', 'c-1.ps1'), '. "$env:TSHEP_R/c-1.ps1"; __TshepAfterFile $? $global:LASTEXITCODE', 'the report after an `exit` in the file');
      assert.equal(shepherd.sourceLine('sh', 'c-1.sh'), '__tshep_c; . "$TSHEP_R/c-1.sh"');
      assert.equal(shepherd.sourceLine('pwsh', 'c-1.ps1'), '__TshepC; . "$env:TSHEP_R/c-1.ps1"', 'PowerShell with our integration prints C (and clears $LASTEXITCODE) first');
    });
    it('$TSHEP_R names the folder: sourcing works in the real shells', function () {
      const runsDir = dirs.make("runs it's-");
      writeFileSync(path.join(runsDir, 'c-1.sh'), 'echo sourced-sh\n');
      writeFileSync(path.join(runsDir, 'c-1.fish'), 'echo sourced-fish\n');
      const run = (shell: string, line: string): string =>
        spawnSync(shell, ['-c', line], { encoding: 'utf8', env: { ...process.env, ...managedEnv('bash', { runsDir, pwshCommon: '' }) } }).stdout;
      assert.equal(run('bash', vscode.sourceLine('bash', 'c-1.sh')), 'sourced-sh\n');
      assert.equal(run('dash', vscode.sourceLine('sh', 'c-1.sh')), 'sourced-sh\n');
      if (spawnSync('fish', ['--version']).error) this.skip();
      assert.equal(run('fish', shepherd.sourceLine('fish', 'c-1.fish')), 'sourced-fish\n');
    });
    it('single lines go as typed, except sh with our integration: C, then eval of the quoted command', () => {
      assert.equal(vscode.typedLine('bash', 'echo hi'), 'echo hi');
      assert.equal(shepherd.typedLine('sh', "echo it's"), "__tshep_c; eval 'echo it'\\''s'");
    });
    it('writes a multi-line command to a private file and removes it on dispose', async () => {
      const runsDir = dirs.make('runs-');
      const prepared = await vscodeStrategy.prepareCommand('cd /tmp\r\ncat <<EOF\nx\nEOF\n\n', 'zsh', runsDir);
      const file = path.join(runsDir, /^\. "\$TSHEP_R\/(.+)"$/.exec(prepared.line)![1]!);
      assert.equal(readFileSync(file, 'utf8'), 'cd /tmp\ncat <<EOF\nx\nEOF\n');
      prepared.dispose();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(existsSync(file), false);
    });
    it('a command starting with a backslash goes through a file: VS Code never reports the end of a line that starts with one', async () => {
      const runsDir = dirs.make('runs-');
      for (const strategy of [vscodeStrategy, shepherdStrategy]) {
        for (const command of ['\\ls -d /', '  \\rm -rf build']) {
          const prepared = await strategy.prepareCommand(command, 'bash', runsDir);
          const file = path.join(runsDir, /^\. "\$TSHEP_R\/(.+)"$/.exec(prepared.line)![1]!);
          assert.equal(readFileSync(file, 'utf8'), `${command}\n`, `${strategy.name}: ${command}`);
          prepared.dispose();
        }
        // A backslash later in the line is of no concern to VS Code.
        assert.equal((await strategy.prepareCommand("echo 'a\\b'", 'bash', runsDir)).line, "echo 'a\\b'");
      }
    });
    it('without a private folder a multi-line command is sent as typed', async () => {
      assert.equal((await vscodeStrategy.prepareCommand('a\nb', 'bash', undefined)).line, 'a\nb');
    });
  });
});
