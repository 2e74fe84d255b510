/**
 * The bridge's method table, served by the terminal service and the process ledger. Nothing runs
 * in an untrusted workspace; reading state and killing what the ledger owns stay available.
 */
import { BridgeErrorCode, ShepherdError } from '../core/errors';
import type { ProcessLedger } from '../core/ledger';
import type { TerminalService } from '../core/terminals/terminalService';
import type { BridgeHandlers, RequestContext } from './bridgeServer';

export interface HandlerDependencies {
  readonly terminals: TerminalService;
  readonly ledger: ProcessLedger;
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
    ledgerSummary: () => deps.ledger.summary(),
  };
}
