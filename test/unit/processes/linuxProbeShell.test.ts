/**
 * probeShell on a REAL interactive bash under a REAL pseudo terminal (util-linux `script`), the
 * way a VS Code terminal runs it: bash with job control owns the pty, each command gets its own
 * foreground process group.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DarwinProcessMonitor } from '../../../extension/src/core/processes/darwinProcessMonitor';
import { LinuxProcessMonitor } from '../../../extension/src/core/processes/linuxProcessMonitor';
import type { ShellActivity } from '../../../extension/src/core/processes/types';
import { ProcessJanitor, hasCommand, waitFor } from './helpers';

const skipReason =
  process.platform !== 'linux'
    ? 'not Linux'
    : !hasCommand('script')
      ? 'util-linux `script` is not installed, so no real pty can be made'
      : undefined;

describe('LinuxProcessMonitor.probeShell (real bash under a real pty)', function () {
  this.timeout(30_000);
  const monitor = new LinuxProcessMonitor();
  const darwin = new DarwinProcessMonitor();
  const janitor = new ProcessJanitor();
  let term: ChildProcess;
  let shellPid: number;

  before(async function () {
    if (skipReason) {
      console.warn(`\n    !!! SKIPPING probeShell pty tests: ${skipReason} !!!\n`);
      this.skip();
    }
    term = janitor.spawn('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TERM: 'xterm', PS1: '$ ', HISTFILE: '/dev/null' },
    });
    term.stdout?.resume(); // drain the pty's echo so the shell never blocks writing
    term.stderr?.resume();
    const shell = await waitFor('the interactive bash', async () =>
      (await monitor.descendants(term.pid!)).find((p) => p.commandLine === 'bash --norc --noprofile -i'),
    );
    shellPid = shell.pid;
  });

  after(() => {
    janitor.cleanup();
    monitor.dispose();
  });

  const type = (text: string): void => {
    term.stdin!.write(text);
  };
  const until = (what: string, ok: (a: ShellActivity) => boolean): Promise<ShellActivity> =>
    waitFor(what, async () => {
      const a = await monitor.probeShell(shellPid);
      return ok(a) ? a : undefined;
    }, 8000);

  it('at the prompt: the shell owns the terminal and is not blocked reading it', async () => {
    const a = await until('idle prompt', (x) => x.foreground === 'shell');
    assert.equal(a.readingTerminal, false, 'bash waits for keys in poll(), not in a tty read');
    assert.deepEqual(a.foregroundPids, [shellPid]);
    assert.deepEqual(await darwin.probeShell(shellPid), { foreground: 'shell', readingTerminal: 'unknown' });
  });

  it('during `sleep 5`: a job holds the terminal and does not read it', async () => {
    type('sleep 5\n');
    // Right after the fork the job is still a bash child on its way to exec (wchan says nothing
    // yet: 'unknown' is the honest answer then); wait for sleep itself, settled in its syscall.
    const a = await until('sleep in the foreground', (x) => x.foreground === 'job' && x.foregroundCommand === 'sleep 5' && x.readingTerminal !== 'unknown');
    assert.equal(a.readingTerminal, false);
    assert.equal(a.foregroundCommand, 'sleep 5');
    assert.equal(a.foregroundPids?.length, 1);
    // The macOS code path reads the same facts through ps (stat '+', tpgid): procps stands in here.
    assert.equal((await darwin.probeShell(shellPid)).foreground, 'job');
    type('\x03'); // Ctrl-C ends it
    await until('back at the prompt', (x) => x.foreground === 'shell' && x.readingTerminal === false);
  });

  it('during the builtin `read -p`: the shell owns the terminal AND reads it', async () => {
    type('read -p "x? " v\n');
    const a = await until('read blocking', (x) => x.foreground === 'shell' && x.readingTerminal === true);
    assert.deepEqual(a.foregroundPids, [shellPid]);
    type('answer\n');
    await until('back at the prompt', (x) => x.foreground === 'shell' && x.readingTerminal === false);
  });

  it('a child blocked on input(): job, reading the terminal', async function () {
    if (!hasCommand('python3')) {
      console.warn('    (python3 missing: using `head -n1` as the reading child)');
    }
    type(hasCommand('python3') ? 'python3 -c "input()"\n' : 'head -n1\n');
    const a = await until('the child reading', (x) => x.foreground === 'job' && x.readingTerminal === true);
    assert.ok(a.foregroundPids && a.foregroundPids.length >= 1);
    type('\n');
    await until('back at the prompt', (x) => x.foreground === 'shell');
  });

  it('the python3 REPL, which waits in select() on stdin rather than read(): job, reading the terminal', async function () {
    if (!hasCommand('python3')) {
      console.warn('    !!! SKIPPING python3 REPL case: python3 is not installed !!!');
      this.skip();
    }
    type('python3 -q\n');
    const a = await until('the REPL waiting', (x) => x.foreground === 'job' && x.readingTerminal === true);
    assert.match(a.foregroundCommand ?? '', /python3/);
    type('exit()\n');
    await until('back at the prompt', (x) => x.foreground === 'shell');
  });

  it('a pager reading /dev/tty on another fd than stdin (`seq | less`): job, reading the terminal', async function () {
    if (!hasCommand('less')) {
      console.warn('    !!! SKIPPING pager case: less is not installed !!!');
      this.skip();
    }
    type('seq 100000 | less\n');
    const a = await until('less waiting for a key', (x) => x.foreground === 'job' && x.readingTerminal === true);
    assert.equal(a.foregroundPids?.length, 2, 'both members of the pipeline group');
    type('q');
    await until('back at the prompt', (x) => x.foreground === 'shell');
  });

  it('a process blocked in epoll (a dev server) is a job that does not read the terminal', async () => {
    type(`${process.execPath} -e "setInterval(() => {}, 1000)"\n`);
    // Until the fork has exec'd node: before that the job is a copy of bash.
    const a = await until('node running', (x) => x.foreground === 'job' && /setInterval/.test(x.foregroundCommand ?? ''));
    await new Promise((r) => setTimeout(r, 300)); // let node settle into its event loop
    const b = await monitor.probeShell(shellPid);
    assert.equal(b.foreground, 'job');
    assert.equal(b.readingTerminal, false);
    assert.match(a.foregroundCommand ?? '', /setInterval/);
    type('\x03');
    await until('back at the prompt', (x) => x.foreground === 'shell');
  });

  it('without job control (set +m) a command in the shell’s own group still counts as a job', async () => {
    type('set +m\n');
    await until('prompt', (x) => x.foreground === 'shell');
    type('sleep 5\n');
    // Just after exec, before it sleeps in nanosleep, the kernel may show no wait point ('unknown'): wait for a verdict.
    const a = await until('sleep in the shell group', (x) => x.foreground === 'job' && /sleep/.test(x.foregroundCommand ?? '') && x.readingTerminal !== 'unknown');
    assert.equal(a.readingTerminal, false);
    type('\x03');
    await until('back at the prompt', (x) => x.foreground === 'shell');
    // A job started in the background without job control (fish does so at its first start) is
    // detached from the terminal: it does not hold it.
    type('sleep 5 </dev/null >/dev/null 2>&1 &\n');
    await new Promise((r) => setTimeout(r, 300));
    const b = await monitor.probeShell(shellPid);
    assert.equal(b.foreground, 'shell');
    type('kill %1; set -m\n');
  });

  it('a tty-less process is unknown; a pid with no process, or a zombie, is gone', async () => {
    assert.deepEqual(await monitor.probeShell(2 ** 22 + 4321), { foreground: 'gone', readingTerminal: false });
    assert.deepEqual(await monitor.probeShell(0), { foreground: 'unknown', readingTerminal: 'unknown' }, 'not a pid to ask about');
    const daemon = janitor.spawn('sleep', ['30'], { detached: true }); // setsid-like: no controlling tty
    await waitFor('sleep', async () => (await monitor.descendants(process.pid)).some((p) => p.pid === daemon.pid && p.name === 'sleep'));
    const a = await monitor.probeShell(daemon.pid!);
    assert.equal(a.foreground, 'unknown');
    // A zombie: its parent (bash exec'ing into a sleeper, which never reaps) has not waited for it.
    const parent = janitor.spawn('bash', ['-c', 'sleep 0.05 & exec sleep 30'], { detached: true });
    const zombie = await waitFor('the zombie child', () => {
      const children = readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      return children.find((pid) => /^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')));
    });
    assert.deepEqual(await monitor.probeShell(zombie), { foreground: 'gone', readingTerminal: false });
  });

  it('an interactive shell killed with SIGKILL: gone', async () => {
    const victim = janitor.spawn('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    victim.stdout?.resume();
    victim.stderr?.resume();
    const shell = await waitFor('the victim bash', async () => (await monitor.descendants(victim.pid!)).find((p) => p.name === 'bash'));
    await waitFor('its prompt', async () => ((await monitor.probeShell(shell.pid)).foreground === 'shell' ? true : undefined));
    process.kill(shell.pid, 'SIGKILL');
    await waitFor('gone', async () => ((await monitor.probeShell(shell.pid)).foreground === 'gone' ? true : undefined));
  });
});
