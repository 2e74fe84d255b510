/**
 * Registers the stdio MCP server with VS Code, so Copilot agent mode (and any VS Code chat) sees
 * the tools with no set-up. The server runs on the extension host's own runtime
 * (process.execPath with ELECTRON_RUN_AS_NODE=1): users need no Node.js of their own.
 */
import * as vscode from 'vscode';
import { BRIDGE_ENV } from '../../../common/src/bridgeDiscovery';

/** Must match contributes.mcpServerDefinitionProviders[].id in package.json. */
export const MCP_PROVIDER_ID = 'terminalShepherd.mcpServer';
/** The server's name in VS Code (MCP: List Servers, the tool picker, "<label> (MCP Server)" on confirmations). */
export const MCP_SERVER_LABEL = 'Terminal Shepherd';

/** The id VS Code 1.139 gives the server an extension provides: `<extension id, lower case>/<label>`
 * (what workbench.mcp.startServer takes). */
export function mcpServerId(extensionId: string): string {
  return `${extensionId.toLowerCase()}/${MCP_SERVER_LABEL}`;
}

export interface McpServerLaunch {
  readonly serverScript: string;
  readonly endpoint: string;
  readonly token: string;
  readonly workspaceFolder: string | undefined;
  readonly version: string;
}

export function registerMcpServerProvider(launch: McpServerLaunch): vscode.Disposable {
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    provideMcpServerDefinitions: () => {
      const env: Record<string, string> = {
        ELECTRON_RUN_AS_NODE: '1',
        [BRIDGE_ENV.endpoint]: launch.endpoint,
        [BRIDGE_ENV.token]: launch.token,
      };
      const args = [launch.serverScript];
      if (launch.workspaceFolder) {
        env[BRIDGE_ENV.workspace] = launch.workspaceFolder;
      }
      const definition = new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, args, env, launch.version);
      if (launch.workspaceFolder) {
        definition.cwd = vscode.Uri.file(launch.workspaceFolder);
      }
      return [definition];
    },
    resolveMcpServerDefinition: (definition) => definition,
  };
  return vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
}

/** The name VS Code's own MCP client gives itself in clientInfo (its product name: "Visual Studio Code", "code-server"). */
export function ownMcpClientName(): string {
  return vscode.env.appName;
}
