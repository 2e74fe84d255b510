/**
 * Terminal Shepherd's tools through VS Code's own MCP client, as Copilot agent mode calls them:
 * VS Code starts the stdio server the extension registered, lists its tools in vscode.lm.tools,
 * and `vscode.lm.invokeTool` goes through the same tool service (with a progress token, and with
 * VS Code's own confirmations, which a person would click).
 */
import type { ShepherdWindow } from './shepherdE2e';
import { waitFor } from './shepherdE2e';

/** The names VS Code gives the tools (`mcp_<server>_<tool>`), by tool name. */
export type VsCodeToolNames = Record<string, string>;

/** Asks VS Code to start the provider's server until its tools are live; returns their names. */
export async function startVsCodeMcpServer(win: ShepherdWindow, timeoutMs = 90_000): Promise<VsCodeToolNames> {
  const names = await waitFor('VS Code to start the Terminal Shepherd MCP server', timeoutMs, async () => {
    const live = await win.vscode.driver.evaluate<string[]>(`
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
      return vscode.lm.tools.filter((t) => t.name.startsWith('mcp_')).map((t) => t.name);
    `);
    return live.some((n) => n.endsWith('terminal_run')) ? live : undefined;
  });
  return Object.fromEntries(
    SHEPHERD_TOOLS.flatMap((tool) => {
      const name = names.find((n) => n.endsWith(`_${tool}`));
      return name ? [[tool, name]] : [];
    }),
  );
}

export const SHEPHERD_TOOLS = ['terminal_run', 'terminal_state', 'terminal_input', 'terminal_list', 'list_processes', 'kill_process', 'kill_orphans', 'workspace_info'] as const;

/** Buttons a person clicks to let a tool run, and to let its result reach the model. */
const APPROVE = /^(Yes|Allow|Continue|Run|Approve|Allow and Skip Reviewing Result)$/;

export interface VsCodeInvocation {
  /** The result's text parts joined (the structured content as JSON when the tool has an output schema). */
  readonly text: string;
  /** How many confirmation dialogs VS Code showed for the call (before it ran, and for its result). */
  readonly confirmations: number;
}

/**
 * `vscode.lm.invokeTool` in the extension host, clicking VS Code's confirmation dialogs as a
 * person would (a tool that is not read-only asks first; one with openWorldHint may also ask to
 * review its result), until the call returns.
 */
export async function invokeThroughVsCode(
  win: ShepherdWindow,
  toolName: string,
  input: Record<string, unknown>,
  timeoutMs = 120_000,
  options: { /** Cancels the call's token after this long, as the Stop button does (the result is then ''). */ readonly cancelAfterMs?: number } = {},
): Promise<VsCodeInvocation> {
  let settled = false;
  const invoked = win.vscode.driver
    .evaluate<string>(
      `
      const cts = new vscode.CancellationTokenSource();
      ${options.cancelAfterMs !== undefined ? `setTimeout(() => cts.cancel(), ${options.cancelAfterMs});` : ''}
      try {
        const result = await vscode.lm.invokeTool(${JSON.stringify(toolName)}, { input: ${JSON.stringify(input)}, toolInvocationToken: undefined }, cts.token);
        return result.content.map((p) => p.value ?? '').join('\\n');
      } catch (error) {
        if (cts.token.isCancellationRequested) return '';
        throw error;
      } finally {
        cts.dispose();
      }
      `,
      { timeoutMs },
    )
    .finally(() => (settled = true));
  let confirmations = 0;
  const button = win.vscode.page.locator('.monaco-dialog-box .monaco-button', { hasText: APPROVE }).first();
  while (!settled) {
    try {
      await button.click({ timeout: 200 });
      confirmations++;
    } catch {
      // no dialog right now
    }
  }
  return { text: await invoked, confirmations };
}
