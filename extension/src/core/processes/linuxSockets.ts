/**
 * Linux sockets from /proc: the TCP ports processes listen on (net/tcp and net/tcp6 of each
 * network namespace, matched to the socket inodes in /proc/PID/fd) and who holds a port.
 */
import { readdirSync } from 'node:fs';
import { parseProcNetTcpListen, socketInode } from './linuxProcParsers';
import { YIELD_EVERY, yieldToEventLoop, type ProcReader } from './procReader';
import { isActionablePid } from './types';

export class LinuxSockets {
  constructor(
    private readonly reader: ProcReader,
    private readonly root: string,
  ) {}

  async listeningPorts(pids: number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    // Sockets are per network namespace: read each namespace's table once, through a member.
    const tables = new Map<string, Map<string, number>>();
    for (const pid of new Set(pids)) {
      if (!isActionablePid(pid)) {
        continue;
      }
      const ns = this.reader.readLink(`${this.root}/${pid}/ns/net`) ?? 'self';
      let listening = tables.get(ns);
      if (!listening) {
        listening = this.readListenTable(ns === 'self' ? `${this.root}/net` : `${this.root}/${pid}/net`);
        tables.set(ns, listening);
      }
      if (listening.size === 0) {
        continue;
      }
      const ports = new Set<number>();
      for (const inode of this.socketsOf(pid)) {
        const port = listening.get(inode);
        if (port !== undefined) {
          ports.add(port);
        }
      }
      if (ports.size > 0) {
        result.set(pid, [...ports].sort((a, b) => a - b));
      }
    }
    return result;
  }

  async socketInodes(pids: number[]): Promise<string[]> {
    const inodes = new Set<string>();
    for (const pid of new Set(pids)) {
      if (isActionablePid(pid)) {
        this.socketsOf(pid).forEach((inode) => inodes.add(inode));
      }
    }
    return [...inodes].sort();
  }

  async portHolders(port: number): Promise<number[]> {
    // The extension's own network namespace: the one its terminals' servers bind in.
    const inodes = new Set([...this.readListenTable(`${this.root}/net`)].filter(([, p]) => p === port).map(([inode]) => inode));
    if (inodes.size === 0) {
      return [];
    }
    const holders: number[] = [];
    let sinceYield = 0;
    for (const name of readdirSync(this.root)) {
      const pid = Number(name);
      if (!isActionablePid(pid)) {
        continue;
      }
      if (this.socketsOf(pid).some((inode) => inodes.has(inode))) {
        holders.push(pid);
      }
      if (++sinceYield === YIELD_EVERY) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
    return holders;
  }

  private readListenTable(netDir: string): Map<string, number> {
    const table = new Map<string, number>();
    for (const file of ['tcp', 'tcp6']) {
      const text = this.reader.read(`${netDir}/${file}`, true);
      if (text) {
        parseProcNetTcpListen(text, table);
      }
    }
    return table;
  }

  /** The socket inodes a process holds; none when it is gone or another user's. */
  private socketsOf(pid: number): string[] {
    let fds: string[];
    try {
      fds = readdirSync(`${this.root}/${pid}/fd`);
    } catch {
      return [];
    }
    const inodes: string[] = [];
    for (const fd of fds) {
      const inode = socketInode(this.reader.readLink(`${this.root}/${pid}/fd/${fd}`) ?? '');
      if (inode !== undefined) {
        inodes.push(inode);
      }
    }
    return inodes;
  }
}
