/** The bridge's method table, served by the terminal service; nothing runs in an untrusted workspace. */
import { BridgeErrorCode, ShepherdError } from '../core/errors';
import type { TerminalService } from '../core/terminals/terminalService';
import type { BridgeHandlers, RequestContext } from './bridgeServer';

export interface HandlerDependencies {
  readonly terminals: TerminalService;
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
  };
}
