/**
 * Which VS Code window a server started outside VS Code talks to, and what it says when there is
 * none. In order:
 *   1. the bridge VS Code passed in the environment (VS Code's own MCP client started us);
 *   2. the workspace asked for: with --workspace (or TERMINAL_SHEPHERD_WORKSPACE) that folder's
 *      .devtools/bridge.json only; otherwise the client's working directory and every folder
 *      above it, nearest first (a client started in a subfolder of an open workspace finds it);
 *   3. when no folder was given and none of those has a window: the window whose extension host
 *      started us (an extension's MCP client, such as Cline's or Continue's, runs in VS Code's own
 *      working directory). The process ancestry is read only then: on Windows it costs a CIM query.
 */
import path from 'node:path';
import { bridgeFilePath, readBridgeFile } from '../../../common/src/bridgeDiscovery';
import { readWindowRecords, type WindowRecord } from '../../../common/src/shepherdHome';

export interface BridgeTarget {
  readonly endpoint: string;
  readonly token: string;
}

export interface Candidate {
  /** Where it was found, for messages ("the environment", a bridge.json path). */
  readonly source: string;
  readonly target: BridgeTarget;
}

export interface WorkspaceQuery {
  /** The folder asked for (--workspace) or the client's working directory. */
  readonly folder: string;
  /** True when the folder was given explicitly: look there only. */
  readonly exact: boolean;
}

export interface DiscoveryOptions {
  readonly target?: BridgeTarget;
  readonly workspace?: WorkspaceQuery;
  /** ~/.terminal-shepherd (window records); absent: no lookup by process. */
  readonly shepherdRoot?: string;
  /** This process's ancestors, nearest first. */
  readonly ancestors?: () => Promise<number[]>;
}

/** The folder and, unless exact, every folder above it, nearest first. */
export function searchFolders(query: WorkspaceQuery): string[] {
  const folders = [path.resolve(query.folder)];
  if (query.exact) return folders;
  for (;;) {
    const up = path.dirname(folders[folders.length - 1]!);
    if (up === folders[folders.length - 1]) return folders;
    folders.push(up);
  }
}

export interface Discovery {
  readonly candidates: Candidate[];
  /** Windows open now (for the message when none answers). */
  readonly openWindows: WindowRecord[];
}

async function advertisedIn(folder: string): Promise<Candidate | undefined> {
  const file = bridgeFilePath(folder);
  const advertised = await readBridgeFile(file);
  return advertised ? { source: file, target: { endpoint: advertised.endpoint, token: advertised.token } } : undefined;
}

export async function discoverBridges(options: DiscoveryOptions): Promise<Discovery> {
  const candidates: Candidate[] = [];
  const add = (candidate: Candidate | undefined): void => {
    if (candidate && !candidates.some((c) => c.target.endpoint === candidate.target.endpoint)) candidates.push(candidate);
  };
  if (options.target) add({ source: 'the bridge VS Code passed in the environment', target: options.target });
  for (const folder of options.workspace ? searchFolders(options.workspace) : []) add(await advertisedIn(folder));
  const openWindows = options.shepherdRoot ? await readWindowRecords(options.shepherdRoot) : [];
  const byFolder = candidates.length - (options.target ? 1 : 0);
  if (byFolder === 0 && !options.workspace?.exact && openWindows.length > 0 && options.ancestors) {
    const ancestors = await options.ancestors();
    const parent = ancestors.map((pid) => openWindows.find((w) => w.pid === pid)).find((w) => w !== undefined);
    if (parent) add(await advertisedIn(parent.workspaceFolder));
  }
  return { candidates, openWindows };
}

/** What the agent (and the person) reads when no window answers: where we looked, what is open, what to do. */
export function unreachableMessage(query: WorkspaceQuery | undefined, openWindows: readonly WindowRecord[], failures: readonly string[]): string {
  const folder = query ? path.resolve(query.folder) : undefined;
  const looked = !folder
    ? 'No VS Code window with the Terminal Shepherd extension is reachable'
    : query!.exact
      ? `No VS Code window with the Terminal Shepherd extension serves ${folder}: there is no live ${bridgeFilePath(folder)}`
      : `No VS Code window with the Terminal Shepherd extension serves ${folder}: no live .devtools/bridge.json in it or any folder above it`;
  const todo = ` Open ${folder ?? 'the folder'}${folder && !query!.exact ? ' (or a folder that contains it)' : ''} in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry.`;
  const others =
    openWindows.length > 0
      ? ` Windows with Terminal Shepherd open now: ${openWindows.map((w) => w.workspaceFolder).join(', ')}; to use one, start the server in that folder or pass --workspace <folder>.`
      : '';
  const tried = failures.length > 0 ? ` (Tried ${failures.join('; ')}.)` : '';
  // A sandbox that blocks Unix sockets (seccomp) refuses the connect with EPERM: the window is there, this process may not reach it.
  if (failures.some((failure) => failure.includes('(EPERM)'))) return `${SANDBOXED_SERVER}${tried}`;
  return `${looked}.${todo}${others}${tried}`;
}

const SANDBOXED_SERVER =
  "This MCP server runs in a sandbox that blocks Unix sockets, so it cannot reach its VS Code window's bridge (EPERM). " +
  'The sandbox is the MCP server sandbox: VS Code\'s agent host with chat.agent.sandbox on (MCP servers run sandboxed), `"sandboxEnabled": true` for this server in mcp.json, or a wrapper such as srt. ' +
  "Start Terminal Shepherd's server outside it (with chat.agent.sandbox.enabled on, the commands it runs are sandboxed in the window anyway), " +
  'or let it use Unix sockets (the sandbox runtime\'s network.allowAllUnixSockets: true), then retry.';

