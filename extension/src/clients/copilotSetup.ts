/**
 * Whether Copilot agent mode gets Terminal Shepherd's tools with no set-up, from VS Code's own
 * settings, and if not, the one step the user must take. VS Code 1.139 starts an extension's MCP
 * server by itself when a chat request is sent (chat.mcp.autostart, default "newAndOutdated":
 * servers never started, or whose version changed) and offers its tools in that same request. Two
 * settings (or the policies behind them) stop that: chat.mcp.access "none" turns MCP servers off,
 * chat.mcp.autostart "never" leaves starting them to the user. Whatever is not "none" here is
 * said once, by the first-run notification (vscode/copilotFirstRun.ts), with its step as a button.
 */

/** The VS Code settings that decide it, as read (anything: a user may write any value). */
export interface CopilotSettings {
  /** chat.mcp.access: "all" (default), "registry", "none". */
  readonly mcpAccess: unknown;
  /** chat.mcp.autostart: "newAndOutdated" (default), "onlyNew", "never". */
  readonly mcpAutostart: unknown;
  /** chat.disableAIFeatures: the user turned chat off altogether. */
  readonly aiFeaturesDisabled: unknown;
}

export type CopilotSetupStep =
  /** Nothing to do: the tools come with the first agent-mode request (or the user does not use chat). */
  | { readonly kind: 'none'; readonly reason: string }
  /** MCP servers are off: only the user (or their admin) can turn them on. */
  | { readonly kind: 'enableMcp'; readonly message: string }
  /** VS Code will not start the server by itself: the user starts it once; VS Code then remembers its
   * tools for the workspace and starts the server when the model calls one. */
  | { readonly kind: 'startServer'; readonly message: string };

export function copilotSetupStep(settings: CopilotSettings): CopilotSetupStep {
  if (settings.aiFeaturesDisabled === true) {
    return { kind: 'none', reason: 'chat is turned off (chat.disableAIFeatures)' };
  }
  if (settings.mcpAccess === 'none') {
    return {
      kind: 'enableMcp',
      message:
        'Copilot cannot use Terminal Shepherd: MCP servers are turned off in VS Code (setting chat.mcp.access is "none"). ' +
        'Allow them to give agent mode terminal_run and the other tools.',
    };
  }
  if (settings.mcpAutostart === 'never') {
    return {
      kind: 'startServer',
      message:
        'VS Code starts no MCP server by itself here (setting chat.mcp.autostart is "never"), so Copilot agent mode gets ' +
        'Terminal Shepherd\'s tools only once its server runs. Start it now?',
    };
  }
  return { kind: 'none', reason: `VS Code starts the server with the first agent-mode request (chat.mcp.autostart: ${String(settings.mcpAutostart ?? 'default')})` };
}
