/**
 * The bridge's method table, served by the terminal service and the process ledger. Whether a
 * command may run is the terminal service's checks' to decide (workspace trust first), for every
 * client alike; reading state and killing what the ledger owns stay available.
 */
import { VSCODE_CONVERSATION, type ServerEntry, type TerminalRunResult } from '../../../common/src/protocol';
import { listingSession, processesOf, terminalsOf } from '../core/agentSessions';
import type { ProcessLedger } from '../core/ledger';
import { capMessage, capThatEnded } from '../core/processes/processLimits';
import type { DevServers } from '../core/servers/devServers';
import type { WorkspaceStacks } from '../core/stacks/workspaceStacks';
import type { CallOptions } from '../core/service/callContext';
import type { ClientProcesses } from '../core/service/clientProcesses';
import type { TerminalService } from '../core/service/terminalService';
import type { BridgeHandlers, RequestContext } from './bridgeServer';
import { elicitationApprover, elicitationSecretAsker } from './elicitationApprover';

export interface HandlerDependencies {
  readonly terminals: TerminalService;
  readonly ledger: ProcessLedger;
  readonly servers: DevServers;
  readonly stacks: WorkspaceStacks;
  /** What MCP clients' own tools start (client/attach). */
  readonly clients: ClientProcesses;
  /** The name this window's own MCP client gives itself (its clientInfo: VS Code's product name, vscode.env.appName). */
  readonly ownClientName: string;
}

function callOptions({ signal, progress, meta, session, elicit }: RequestContext, ownClientName: string): CallOptions {
  // A client that declared elicitation is asked in its own UI (told the service's answer bound); any
  // other through the window's modal (a prompt for a secret: its notification). So is a call of this window's own client from outside a chat:
  // VS Code shows its elicitation then only as a toast apart from the call (it waited unseen).
  const outsideChat = meta.client?.name === ownClientName && meta.agentSession?.from !== VSCODE_CONVERSATION;
  return {
    signal,
    onProgress: progress,
    meta,
    session,
    ...(elicit && !outsideChat
      ? { approver: (answerTimeoutMs: number) => elicitationApprover(elicit, answerTimeoutMs), secretAsker: (answerTimeoutMs: number) => elicitationSecretAsker(elicit, answerTimeoutMs) }
      : {}),
  };
}

/** A call that names no agent session is owned by its client process, where its connection proved one (ClientProcesses.ownerSession). */
function owned(context: RequestContext, clients: HandlerDependencies['clients']): RequestContext {
  if (context.meta.agentSession) return context;
  const agentSession = clients.ownerSession(context.session, context.meta.client?.name);
  return agentSession ? { ...context, meta: { ...context.meta, agentSession } } : context;
}

export function createBridgeHandlers(deps: HandlerDependencies): BridgeHandlers {
  const options = (context: RequestContext): CallOptions => callOptions(owned(context, deps.clients), deps.ownClientName);
  return {
    run: async (params, context) => withCost(await deps.terminals.run(params, options(context)), deps.ledger),
    state: async (params, context) => withCost(await deps.terminals.state(params, options(context)), deps.ledger),
    input: (params, context) => deps.terminals.input(params, options(context)),
    list: (params, context) => {
      const { meta } = owned(context, deps.clients);
      return { terminals: terminalsOf(deps.terminals.list(), listingSession(params, meta.agentSession, meta.client?.name)) };
    },
    listProcesses: async (params, context) => {
      const { meta } = owned(context, deps.clients);
      const session = listingSession(params, meta.agentSession, meta.client?.name);
      await deps.ledger.refresh();
      return processesOf(deps.ledger.list(), session);
    },
    killProcess: (params) => deps.ledger.kill(params.pid),
    killOrphans: () => deps.ledger.killOrphans(),
    ledgerSummary: () => ({ ...deps.ledger.summary(), servers: serverEntries(deps) }),
    attachClient: (params, { session }) => deps.clients.attach(params, session),
    workspaceInfo: async () => {
      const analysis = await deps.stacks.analysis();
      return { ...(analysis ? { analysis } : {}), servers: await deps.servers.listWithHealth(deps.terminals.sessionViews()) };
    },
  };
}

/** A run's result with what its terminal's live processes cost (from memory: the ledger's last poll), and the cap that ended it, if one did. */
async function withCost(result: TerminalRunResult, ledger: ProcessLedger): Promise<TerminalRunResult> {
  const cost = ledger.treeUsage(result.name);
  const caps = ledger.capsOf(result.name);
  const treeEnded = caps?.tree !== undefined && result.exitCode !== undefined && result.exitCode !== 0 && (await caps.tree.cap.endedSinceMark());
  const cap = caps && capThatEnded(caps, result.exitCode, result.output, treeEnded);
  return {
    ...result,
    ...(cost ? { cost: { ...cost, cpuPercent: Math.round(cost.cpuPercent * 10) / 10 } } : {}),
    ...(cap && caps ? { cappedBy: cap, message: [result.message, capMessage(cap, caps, treeEnded)].filter(Boolean).join(' ') } : {}),
  };
}

/** The dev servers under managed terminals, as the per-response reminder names them (from memory). */
function serverEntries(deps: HandlerDependencies): ServerEntry[] {
  return deps.servers
    .list(deps.terminals.sessionViews())
    .filter((s) => s.terminal !== undefined)
    .map((s) => ({ terminal: s.terminal!, command: s.command, ...(s.pid !== undefined ? { pid: s.pid } : {}), ports: s.ports, urls: s.urls }));
}
