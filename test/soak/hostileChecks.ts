/**
 * Hostile input against the real chain: generated tool calls through the MCP server, and
 * malformed frames on the bridge socket. Nothing may crash or hang, every call must be answered
 * (clearly, when refused), nothing outside the ledger may die, and nothing may be served on a
 * connection that did not present the token.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { readBridgeFile, bridgeFilePath } from '../../common/src/bridgeDiscovery';
import { silentLogger } from '../../common/src/logger';
import { PROTOCOL_VERSION, methods, type ListProcessesResult, type ListResult } from '../../common/src/protocol';
import { BridgeClient } from '../../mcp-server/src/bridge/bridgeClient';
import { alive, extensionHostMemory, flatten, ledgerEvents, type ShepherdWindow } from '../support/shepherdE2e';
import { frame, generateFrames } from './bridgeFrames';
import { callTool, isClearError, type Outcome } from './calls';
import { FUZZ_TERMINALS, TOOLS, generateHostileCalls, type ForeignPids, type PidRef } from './hostileCalls';
import type { Random } from './random';
import { latency, signedMb, type Check } from './report';

/** Pids that must outlive the suite: the system's and other processes', none the ledger owns. */
export interface Bystanders {
  readonly pids: ForeignPids;
  /** A process started by the suite itself, outside any terminal. */
  readonly sentinel: number;
  stop(): void;
}

export function startBystanders(win: ShepherdWindow, mcpServerPid: number | undefined): Bystanders {
  const sentinel = spawn('sleep', ['3600'], { detached: true, stdio: 'ignore' });
  sentinel.unref();
  const others = [win.vscode.driver.hello!.pid, win.vscode.serverPid, process.pid, sentinel.pid!, ...(mcpServerPid ? [mcpServerPid] : [])];
  return {
    pids: { system: [1, 2], others },
    sentinel: sentinel.pid!,
    stop: () => sentinel.kill('SIGKILL'),
  };
}

/** Pids of the window that change as the calls go: shells of managed terminals, processes the ledger owns. */
async function currentPids(win: ShepherdWindow): Promise<{ shells: number[]; owned: number[] }> {
  const list = await callTool(win.mcp.client, 'terminal_list', {}, 30_000);
  const processes = await callTool(win.mcp.client, 'list_processes', {}, 30_000);
  const shells = list.kind === 'result' ? (list.result.structuredContent as unknown as ListResult).terminals.flatMap((t) => (t.pid ? [t.pid] : [])) : [];
  const owned = processes.kind === 'result' ? flatten((processes.result.structuredContent as unknown as ListProcessesResult).active).map((p) => p.pid) : [];
  return { shells, owned };
}

function resolvePids(args: unknown, pids: { shells: number[]; owned: number[] }, r: Random): unknown {
  const ref = (args as { pid?: PidRef } | null)?.pid;
  if (typeof ref !== 'object' || ref === null || !('pidRef' in ref)) return args;
  const pool = ref.pidRef === 'ownedByLedger' ? pids.owned : pids.shells;
  return { ...(args as object), pid: pool.length > 0 ? r.pick(pool) : 424242 };
}

const runStatus = (outcome: Extract<Outcome, { kind: 'result' }>): string => String((outcome.result.structuredContent as { status?: unknown } | undefined)?.status ?? 'a result');

/** Every `killed` event in the log names a process the log recorded as started, spawned or adopted first. */
export function foreignKills(workspace: string): number {
  const owned = new Set<string>();
  let foreign = 0;
  for (const e of ledgerEvents(workspace) as Array<{ event: string; pid: number; startTime?: string }>) {
    const key = `${e.pid}|${e.startTime}`;
    if (e.event === 'started' || e.event === 'spawned' || e.event === 'orphaned') owned.add(key);
    if (e.event === 'killed' && !owned.has(key)) foreign++;
  }
  return foreign;
}

export async function hostileToolCalls(win: ShepherdWindow, r: Random, count: number, bystanders: Bystanders): Promise<Check> {
  const hostPid = win.vscode.driver.hello!.pid;
  const calls = generateHostileCalls(r, count, bystanders.pids);
  const counts = { result: 0, toolError: 0, protocolError: 0, hang: 0, crash: 0, unclear: 0, slow: 0 };
  const unclear: string[] = [];
  const stuck: string[] = [];
  const times: number[] = [];
  let pids = await currentPids(win);
  for (const [i, call] of calls.entries()) {
    if (i % 50 === 0) pids = await currentPids(win);
    const args = resolvePids(call.args, pids, r);
    // A call may wait as long as its own timeout (the 120 s default when it gave none); 30 s more is a hang.
    const outcome = await callTool(win.mcp.client, call.tool, args, 150_000);
    counts[outcome.kind]++;
    times.push(outcome.ms);
    if (outcome.kind === 'hang' || outcome.kind === 'crash' || outcome.ms > 20_000) {
      if (outcome.kind !== 'hang' && outcome.kind !== 'crash') counts.slow++;
      if (stuck.length < 3) {
        const answer = outcome.kind === 'result' ? `${runStatus(outcome)} after ${(outcome.ms / 1000).toFixed(0)} s` : outcome.kind;
        stuck.push(`call ${i} ${answer}: ${call.tool} ${JSON.stringify(args)?.slice(0, 200)}`);
      }
    }
    if ((outcome.kind === 'toolError' || outcome.kind === 'protocolError') && !isClearError(outcome.text)) {
      counts.unclear++;
      if (unclear.length < 3) unclear.push(`${call.tool}: ${outcome.text.slice(0, 160)}`);
    }
    if (outcome.kind === 'crash') break;
  }
  // Leave the fuzz terminals (and what they run) behind: closing them ends their processes.
  await win.vscode.driver.evaluate(`for (const t of vscode.window.terminals) if (/^Shepherd: /.test(t.name) && !/^Shepherd: (seq|keep)/.test(t.name)) t.dispose();`);
  const survivors = [...bystanders.pids.system, ...bystanders.pids.others].filter((pid) => !alive(pid));
  const hostChanged = (await win.vscode.driver.connect()).pid !== hostPid;
  const foreign = foreignKills(win.workspace);
  const lost = counts.hang + counts.crash + counts.unclear + survivors.length + foreign + (hostChanged ? 1 : 0);
  return {
    area: 'hostile input',
    name: `generated tool calls, all ${TOOLS.length} tools (${FUZZ_TERMINALS.length} terminals)`,
    tried: calls.length,
    lost,
    met: lost === 0,
    figures:
      `${counts.result} results, ${counts.toolError} clear refusals, ${counts.protocolError} protocol errors; ` +
      `${counts.hang} hangs, ${counts.crash} crashes, ${counts.unclear} unclear errors, ${survivors.length} foreign processes killed (ground truth), ` +
      `${foreign} kills of processes the ledger did not own; ${counts.slow} answered after more than 20 s (within their own timeout); ${latency(times)}` +
      (unclear.length ? `; unclear: ${unclear.join(' | ')}` : '') +
      (stuck.length ? `; slow or unanswered: ${stuck.join(' | ')}` : ''),
  };
}

interface FrameOutcome {
  readonly served: number; // results on a connection without the token
  readonly responses: number;
  readonly hung: boolean; // the connection stayed open after we ended it
}

/** One frame on a connection of its own: responses are read until the server closes it. */
async function sendFrame(endpoint: string, token: string, chunks: readonly Buffer[], authenticated: boolean): Promise<FrameOutcome> {
  return new Promise((resolve) => {
    const socket = net.createConnection(endpoint);
    let buffer = Buffer.alloc(0);
    let served = 0;
    let responses = 0;
    let authed = false;
    const timer = setTimeout(() => finish(true), 5000);
    function finish(hung: boolean): void {
      clearTimeout(timer);
      socket.destroy();
      resolve({ served, responses, hung });
    }
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        const length = end < 0 ? NaN : Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
        if (!Number.isFinite(length) || buffer.length < end + 4 + length) return;
        const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as { id?: unknown; result?: unknown };
        buffer = buffer.subarray(end + 4 + length);
        responses++;
        if (message.id === 'hello' && message.result !== undefined) {
          authed = true;
          continue;
        }
        if (message.result !== undefined && !authed) served++;
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(false));
    socket.on('connect', () => {
      if (authenticated) {
        socket.write(frame(JSON.stringify({ jsonrpc: '2.0', id: 'hello', method: methods.hello.name, params: { token, protocolVersion: PROTOCOL_VERSION } })));
      }
      for (const chunk of chunks) socket.write(chunk);
      // Let the answers out, then end our side: the server must close the connection in turn.
      setTimeout(() => socket.end(), authenticated ? 100 : 20);
    });
  });
}

export async function malformedBridgeFrames(win: ShepherdWindow, r: Random, count: number): Promise<Check> {
  const hostPid = win.vscode.driver.hello!.pid;
  const advertised = await readBridgeFile(bridgeFilePath(win.workspace));
  if (!advertised) throw new Error('no bridge.json to aim at');
  const frames = generateFrames(r, count, advertised.token);
  const client = new BridgeClient({ workspaceFolder: win.workspace, logger: silentLogger, clientInfo: { name: 'soak', version: '1' } });
  const before = await extensionHostMemory(win);
  let served = 0;
  let hung = 0;
  let refusedLegit = 0;
  let responses = 0;
  const kinds = new Map<string, number>();
  try {
    for (const [i, f] of frames.entries()) {
      const outcome = await sendFrame(advertised.endpoint, advertised.token, f.chunks, f.authenticated);
      served += outcome.served;
      responses += outcome.responses;
      if (outcome.hung) hung++;
      kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
      // Every 100 frames: a real client is still served.
      if (i % 100 === 99) {
        await client.request('ledgerSummary', {}).catch(() => refusedLegit++);
      }
    }
  } finally {
    client.dispose();
  }
  const after = await extensionHostMemory(win);
  const polluted = await win.vscode.driver.evaluate<boolean>('return ({}).polluted !== undefined || Object.prototype.polluted !== undefined;');
  const hostChanged = (await win.vscode.driver.connect()).pid !== hostPid;
  const lost = served + hung + refusedLegit + (polluted ? 1 : 0) + (hostChanged ? 1 : 0);
  return {
    area: 'hostile input',
    name: 'malformed bridge frames (bytes, headers, JSON, tokens)',
    tried: frames.length,
    lost,
    met: lost === 0,
    figures:
      `${served} served without the token, ${hung} connections left open, ${refusedLegit} of ${Math.floor(frames.length / 100)} real calls in between refused, ` +
      `prototype ${polluted ? 'POLLUTED' : 'clean'}, extension host ${hostChanged ? 'RESTARTED' : 'up'}; ${responses} error responses; ` +
      `extension host heap ${signedMb(after.heap - before.heap)}, RSS ${signedMb(after.rss - before.rss)} after GC`,
  };
}
