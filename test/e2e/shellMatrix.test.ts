// Every shell users have, end to end in a real VS Code (code-server): MCP client -> MCP server ->
// bridge -> extension -> a terminal of that shell. One window for the whole matrix; the shell is
// switched through the machine settings (terminalShepherd.terminal.shellPath is machine-scoped,
// and code-server's window is remote), VS Code's own injection through the user settings. Each
// shell's pid is checked in /proc: the shell that really ran, not the product's word.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeWorkspace, openShepherdWindow, suiteWindow, useShell } from '../support/shepherdE2e';
import { describeWhere } from '../support/skips';

interface ShellCase {
  /** Terminal-name prefix and test title. */
  readonly label: string;
  readonly shellPath: string;
  /** Strategies this case may legitimately end up with (plugins can defeat VS Code's injection). */
  readonly strategies: readonly string[];
  readonly settings?: Record<string, unknown>;
  /** POSIX heredoc; fish has none and gets its own multi-line command. */
  readonly fish?: boolean;
}

const exists = (p: string): boolean => {
  try {
    return realpathSync(p).length > 0;
  } catch {
    return false;
  }
};

const cases: readonly ShellCase[] = [
  { label: 'bash', shellPath: '/bin/bash', strategies: ['shepherd'] },
  { label: 'bash-vscode', shellPath: '/bin/bash', strategies: ['vscode'], settings: { 'terminalShepherd.terminal.strategy': 'vscode' } },
  { label: 'bash-no-si', shellPath: '/bin/bash', strategies: ['shepherd'], settings: { 'terminal.integrated.shellIntegration.enabled': false } },
  { label: 'zsh', shellPath: '/usr/bin/zsh', strategies: ['shepherd'] },
  { label: 'zsh-vscode', shellPath: '/usr/bin/zsh', strategies: ['vscode'], settings: { 'terminalShepherd.terminal.strategy': 'vscode' } },
  {
    label: 'zsh-plugins',
    shellPath: '/usr/bin/zsh',
    strategies: ['shepherd'],
    settings: { 'terminal.integrated.env.linux': { TSHEP_TEST_PLUGINS: '1' } },
  },
  { label: 'fish', shellPath: '/usr/bin/fish', strategies: ['vscode'], fish: true },
  { label: 'dash', shellPath: '/usr/bin/dash', strategies: ['shepherd'] },
  { label: 'mksh', shellPath: '/usr/bin/mksh', strategies: ['shepherd'] },
  { label: 'bash-pty', shellPath: '/bin/bash', strategies: ['pseudoterminal'], settings: { 'terminalShepherd.terminal.strategy': 'pseudoterminal' } },
];

const missing = cases.filter((c) => !exists(c.shellPath)).map((c) => c.shellPath);

/** A ZDOTDIR for the window: plain zsh, or zsh-autosuggestions + zsh-syntax-highlighting + powerlevel9k when TSHEP_TEST_PLUGINS is set. */
function zshHome(): string {
  const dir = path.join(os.tmpdir(), `tshep-zdot-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, '.zshrc'),
    [
      'PROMPT="plain%# "',
      'if [[ -n $TSHEP_TEST_PLUGINS ]]; then',
      '  source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh',
      '  POWERLEVEL9K_MODE=ascii',
      '  source /usr/share/powerlevel9k/powerlevel9k.zsh-theme',
      '  source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh',
      'fi',
      '',
    ].join('\n'),
  );
  return dir;
}

describeWhere(missing.length === 0, `shells missing: ${missing.join(', ')} (the Debian packages in .ci/debian-packages)`)('every shell, in a real VS Code', function () {
  this.timeout(180_000);
  const win = suiteWindow(() => openShepherdWindow({ label: 'shell-matrix', workspace: makeWorkspace(), launch: { env: { ZDOTDIR: zshHome() } } }));

  for (const c of cases) {
    describe(c.label, () => {
      const t = (suffix: string): string => `${c.label}-${suffix}`;
      before(async () => useShell(win, c.shellPath, c.settings));

      it('exact echo; the strategy reported; the shell that really ran (from /proc)', async () => {
        const r = await win.run('terminal_run', { command: 'echo hello world', name: t('main') });
        assert.equal(r.status, 'completed', JSON.stringify(r));
        assert.equal(r.output, 'hello world', JSON.stringify(r));
        assert.equal(r.exitCode, 0, JSON.stringify(r));
        assert.ok(c.strategies.includes(String(r.strategy)), `strategy ${r.strategy}`);
        if (r.strategy === 'pseudoterminal') {
          // The terminal's pid is its keeper; each command runs in the shell, under it.
          assert.equal(readFileSync(`/proc/${r.pid}/comm`, 'utf8').trim(), 'sh');
          const inner = await win.run('terminal_run', { command: 'readlink /proc/$$/exe', name: t('main') });
          assert.equal(inner.output, realpathSync(c.shellPath));
        } else {
          const exe = readlinkSync(`/proc/${r.pid}/exe`);
          assert.equal(exe, realpathSync(c.shellPath), `the terminal's process is ${exe}`);
        }
        const list = await win.run('terminal_list', {});
        const mine = (list.terminals as { name: string; shell: string; strategy: string }[]).find((x) => x.name === t('main'));
        assert.equal(mine?.strategy, r.strategy);
        assert.equal(mine?.shell, c.label.startsWith('zsh') ? 'zsh' : c.label.startsWith('bash') ? 'bash' : path.basename(c.shellPath));
      });

      it('an exit code other than 0 and 1', async () => {
        const r = await win.run('terminal_run', { command: "sh -c 'exit 42'", name: t('main') });
        assert.equal(r.status, 'completed');
        assert.equal(r.exitCode, 42);
      });

      it('a silent command is never taken as done', async () => {
        const r = await win.run('terminal_run', { command: 'sleep 2', name: t('main') });
        assert.equal(r.status, 'completed');
        assert.equal(r.output, '');
        assert.ok(r.durationMs >= 1900, `${r.durationMs} ms`);
      });

      it('an input prompt, answered through terminal_input', async () => {
        const asked = await win.run('terminal_run', { command: "printf 'Continue? [y/N] '; head -n 1", name: t('ask') });
        assert.equal(asked.status, 'waiting_for_input', JSON.stringify(asked));
        assert.equal(asked.prompt, 'Continue? [y/N]');
        const answered = await win.run('terminal_input', { name: t('ask'), text: 'yes-from-agent' });
        assert.equal(answered.status, 'completed');
        assert.equal(answered.exitCode, 0);
        assert.match(answered.output, /yes-from-agent$/);
      });

      it('quoting: a leading backslash (past an alias), backslashes, quotes and a semicolon inside quotes', async () => {
        // printf, not ls: fish's ls is a function that marks directories, and a backslash bypasses aliases, not functions.
        const bypass = await win.run('terminal_run', { command: "\\printf '%s\\n' bypassed", name: t('main'), timeout: 15_000 });
        assert.deepEqual([bypass.status, bypass.output, bypass.exitCode], ['completed', 'bypassed', 0], JSON.stringify(bypass));
        const quoted = await win.run('terminal_run', { command: `printf '%s\\n' 'a\\b' "x;y" 'q"uote' \\\\`, name: t('main'), timeout: 15_000 });
        assert.deepEqual([quoted.status, quoted.output, quoted.exitCode], ['completed', 'a\\b\nx;y\nq"uote\n\\', 0], JSON.stringify(quoted));
      });

      it('cd persists in the terminal', async () => {
        await win.run('terminal_run', { command: 'cd /tmp', name: t('main') });
        const r = await win.run('terminal_run', { command: 'pwd', name: t('main') });
        assert.equal(r.output, '/tmp');
      });

      it('a multi-line command with a heredoc: one run, whole output, exit code of the last line, variables persist', async () => {
        const command = c.fish
          ? "set -g TSHEP_V persisted\nprintf '%s\\n' 'line one' 'line two'\necho after\nsh -c 'exit 3'"
          : "TSHEP_V=persisted\ncat <<EOF\nline one\nline two\nEOF\necho after\nsh -c 'exit 3'";
        const r = await win.run('terminal_run', { command, name: t('main') });
        assert.equal(r.status, 'completed');
        assert.equal(r.output, 'line one\nline two\nafter');
        assert.equal(r.exitCode, 3);
        const v = await win.run('terminal_run', { command: 'echo $TSHEP_V', name: t('main') });
        // The extension-owned terminal runs each command in a fresh shell: the cwd carries over,
        // shell variables do not (docs/shells.md, the strategies).
        assert.equal(v.output, c.strategies.includes('pseudoterminal') ? '' : 'persisted');
      });

      it('large output: head and tail, the whole in the log file', async () => {
        const r = await win.run('terminal_run', { command: 'seq 1 100000', name: t('main') });
        assert.equal(r.status, 'completed');
        assert.equal(r.truncated, true);
        const lines = r.output.split('\n');
        assert.equal(lines[0], '1');
        assert.equal(lines.at(-1), '100000');
        assert.equal(readFileSync(String(r.outputFile), 'utf8').trimEnd().split('\n').length, 100000);
      });

      it('Ctrl+C gives the interrupt exit code (130)', async () => {
        const started = await win.run('terminal_run', { command: 'sleep 30', name: t('main'), waitMode: 'background' });
        assert.equal(started.status, 'running');
        const stopped = await win.run('terminal_input', { name: t('main'), text: '\u0003' });
        assert.equal(stopped.status, 'completed');
        assert.equal(stopped.exitCode, 130);
      });

      it('ten commands in a row, each with its own exact output and exit code', async () => {
        for (let i = 0; i < 10; i++) {
          const r = await win.run('terminal_run', { command: `echo run-${i}; sh -c 'exit ${i}'`, name: t('main') });
          assert.equal(r.status, 'completed', `run ${i}`);
          assert.equal(r.output, `run-${i}`, `run ${i}`);
          assert.equal(r.exitCode, i, `run ${i}`);
        }
      });
    });
  }
});

/**
 * Every byte value twelve times, shuffled with a fixed seed: binary output with control bytes,
 * escape sequences and broken UTF-8, the same on every run. (Random bytes made the test flaky:
 * about one run in ten they open a DCS or OSC string that never ends, and then the terminal
 * rightly shows nothing after it, `binary-done` included.)
 */
function binaryBytes(): Buffer {
  const bytes: number[] = [];
  let seed = 20261124;
  for (let round = 0; round < 12; round++) {
    const block = Array.from({ length: 256 }, (_, i) => i);
    for (let i = block.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const j = seed % (i + 1);
      [block[i], block[j]] = [block[j]!, block[i]!];
    }
    bytes.push(...block);
  }
  return Buffer.from(bytes);
}

describe('bash in a real VS Code: REPLs, stdin, pagers, binary output, nested shells, stray markers', function () {
  this.timeout(180_000);
  const win = suiteWindow(async () => {
    const workspace = makeWorkspace();
    // A repository with more history than a screen: `git log` would stop in a pager.
    execFileSync('sh', ['-c', 'git init -q && for i in $(seq 1 60); do git -c user.email=t@t -c user.name=t commit -q --allow-empty -m "commit $i"; done'], { cwd: workspace });
    writeFileSync(path.join(workspace, 'binary.bin'), binaryBytes());
    return openShepherdWindow({ label: 'bash-extras', workspace });
  });

  it('the python3 REPL: waiting_for_input at >>>, driven through terminal_input to its exit', async () => {
    const started = await win.run('terminal_run', { command: 'python3 -q', name: 'repl' });
    assert.equal(started.status, 'waiting_for_input', JSON.stringify(started));
    assert.equal(started.prompt, '>>>');
    const line = await win.run('terminal_input', { name: 'repl', text: 'print(6 * 7)' });
    assert.equal(line.status, 'waiting_for_input');
    assert.match(line.output, /42\n>>>$/);
    const block = await win.run('terminal_input', { name: 'repl', text: 'for i in range(2):' });
    assert.equal(block.prompt, '...');
    await win.run('terminal_input', { name: 'repl', text: '    print("i", i)' });
    const ran = await win.run('terminal_input', { name: 'repl', text: '' });
    assert.match(ran.output, /i 0\ni 1\n>>>$/);
    const exited = await win.run('terminal_input', { name: 'repl', text: 'exit(3)' });
    assert.equal(exited.status, 'completed');
    assert.equal(exited.exitCode, 3);
  });

  it('cat waiting on stdin is waiting_for_input; input and Ctrl+D end it', async () => {
    const waiting = await win.run('terminal_run', { command: 'cat', name: 'stdin' });
    assert.equal(waiting.status, 'waiting_for_input');
    const echoed = await win.run('terminal_input', { name: 'stdin', text: 'hello cat' });
    assert.equal(echoed.status, 'waiting_for_input');
    const done = await win.run('terminal_input', { name: 'stdin', text: '\u0004' });
    assert.equal(done.status, 'completed');
    assert.equal(done.exitCode, 0);
    assert.equal(done.output, 'hello cat\nhello cat');
  });

  it('git log prints and returns (the pager variables); a pager asked for explicitly is waiting_for_input', async () => {
    const log = await win.run('terminal_run', { command: 'git log --oneline', name: 'pager' });
    assert.equal(log.status, 'completed');
    assert.equal(log.output.split('\n').length, 60);
    const less = await win.run('terminal_run', { command: 'git log | less', name: 'pager' });
    assert.equal(less.status, 'waiting_for_input', JSON.stringify(less));
    const quit = await win.run('terminal_input', { name: 'pager', text: 'q', enter: false });
    assert.equal(quit.status, 'completed');
  });

  it('binary output does not corrupt the next run', async () => {
    const binary = await win.run('terminal_run', { command: 'cat binary.bin; echo; echo binary-done', name: 'binary' });
    assert.equal(binary.status, 'completed');
    assert.match(binary.output, /binary-done$/);
    const clean = await win.run('terminal_run', { command: 'printf "\\033c"; echo clean', name: 'binary' });
    assert.equal(clean.output, 'clean');
    const next = await win.run('terminal_run', { command: "echo next; sh -c 'exit 5'", name: 'binary' });
    assert.deepEqual([next.status, next.output, next.exitCode], ['completed', 'next', 5]);
  });

  it('a nested shell (ssh-like) degrades honestly: its prompt is waiting_for_input, exit code never invented; leaving it ends the run', async () => {
    const nested = await win.run('terminal_run', { command: 'bash --norc --noprofile', name: 'nested' });
    assert.equal(nested.status, 'waiting_for_input', JSON.stringify(nested));
    assert.equal(nested.exitCode, undefined);
    assert.match(String(nested.message), /^`bash` waits for input: a shell or session of its own/);
    const inner = await win.run('terminal_input', { name: 'nested', text: 'echo inside; false' });
    assert.equal(inner.status, 'waiting_for_input', 'the nested shell has no integration: no end, no exit code');
    assert.equal(inner.exitCode, undefined);
    assert.match(inner.output, /inside/);
    const left = await win.run('terminal_input', { name: 'nested', text: 'exit 4' });
    assert.equal(left.status, 'completed');
    assert.equal(left.exitCode, 4);
  });

  it('a leading backslash bypasses an alias, and the run completes (VS Code drops such command lines: they go through a file)', async () => {
    await win.run('terminal_run', { command: "alias ls='echo aliased'", name: 'alias' });
    const aliased = await win.run('terminal_run', { command: 'ls -d /', name: 'alias' });
    assert.equal(aliased.output, 'aliased -d /');
    const bypassed = await win.run('terminal_run', { command: '\\ls -d /', name: 'alias', timeout: 15_000 });
    assert.deepEqual([bypassed.status, bypassed.output, bypassed.exitCode], ['completed', '/', 0], JSON.stringify(bypassed));
    // rm past an alias, aimed at a folder this test made in its own workspace: gone on disk.
    const doomed = path.join(win.workspace, 'tshep-bypass-dir');
    mkdirSync(path.join(doomed, 'inner'), { recursive: true });
    await win.run('terminal_run', { command: "alias rm='echo refused'", name: 'alias' });
    const removed = await win.run('terminal_run', { command: `\\rm -r ${doomed}`, name: 'alias', timeout: 15_000 });
    assert.deepEqual([removed.status, removed.exitCode], ['completed', 0], JSON.stringify(removed));
    assert.equal(existsSync(doomed), false);
  });

  it('a stray end marker printed by a program: the run waits for the real end and says what it could not know', async () => {
    // The sleep outlasts the grace period (3 s by default) by a margin: the OS must contradict the end for all of it.
    const r = await win.run('terminal_run', { command: "printf '\\033]633;D;0\\007'; sleep 5; echo real-end", name: 'stray', timeout: 20_000 });
    assert.equal(r.status, 'completed');
    assert.ok(r.durationMs >= 4900, `not ended early (${r.durationMs} ms)`);
    assert.equal(r.exitCode, undefined, 'never the fake 0');
    assert.match(String(r.message), /end while it was still running/);
    const next = await win.run('terminal_run', { command: 'echo after-stray', name: 'stray' });
    assert.deepEqual([next.status, next.output, next.exitCode], ['completed', 'after-stray', 0]);
  });
});
