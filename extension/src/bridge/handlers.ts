/**
 * The bridge's method table, served by the terminal service and the process ledger. Nothing runs
 * in an untrusted workspace; reading state and killing what the ledger owns stay available.
 */
import type { ServerEntry } from '../../../common/src/protocol';
import { BridgeErrorCode, ShepherdError } from '../core/errors';
import type { ProcessLedger } from '../core/ledger';
import type { DevServers } from '../core/servers/devServers';
import type { WorkspaceStacks } from '../core/stacks/workspaceStacks';
import type { TerminalService } from '../core/terminals/terminalService';
import type { BridgeHandlers, RequestContext } from './bridgeServer';

export interface HandlerDependencies {
  readonly terminals: TerminalService;
  readonly ledger: ProcessLedger;
  readonly servers: DevServers;
  readonly stacks: WorkspaceStacks;
  readonly isTrusted: () => boolean;
}

function requireTrust(deps: HandlerDependencies): void {
  if (!deps.isTrusted()) {
    throw new ShepherdError(
      BridgeErrorCode.WorkspaceUntrusted,
      'This workspace is not trusted in VS Code, so Terminal Shepherd runs no commands in it. ' +
        'Ask the user to trust the folder (command "Workspaces: Manage Workspace Trust") and retry.',
    );
  }
}

const callOptions = (context: RequestContext) => ({ signal: context.signal, onProgress: context.progress });

export function createBridgeHandlers(deps: HandlerDependencies): BridgeHandlers {
  return {
    run: (params, context) => {
      requireTrust(deps);
      return deps.terminals.run(params, callOptions(context));
    },
    state: (params, context) => deps.terminals.state(params, callOptions(context)),
    input: (params, context) => {
      requireTrust(deps);
      return deps.terminals.input(params, callOptions(context));
    },
    list: () => ({ terminals: deps.terminals.list() }),
    listProcesses: async () => {
      await deps.ledger.refresh();
      return deps.ledger.list();
    },
    killProcess: (params) => deps.ledger.kill(params.pid),
    killOrphans: () => deps.ledger.killOrphans(),
    ledgerSummary: () => ({ ...deps.ledger.summary(), servers: serverEntries(deps) }),
    workspaceInfo: async () => {
      const analysis = await deps.stacks.analysis();
      return { ...(analysis ? { analysis } : {}), servers: await deps.servers.listWithHealth(deps.terminals.sessionViews()) };
    },
  };
}

/** The dev servers under managed terminals, as the per-response reminder names them (from memory). */
function serverEntries(deps: HandlerDependencies): ServerEntry[] {
  return deps.servers
    .list(deps.terminals.sessionViews())
    .filter((s) => s.terminal !== undefined)
    .map((s) => ({ terminal: s.terminal!, command: s.command, ...(s.pid !== undefined ? { pid: s.pid } : {}), ports: s.ports, urls: s.urls }));
}
