/**
 * How long each known MCP client lets a tool call run before it cuts it, by the clientInfo name it
 * sends at initialize, each figure with its source. The extension returns `running` a little
 * before it (so the client never cuts a call, and the model learns what ran and what to call
 * next); for a client not listed, the extension's terminalShepherd.run.clientTimeoutMs setting
 * applies (default 60 s: the MCP TypeScript SDK's DEFAULT_REQUEST_TIMEOUT_MSEC, which any client
 * built on it without options has). TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS in the server's
 * environment (the client's MCP configuration sets it) overrides all of them.
 */
export interface ClientInfo {
  readonly name: string;
  readonly version: string;
}

export interface KnownDeadline {
  readonly clientDeadlineMs: number;
  readonly deadlineSource: string;
}

interface KnownClient {
  readonly name: RegExp;
  /** The client's limit, from its environment when it has one, else its default. */
  readonly deadline: (env: NodeJS.ProcessEnv) => KnownDeadline;
}

export const OVERRIDE_ENV = 'TERMINAL_SHEPHERD_CLIENT_TIMEOUT_MS';

const fixed = (clientDeadlineMs: number, deadlineSource: string) => (): KnownDeadline => ({ clientDeadlineMs, deadlineSource });

export const KNOWN_CLIENTS: readonly KnownClient[] = [
  {
    // VS Code's clientInfo is its product name (nameLong): "Visual Studio Code", "... - Insiders", "code-server", "VSCodium".
    name: /^(Visual Studio Code|code-server|VSCodium)\b/,
    deadline: fixed(300_000, "VS Code's chat cancels an MCP tool call after 5 minutes, progress notifications or not (microsoft/vscode#261734)"),
  },
  {
    name: /^claude-code$/,
    deadline: (env) =>
      fromEnv(env, 'MCP_TOOL_TIMEOUT', "Claude Code's MCP_TOOL_TIMEOUT") ?? {
        clientDeadlineMs: 100_000_000,
        deadlineSource: "Claude Code's default MCP tool timeout, about 28 hours, when MCP_TOOL_TIMEOUT is not set",
      },
  },
  {
    // Claude Desktop drops a result after the SDK's default request timeout (anthropics/claude-code#22542).
    name: /^claude-ai$/,
    deadline: fixed(60_000, 'Claude Desktop cuts a tool call at 60 s, the MCP SDK\'s default request timeout (anthropics/claude-code#22542)'),
  },
  {
    name: /^codex-mcp-client$/,
    deadline: fixed(60_000, "Codex's default tool_timeout_sec (DEFAULT_TOOL_TIMEOUT in openai/codex codex-rs/core/src/mcp_connection_manager.rs)"),
  },
  {
    name: /^gemini-cli-mcp-client/,
    deadline: fixed(600_000, "Gemini CLI's default MCP timeout (MCP_DEFAULT_TIMEOUT_MSEC, 10 minutes, google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts)"),
  },
];

/** The deadline of a client the server knows (or the override), undefined for any other. */
export function knownDeadline(client: ClientInfo | undefined, env: NodeJS.ProcessEnv): KnownDeadline | undefined {
  const override = fromEnv(env, OVERRIDE_ENV, OVERRIDE_ENV);
  if (override) return override;
  const known = client && KNOWN_CLIENTS.find((c) => c.name.test(client.name));
  return known?.deadline(env);
}

function fromEnv(env: NodeJS.ProcessEnv, key: string, what: string): KnownDeadline | undefined {
  const raw = env[key]?.trim();
  const ms = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(ms) && ms > 0 ? { clientDeadlineMs: ms, deadlineSource: `${what}=${ms}` } : undefined;
}
