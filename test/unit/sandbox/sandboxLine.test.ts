import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { innerCommand, sandboxedLine } from '../../../extension/src/core/sandbox/sandboxLine';
import type { ShellKind } from '../../../extension/src/core/terminals/shellKind';
import { TempDirs } from '../../support/tempDirs';

/** Commands whose quoting is easy to break: quotes of both kinds, backslashes, $, a newline. */
const HARD = [`echo "it's" 'a "b"' \\n $HOME`, 'printf "%s\\n" a\\\\b', "echo 'x'\\''y'", 'for i in 1 2; do\n  echo "$i"\ndone'];

describe('sandboxedLine (the line a sandboxed command is typed as)', () => {
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  it("runs the command in bash with VS Code's `cd '<cwd>' &&` in front; PowerShell's through a sandboxed pwsh", () => {
    assert.equal(innerCommand('ls', "/w/it's", 'bash'), `cd '/w/it'\\''s' && ls`);
    assert.equal(innerCommand('ls', undefined, 'zsh'), 'ls');
    assert.equal(innerCommand('Get-ChildItem', '/w', 'pwsh'), `cd '/w' && pwsh -NoLogo -NoProfile -Command 'Get-ChildItem'`);
    // The terminal's own pwsh, which need not be on PATH.
    assert.equal(innerCommand('Get-ChildItem', '/w', 'pwsh', '/opt/power shell/pwsh'), `cd '/w' && '/opt/power shell/pwsh' -NoLogo -NoProfile -Command 'Get-ChildItem'`);
  });

  // Each shell parses the line back into the launcher's arguments: the command reaches the runtime byte for byte.
  const shells: Array<[ShellKind, string, string[]]> = [
    ['bash', '/bin/bash', ['-c']],
    ['zsh', '/usr/bin/zsh', ['-c']],
    ['sh', '/bin/sh', ['-c']],
    ['fish', '/usr/bin/fish', ['-c']],
  ];
  for (const [kind, shell, args] of shells) {
    it(`${kind} hands the launcher the policy and the command unchanged, with ELECTRON_RUN_AS_NODE set`, function () {
      if (!existsSync(shell)) this.skip();
      const dir = dirs.make('tshep-line-');
      const runner = path.join(dir, 'printArgs.js');
      writeFileSync(runner, 'process.stdout.write(JSON.stringify({ args: process.argv.slice(2), electron: process.env.ELECTRON_RUN_AS_NODE }))');
      // Paths with a space, in the test's own folder (nothing is read or written there).
      const policy = path.join(dir, 'policy one.json');
      const cwd = path.join(dir, 'a b');
      for (const command of HARD) {
        const line = sandboxedLine({ execPath: process.execPath, runnerPath: runner }, policy, command, cwd, kind);
        const printed = JSON.parse(execFileSync(shell, [...args, line], { encoding: 'utf8' })) as { args: string[]; electron: string };
        assert.deepEqual(printed, { args: [policy, `cd '${cwd}' && ${command}`], electron: '1' }, `${kind}: ${line}`);
      }
    });
  }
});
