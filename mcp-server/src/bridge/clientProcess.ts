/**
 * The MCP client's own process: the nearest ancestor of this server that is not a launcher (the
 * shell of `sh -c`, npx, cmd running the launcher script). The window watches what that client's
 * own tools start (client/attach); the launchers and this server are its path, never recorded.
 * Linux reads /proc; macOS asks `ps`; Windows asks CIM through PowerShell. Any failure: unknown.
 */
import path from 'node:path';
import { processLookup, type ProcessLookup } from './ancestry';

/** How many launchers may sit between the server and its client. */
const MAX_LAUNCHERS = 8;

export interface ClientProcess {
  readonly pid: number;
  /** This server's pid, then each launcher's, nearest first. */
  readonly serverPath: number[];
}

/** Programs that only start another: shells, env, package runners. A client is none of these. */
const LAUNCHERS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'cmd', 'powershell', 'pwsh', 'env', 'npx', 'npm', 'pnpm', 'yarn', 'bunx', 'uvx', 'nohup', 'timeout']);

/** Whether the command line is a launcher's (`/bin/sh -c ...`, `node .../npx-cli.js ...`, `cmd.exe /c ...`). */
export function isLauncher(commandLine: string): boolean {
  const words = commandLine.trim().split(/\s+/);
  const program = (word: string | undefined): string => path.basename((word ?? '').replace(/\\/g, '/')).replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
  if (LAUNCHERS.has(program(words[0]))) return true;
  // npx and npm are node scripts: `node /usr/lib/node_modules/npm/bin/npx-cli.js`.
  return program(words[0]) === 'node' && /^(npx|npm)-cli\.js$/.test(program(words[1]));
}

/** Walks up from `pid` past the launchers; undefined when the chain ends (pid 1, unreadable) before a client. */
export async function findClient(pid: number, lookup: ProcessLookup): Promise<ClientProcess | undefined> {
  const serverPath = [pid];
  let row = await lookup(pid);
  for (let hops = 0; row && row.ppid > 1 && hops <= MAX_LAUNCHERS; hops++) {
    const parent = await lookup(row.ppid);
    if (!parent) return undefined;
    if (!isLauncher(parent.commandLine)) return { pid: row.ppid, serverPath };
    serverPath.push(row.ppid);
    row = parent;
  }
  return undefined;
}

/** This server's client process, or undefined when it cannot be told. */
export async function clientProcess(platform: NodeJS.Platform = process.platform, pid: number = process.pid): Promise<ClientProcess | undefined> {
  try {
    return await findClient(pid, await processLookup(platform, true));
  } catch {
    return undefined;
  }
}
