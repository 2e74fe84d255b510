/**
 * Terminal Shepherd's shell integration scripts in the real shells: each shell runs under
 * `script` (a real TTY) with a user rc of its own, is fed a few command lines, and its output is
 * parsed with the same OscParser the runs use, in randomly split chunks. Proves the sequences VS
 * Code needs (A, B, C, D;exit code, E and P;Cwd escaped) and that the user's own prompt hooks
 * still run and see the command's status.
 */
import assert from 'node:assert/strict';
import { SHELL_SCRIPTS } from './fakeTerminalHost';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OscParser } from '../../../extension/src/core/output/oscParser';
import type { ShellMarker } from '../../../extension/src/core/output/shellMarkers';
import { prepareIntegrationFiles, type IntegrationFiles } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { shepherdLaunch } from '../../../extension/src/core/terminals/integration/integrationLaunch';
import { shellInfo } from '../../../extension/src/core/terminals/shellKind';
import { describeWhere } from '../../support/skips';
import { TempDirs } from '../../support/tempDirs';


function which(command: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const hasScript = process.platform === 'linux' && which('script') !== undefined;

/** Markers in order, each as a short string (D;0, E;echo hi, P;Cwd=/x), parsed from random chunks. */
function markersOf(output: string): { list: string[]; text: string } {
  const parser = new OscParser();
  const list: string[] = [];
  let text = '';
  let i = 0;
  let seed = 7;
  while (i < output.length) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const size = 1 + (seed % 13);
    const r = parser.parse(output.slice(i, i + size));
    text += r.data;
    for (const m of r.markers) list.push(describe_(m));
    i += size;
  }
  return { list, text };
}

function describe_(m: ShellMarker): string {
  switch (m.kind) {
    case 'promptStart':
      return 'A';
    case 'commandStart':
      return 'B';
    case 'commandExecuted':
      return 'C';
    case 'commandFinished':
      return m.exitCode === undefined ? 'D' : `D;${m.exitCode}`;
    case 'commandLine':
      return `E;${m.value}`;
    case 'property':
      return `P;${m.key}=${m.value}`;
    default:
      return m.kind;
  }
}

/** Runs `shell` with our integration under `script`, typing `lines`; returns the raw terminal output. */
function runShell(shellPath: string, files: IntegrationFiles, home: string, cwd: string, lines: readonly string[]): string {
  const launch = shepherdLaunch(shellInfo(shellPath).kind, files, {});
  assert.ok(launch, shellPath);
  const argv = [shellPath, ...(launch.shellArgs ?? [])].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', argv, '/dev/null'], {
    input: lines.map((l) => `${l}\n`).join(''),
    cwd,
    encoding: 'utf8',
    timeout: 15_000,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TERM: 'xterm-256color', LANG: 'C.UTF-8', ...launch.env },
  });
  assert.equal(r.error, undefined, String(r.error));
  return r.stdout;
}

/** Sequences of one shell, without the P;Cwd markers (asserted apart). */
const withoutCwd = (list: readonly string[]): string[] => list.filter((m) => !m.startsWith('P;Cwd='));

describeWhere(hasScript, 'needs Linux and util-linux `script` to give the shells a TTY')("Terminal Shepherd's shell integration scripts in real shells", function () {
  this.timeout(30_000);
  const dirs = new TempDirs();
  let files: IntegrationFiles;
  let home: string;
  let odd: string;
  let newlineDir: string;

  before(async () => {
    files = await prepareIntegrationFiles(SHELL_SCRIPTS, dirs.make('integration-private-'));
    home = dirs.make('integration-home-');
    // A directory whose name needs every escape: `;`, `\` and a space.
    odd = path.join(dirs.make('integration-cwd-'), 'a;b\\c d');
    mkdirSync(odd);
    // And one with control characters in its name (a newline and a tab).
    newlineDir = path.join(odd, 'n\nl\tx');
    mkdirSync(newlineDir);
  });
  after(() => dirs.cleanup());

  const bash = which('bash');
  describeWhere(bash !== undefined, 'bash is not installed')('bash (--init-file)', () => {
    it('marks prompts and commands, reports exit codes and the escaped cwd, and keeps the user PROMPT_COMMAND', () => {
      writeFileSync(path.join(home, '.bashrc'), 'PROMPT_COMMAND=\'echo "user-pc=$?"\'\nPS1="user\\$ "\n');
      const out = runShell(bash!, files, home, odd, ['echo hi', '', 'false', '(exit 42)', `cd ..`, 'exit']);
      const { list, text } = markersOf(out);
      assert.deepEqual(withoutCwd(list), ['D', 'A', 'B', 'C', 'D;0', 'A', 'B', 'D', 'A', 'B', 'C', 'D;1', 'A', 'B', 'C', 'D;42', 'A', 'B', 'C', 'D;0', 'A', 'B', 'C']);
      assert.ok(list.includes(`P;Cwd=${odd}`), list.join(' | '));
      assert.ok(list.includes(`P;Cwd=${path.dirname(odd)}`), list.join(' | '));
      // The user's hook ran after every command and saw its status.
      assert.deepEqual([...text.matchAll(/user-pc=(\d+)/g)].map((m) => m[1]), ['0', '0', '0', '1', '42', '0']);
      assert.match(text, /user\$ /);
    });
  });

  describeWhere(bash !== undefined, 'bash is not installed')('bash: agent lines out of history', () => {
    it("keeps lines typed with a leading space out of the user's HISTFILE (HISTCONTROL after .bashrc), and the user's own lines in", () => {
      const histfile = path.join(home, 'bash_history_test');
      writeFileSync(path.join(home, '.bashrc'), `HISTCONTROL=ignoredups\nHISTFILE=${histfile}\n`);
      runShell(bash!, files, home, odd, [' echo agent-line', 'echo person-line', 'exit']);
      const history = readFileSync(histfile, 'utf8');
      assert.match(history, /echo person-line/);
      assert.doesNotMatch(history, /agent-line/);
    });
  });

  const zsh = which('zsh');
  describeWhere(zsh !== undefined, 'zsh is not installed (apt-get install zsh)')('zsh (ZDOTDIR)', () => {
    it("marks prompts and commands with the exact escaped command line, and keeps the user's precmd and prompt", () => {
      writeFileSync(path.join(home, '.zshrc'), "PROMPT='zuser%# '\nmy_precmd() { echo \"user-precmd=$?\" }\nautoload -Uz add-zsh-hook; add-zsh-hook precmd my_precmd\n");
      const out = runShell(zsh!, files, home, odd, ['print -r -- "a;b\\\\c"', '', 'false', 'exit']);
      const { list, text } = markersOf(out);
      assert.deepEqual(withoutCwd(list), ['D', 'A', 'B', 'E;print -r -- "a;b\\\\c"', 'C', 'D;0', 'A', 'B', 'D', 'A', 'B', 'E;false', 'C', 'D;1', 'A', 'B', 'E;exit', 'C']);
      assert.ok(list.includes(`P;Cwd=${odd}`), list.join(' | '));
      assert.deepEqual([...text.matchAll(/user-precmd=(\d+)/g)].map((m) => m[1]), ['0', '0', '0', '1']);
      assert.match(text, /zuser# /);
      assert.match(text, /a;b\\c/);
    });

    it('reads the user\'s .zshrc from their own ZDOTDIR and hands ZDOTDIR back', () => {
      const own = path.join(home, 'zdot');
      mkdirSync(own, { recursive: true });
      writeFileSync(path.join(own, '.zshrc'), 'echo from-own-zdotdir\n');
      const launch = shepherdLaunch('zsh', files, { ZDOTDIR: own });
      assert.equal(launch?.env.TSHEP_USER_ZDOTDIR, own);
      const r = spawnSync('script', ['-qec', `${zsh} -i`, '/dev/null'], {
        input: 'echo "zdotdir=$ZDOTDIR"\nexit\n',
        encoding: 'utf8',
        timeout: 15_000,
        env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm', ...launch!.env },
      });
      assert.match(r.stdout, /from-own-zdotdir/);
      assert.match(r.stdout, new RegExp(`zdotdir=${own.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r?\\n`));
    });
  });

  const fish = which('fish');
  describeWhere(fish !== undefined, 'fish is not installed (apt-get install fish)')('fish (--init-command)', () => {
    it("marks prompts and commands with the exact escaped command line; the user's fish_prompt still sees $status", () => {
      mkdirSync(path.join(home, '.config', 'fish'), { recursive: true });
      // Present, so fish does not start generating completions in the background at first start.
      mkdirSync(path.join(home, '.local', 'share', 'fish', 'generated_completions'), { recursive: true });
      writeFileSync(path.join(home, '.config', 'fish', 'config.fish'), 'function fish_prompt; echo -n "fuser[$status]> "; end\n');
      const out = runShell(fish!, files, home, odd, ['echo "a;b\\\\c"', 'false', 'exit']);
      const { list, text } = markersOf(out);
      assert.deepEqual(withoutCwd(list), ['A', 'B', 'E;echo "a;b\\\\c"', 'C', 'D;0', 'A', 'B', 'E;false', 'C', 'D;1', 'A', 'B', 'E;exit', 'C', 'D;1']);
      assert.ok(list.includes(`P;Cwd=${odd}`), list.join(' | '));
      assert.match(text, /fuser\[0\]> /);
      assert.match(text, /fuser\[1\]> /);
    });
  });

  // Each shell's own exit code for a syntax error.
  for (const [name, syntaxError] of [['dash', 2], ['mksh', 1], ['ksh', 3]] as const) {
    const shell = which(name);
    describeWhere(shell !== undefined, `${name} is not installed (apt-get install ${name})`)(`${name} ($ENV, no pre-execution hook)`, () => {
      it('reports D with the exit code from PS1; C comes from the line Terminal Shepherd sends, also for a syntax error', () => {
        const out = runShell(shell!, files, home, odd, ['__tshep_c; eval \'echo hi\'', "__tshep_c; eval 'echo x; (exit 42)'", "__tshep_c; eval 'if then'", "__tshep_c; cd \"$(printf 'n\\nl\\tx')\"", 'exit']);
        const { list, text } = markersOf(out);
        assert.deepEqual(withoutCwd(list), ['D;0', 'A', 'B', 'C', 'D;0', 'A', 'B', 'C', 'D;42', 'A', 'B', 'C', `D;${syntaxError}`, 'A', 'B', 'C', 'D;0', 'A', 'B']);
        // The odd directory (`;`, `\`, a space) and one with a newline and a tab arrive whole.
        assert.ok(list.includes(`P;Cwd=${odd}`), list.join(' | '));
        assert.ok(list.includes(`P;Cwd=${newlineDir}`), list.join(' | '));
        assert.match(text, /hi/);
      });
    });
  }
});
