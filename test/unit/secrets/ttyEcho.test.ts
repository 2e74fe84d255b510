/**
 * Echo-off detection on real pseudo-terminals (util-linux `script` gives the shell one): a line
 * read with the terminal's echo off is a secret whatever its prompt says; a prompt with echo on,
 * and a readline program (canonical input off), are not. Ground truth is the tty's own termios
 * as `stty` reads it.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BridgeErrorCode } from '../../../extension/src/core/errors';
import { echoOffLineRead, macTerminalDevice, terminalReadsSecret } from '../../../extension/src/core/secrets/ttyEcho';
import { describeWhere } from '../../support/skips';
import { rejectsWith, useTerminalService } from '../service/terminalServiceSupport';

const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/** `stty -a` as printed inside a fresh pseudo-terminal after `setup`. */
function sttyIn(setup: string): string {
  return spawnSync('script', ['-qec', `${setup} stty -a`, '/dev/null'], { encoding: 'utf8', input: '' }).stdout;
}

describeWhere(hasScript, 'needs Linux and util-linux `script` for a pseudo-terminal')('terminal echo: a line read with echo off is a secret', () => {
  const t = useTerminalService();
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    child = undefined;
  });

  /** The pid of a bash that runs `command` on a pseudo-terminal of its own (script's child). */
  async function bashOnPty(command: string): Promise<number> {
    child = spawn('script', ['-qfc', `bash --norc --noprofile -c '${command}'`, '/dev/null'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    const scriptPid = child.pid!;
    for (let i = 0; i < 100; i++) {
      const [pid] = readFileSync(`/proc/${scriptPid}/task/${scriptPid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
      if (pid !== undefined) return pid;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('script started no shell');
  }

  /** What terminalReadsSecret says once the read has surely begun (it settles within a few polls). */
  async function settled(pid: number, expected: boolean): Promise<boolean> {
    let seen = !expected;
    for (let i = 0; i < 50 && seen !== expected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      seen = await terminalReadsSecret(pid);
    }
    return seen;
  }

  it('reads the flags from stty: echo off with canonical input only', () => {
    assert.equal(echoOffLineRead(sttyIn('stty -echo;')), true);
    assert.equal(echoOffLineRead(sttyIn('')), false, 'a fresh terminal echoes');
    assert.equal(echoOffLineRead(sttyIn('stty -echo -icanon;')), false, 'readline-style raw input echoes by itself');
  });

  it('a `read -s` whose prompt names no secret: the terminal reads a secret', async () => {
    const pid = await bashOnPty('read -s -p "Say the magic word> " w');
    assert.equal(await settled(pid, true), true);
  });

  it('a plain `read`: not a secret; nothing is told on Windows or without a shell', async () => {
    const pid = await bashOnPty('read -p "Your name> " n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await terminalReadsSecret(pid), false);
    assert.equal(await terminalReadsSecret(pid, 'win32'), false);
    assert.equal(await terminalReadsSecret(undefined), false);
  });

  it('through the service: a prompt the table does not name is sensitive once the terminal reads with echo off, and terminal_input refuses it', async () => {
    t.setup();
    // The terminal's shell is a real bash on a pseudo-terminal, in a `read -s`.
    t.host.nextPid = await bashOnPty('read -s -p "Say the magic word> " w');
    t.probe.activity = { foreground: 'job', readingTerminal: true, foregroundCommand: './unlock' };
    assert.equal(await settled(t.host.nextPid, true), true);
    t.host.onExecute = (execution) => {
      execution.start();
      execution.push('Say the magic word> ');
    };
    const waiting = await t.service.run({ command: './unlock' });
    assert.equal(waiting.status, 'waiting_for_input');
    assert.equal(waiting.sensitive, true, JSON.stringify(waiting));
    assert.match(String(waiting.message), /The user must type it in terminal "default" themselves/);
    await rejectsWith(t.service.input({ name: 'default', text: 'abracadabra' }), BridgeErrorCode.SensitivePrompt, /asks for a secret \("Say the magic word>"\)/);
    assert.deepEqual(t.host.last.sentText, [], 'nothing was typed');
  });
});

/**
 * BSD stty (macOS) as its print.c lays `stty -a` out: the flags under labels, continued on
 * tab-indented lines, every flag printed with `-` when off. No Mac here: the layout is the source's.
 */
const bsdStty = (lflags: string): string =>
  [
    'speed 9600 baud; 24 rows; 80 columns;',
    `lflags: ${lflags} echoe -echok echoke -echonl echoctl`,
    '\t-echoprt -altwerase -noflsh -tostop -flusho pendin -nokerninfo',
    '\t-extproc',
    'iflags: -istrip icrnl -inlcr -igncr ixon -ixoff ixany imaxbel iutf8',
    '\t-ignbrk brkint -inpck -ignpar -parmrk',
    'oflags: opost onlcr -oxtabs -onocr -onlret',
    'cflags: cread cs8 -parenb -parodd hupcl -clocal -cstopb -crtscts -dsrflow',
    '\t-dtrflow -mdmbuf',
    'cchars: discard = ^O; dsusp = ^Y; eof = ^D; eol = <undef>;',
    '\teol2 = <undef>; erase = ^?; intr = ^C; kill = ^U; lnext = ^V;',
    '\tmin = 1; quit = ^\\; reprint = ^R; start = ^Q; status = ^T;',
    '\tstop = ^S; susp = ^Z; time = 0; werase = ^W;',
    '',
  ].join('\n');

describe('terminal echo on macOS (BSD stty, ps)', () => {
  it("reads BSD stty's flags: a password read (echo off, canonical), a shell's line editor (raw), a plain read", () => {
    assert.equal(echoOffLineRead(bsdStty('icanon isig iexten -echo')), true);
    assert.equal(echoOffLineRead(bsdStty('-icanon isig iexten -echo')), false, "zsh's line editor echoes by itself");
    assert.equal(echoOffLineRead(bsdStty('icanon isig iexten echo')), false);
  });

  it('names the terminal device from `ps -o tty=`; none for a process without one', () => {
    assert.equal(macTerminalDevice('ttys003\n'), '/dev/ttys003');
    assert.equal(macTerminalDevice(' ttys012 '), '/dev/ttys012');
    assert.equal(macTerminalDevice('??\n'), undefined);
    assert.equal(macTerminalDevice(''), undefined);
    assert.equal(macTerminalDevice('pts/3'), undefined, "Linux's ps names no macOS device");
  });
});
