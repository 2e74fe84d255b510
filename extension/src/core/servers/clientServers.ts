/**
 * The never-twice rule for dev servers an MCP client's own tools started (Claude Code's Bash tool
 * running `npm run dev &`), outside managed terminals: the ledger records them as the client's
 * (service/clientProcesses.ts), and a terminal_run of the same server is answered already_running,
 * naming that client and its session, as for a server in another session's terminal.
 *
 * The same server: a process of the client's tools listening on the port the command asks for
 * (`--port 5173`, `PORT=5173`), or one running the same command (the same key as commandKey gives,
 * compared without quotes since the OS keeps none; or a shell whose script runs it) in the same
 * folder (its working directory, from the OS). Where the OS cannot tell a folder (no
 * workingDirectory), only the port counts.
 */
import type { DevServer, TrackedProcess } from '../../../../common/src/protocol';
import { ownerLabel } from '../../../../common/src/format';
import { samePath } from '../fsUtil';
import { flattenProcesses as flatten } from '../ledger/processForest';
import { commandKey } from './commandKey';
import { portFromCommand } from './serverOutput';

/** A client's own server found running: how already_running shows it, and whose it is. */
export interface ClientServer {
  readonly server: DevServer;
  /** "claude's own tools (client pid 4242, claude), claude session 9f1c…" */
  readonly owner: string;
}

/** Shells whose `-c` script is the command a client's shell tool ran. */
const SHELL = /^(\S*\/)?(ba|da|z|k|mk|fi)?sh(\.exe)?$/;

/** Reads a process's working directory (undefined: gone or unknown). */
export type WorkingDirectoryOf = (pid: number) => Promise<string | undefined>;

/**
 * The client-owned server `command` would start again in `cwd`, among the ledger's running
 * processes (`active`, trees as the ledger lists them), or undefined.
 */
export async function findClientServer(command: string, cwd: string | undefined, active: readonly TrackedProcess[], cwdOf: WorkingDirectoryOf | undefined, uptimeOf: (startedAt: string) => number): Promise<ClientServer | undefined> {
  const own = flatten(active).filter((p) => p.clientTools !== undefined && p.status === 'running');
  if (own.length === 0) return undefined;
  const port = portFromCommand(command);
  const byPort = port === undefined ? undefined : own.find((p) => p.ports.includes(port));
  if (byPort) return clientServer(byPort, own, await cwdOf?.(byPort.pid), uptimeOf);
  if (cwd === undefined || !cwdOf) return undefined;
  for (const candidate of own.filter((p) => runsCommand(p.commandLine, command))) {
    const where = await cwdOf(candidate.pid);
    if (where !== undefined && samePath(where, cwd)) return clientServer(candidate, own, where, uptimeOf);
  }
  return undefined;
}

/** Whether an OS command line (no quotes) runs `command`: the same key, or a shell's `-c` script that runs it. */
export function runsCommand(commandLine: string, command: string): boolean {
  const unquoted = (text: string): string => text.replace(/["']/g, '').replace(/\s+/g, ' ').trim();
  const line = unquoted(commandLine);
  const wanted = unquoted(command).replace(/[\s;&]+$/, '');
  if (wanted === '') return false;
  if (commandKey(line) === commandKey(wanted)) return true;
  const [program, ...args] = line.split(' ');
  if (!SHELL.test(program ?? '') || !args.some((a) => /^-\w*c\w*$/.test(a))) return false;
  // A whole command of the script: not `npm run dev:api` for `npm run dev`.
  const at = line.indexOf(wanted);
  for (let i = at; i >= 0; i = line.indexOf(wanted, i + 1)) {
    const before = line[i - 1];
    const after = line[i + wanted.length];
    if ((before === undefined || /[\s;&|(]/.test(before)) && (after === undefined || /[\s;&|)]/.test(after))) return true;
  }
  return false;
}

/** The server as already_running shows it: the tree under the topmost process of the client's that leads to `found`. */
function clientServer(found: TrackedProcess, own: readonly TrackedProcess[], cwd: string | undefined, uptimeOf: (startedAt: string) => number): ClientServer {
  const byPid = new Map(own.map((p) => [p.pid, p]));
  let root = found;
  for (let parent = byPid.get(root.parentPid); parent && parent.clientTools?.pid === found.clientTools?.pid; parent = byPid.get(parent.parentPid)) root = parent;
  const tree = subtree(root, own);
  const ports = [...new Set(tree.flatMap((p) => p.ports))].sort((a, b) => a - b);
  return {
    owner: ownerLabel(root) ?? root.terminalName,
    server: {
      terminal: root.terminalName,
      command: found.commandLine,
      ...(cwd !== undefined ? { cwd } : {}),
      pid: root.pid,
      ports,
      urls: ports.map((p) => `http://localhost:${p}/`),
      startedAt: root.startedAt,
      uptimeMs: uptimeOf(root.startedAt),
      status: 'running',
    },
  };
}

function subtree(root: TrackedProcess, all: readonly TrackedProcess[]): TrackedProcess[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...all.filter((p) => p.parentPid === out[i]!.pid && !out.includes(p)));
  return out;
}
