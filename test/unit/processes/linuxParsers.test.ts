import assert from 'node:assert/strict';
import {
  blockedReadFd,
  isPollWchan,
  isTerminalDevice,
  isTtyReadWchan,
  parseBtime,
  parseChildren,
  parseCmdline,
  parseProcNetTcpListen,
  parseProcStat,
  selectsOnlyStdin,
  socketInode,
  ticksToIso,
} from '../../../extension/src/core/processes/linuxProcParsers';
import { fixture } from './helpers';

describe('Linux /proc parsers', () => {
  it('parses stat from the LAST parenthesis: a name with spaces and ")" does not shift fields', () => {
    const st = parseProcStat(fixture('linux-stat-evil-comm.txt'))!;
    assert.equal(st.pid, 4242);
    assert.equal(st.comm, 'evil) S 1 (x) R');
    assert.equal(st.state, 'S');
    assert.equal(st.ppid, 4100);
    assert.equal(st.pgrp, 4242);
    assert.equal(st.session, 4100);
    assert.equal(st.ttyNr, 34818);
    assert.equal(st.tpgid, 4300);
    assert.equal(st.numThreads, 3);
    assert.equal(st.startTicks, '84027');
    assert.equal(st.startCode, '94379996094464');
    assert.equal(st.startStack, '140731232129616');
  });

  it('parses a zombie with a unicode name', () => {
    const st = parseProcStat(fixture('linux-stat-zombie.txt'))!;
    assert.equal(st.comm, 'Web Content 😀');
    assert.equal(st.state, 'Z');
    assert.equal(st.tpgid, -1);
    assert.equal(st.startTicks, '99001');
  });

  it('rejects text that is not a stat line', () => {
    assert.equal(parseProcStat(''), undefined);
    assert.equal(parseProcStat('12 (x) S 1 2'), undefined);
    assert.equal(parseProcStat('no parens at all'), undefined);
  });

  it('joins NUL-separated command lines and keeps spaces inside arguments', () => {
    assert.equal(parseCmdline('node\0/srv/my app/server.js\0--title=a b\0'), 'node /srv/my app/server.js --title=a b');
    assert.equal(parseCmdline('nginx: worker process\0\0\0'), 'nginx: worker process');
    assert.equal(parseCmdline(''), '');
  });

  it('converts start ticks (USER_HZ 100) and btime to ISO time', () => {
    assert.equal(parseBtime('cpu  1 2 3\nbtime 1700000000\nprocesses 5\n'), 1700000000);
    assert.equal(parseBtime('cpu 1\n'), undefined);
    assert.equal(ticksToIso('12345', 1700000000), new Date(1700000000_000 + 123_450).toISOString());
  });

  it('parses children lists', () => {
    assert.deepEqual(parseChildren('123 456 789 '), [123, 456, 789]);
    assert.deepEqual(parseChildren(''), []);
  });

  it('finds LISTEN sockets (state 0A) in tcp and tcp6 tables, by inode', () => {
    const table = parseProcNetTcpListen(fixture('linux-net-tcp.txt'));
    parseProcNetTcpListen(fixture('linux-net-tcp6.txt'), table);
    assert.deepEqual(
      [...table].sort((a, b) => a[1] - b[1]),
      [
        ['52001', 3000],
        ['61001', 5173],
        ['11597', 8123],
        ['61002', 9221],
      ],
    );
  });

  it('recognises socket links, terminal devices and tty-read wait channels', () => {
    assert.equal(socketInode('socket:[52001]'), '52001');
    assert.equal(socketInode('pipe:[52001]'), undefined);
    assert.equal(socketInode('/dev/pts/3'), undefined);
    for (const tty of ['/dev/pts/0', '/dev/pts/17', '/dev/tty1', '/dev/ttyS0', '/dev/ttyUSB0', '/dev/tty', '/dev/console']) {
      assert.equal(isTerminalDevice(tty), true, tty);
    }
    for (const not of ['/dev/null', 'pipe:[1]', 'socket:[2]', '/dev/ptmx', '/home/u/tty1', 'anon_inode:[eventpoll]']) {
      assert.equal(isTerminalDevice(not), false, not);
    }
    assert.equal(isTtyReadWchan('wait_woken'), true);
    assert.equal(isTtyReadWchan('n_tty_read'), true);
    assert.equal(isTtyReadWchan('wait_woken.constprop.0'), true);
    for (const w of ['poll_schedule_timeout.constprop.0', 'do_wait', 'ep_poll', 'do_epoll_wait', 'hrtimer_nanosleep', 'pipe_read', '0']) {
      assert.equal(isTtyReadWchan(w), false, w);
    }
  });

  it('reads the fd of a blocked read from /proc/PID/syscall, per architecture', () => {
    assert.equal(blockedReadFd('0 0x3 0x7ffd8 0x1 0x0 0x0 0x0 0x7ffd 0x7f5f', 'x64'), 3, 'read(3) on x86-64');
    assert.equal(blockedReadFd('19 0x0 0x7ffd8 0x2 0x0 0x0 0x0 0x7ffd 0x7f5f', 'x64'), 0, 'readv(0)');
    assert.equal(blockedReadFd('63 0xa 0x0 0x0 0x0 0x0 0x0 0x0 0x0', 'arm64'), 10, 'read(10) on arm64');
    assert.equal(blockedReadFd('45 0x5 0x0 0x0 0x0 0x0 0x0 0x0 0x0', 'x64'), undefined, 'recvfrom is not a tty read');
    assert.equal(blockedReadFd('270 0xfb 0x7ffe 0x0 0x0 0x0 0x0 0x0 0x0', 'x64'), undefined, 'pselect6');
    assert.equal(blockedReadFd('running', 'x64'), null);
    assert.equal(blockedReadFd('-1 0x7ffd 0x7f5f', 'x64'), null);
    assert.equal(blockedReadFd('0 0x3 0x0', 'mips'), null, 'unknown architecture: caller falls back to fd 0');
  });

  it('select()/pselect6() on stdin alone is a REPL waiting; other polls are not', () => {
    assert.equal(isPollWchan('poll_schedule_timeout.constprop.0'), true);
    assert.equal(isPollWchan('do_epoll_wait'), false);
    assert.equal(selectsOnlyStdin('270 0x1 0x7ffcfc68bab0 0x0 0x0 0x0 0x0 0x7ffcfc68ba20 0x7f1643b1c954', 'x64'), true);
    assert.equal(selectsOnlyStdin('23 0x1 0x7ffc 0x0 0x0 0x0 0x0 0x7ffc 0x7f16', 'x64'), true);
    assert.equal(selectsOnlyStdin('270 0x5 0x7ffc 0x0 0x0 0x0 0x0 0x7ffc 0x7f16', 'x64'), false, 'fds 0-4: a server, not a REPL');
    assert.equal(selectsOnlyStdin('7 0x7ffc 0x1 0xffffffff 0x0 0x0 0x0 0x7ffc 0x7f16', 'x64'), false, 'poll: fds unknown');
    assert.equal(selectsOnlyStdin('72 0x1 0x7ffc 0x0 0x0 0x0 0x0 0x7ffc 0x7f16', 'arm64'), true);
    assert.equal(selectsOnlyStdin('running', 'x64'), false);
  });
});
