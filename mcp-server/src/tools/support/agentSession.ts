/**
 * The agent session a call belongs to, as its client tells it: per call in the request's _meta
 * (VS Code's chat conversation, a Codex thread), else once for the whole connection in the
 * environment the client started the server with (the Copilot CLI's and Claude Code's session).
 * With the client's name it is one identity the window records on the runs and their processes.
 */
import { listingParamsSchema, type AgentSession } from '../../../../common/src/protocol';

/** _meta keys that name the call's conversation, in the order they are trusted. */
const META_KEYS = [
  'vscode.conversationId', // VS Code's chat, per conversation (absent outside a chat)
  'threadId', // Codex, per thread (openai/codex#18093)
] as const;

/**
 * Variables a client sets in the server's environment for its session. The first set wins: a
 * client's own variable is set by it, while another's may only be inherited from a shell it was
 * started in (a Copilot CLI run inside Claude Code's Bash tool keeps CLAUDE_CODE_SESSION_ID).
 */
const ENV_VARS = ['COPILOT_AGENT_SESSION_ID', 'CLAUDE_CODE_SESSION_ID', 'CODEX_THREAD_ID'] as const;

const MAX_ID_CHARS = 300;

export type SessionSource = Omit<AgentSession, 'client'>;

/** The session the server's environment names, read once when the server starts. */
export function sessionFromEnvironment(env: NodeJS.ProcessEnv): SessionSource | undefined {
  for (const name of ENV_VARS) {
    const id = usableId(env[name]);
    if (id) return { id, from: `env.${name}` };
  }
  return undefined;
}

/** The call's agent session: its _meta's id first (one connection may serve many conversations), else the environment's. */
export function agentSessionOf(clientName: string | undefined, meta: Record<string, unknown> | undefined, fromEnvironment: SessionSource | undefined): AgentSession | undefined {
  const source = metaSession(meta) ?? fromEnvironment;
  return source ? { client: (clientName ?? '').slice(0, 200), ...source } : undefined;
}

function metaSession(meta: Record<string, unknown> | undefined): SessionSource | undefined {
  for (const key of META_KEYS) {
    const id = usableId(meta?.[key]);
    if (id) return { id, from: `_meta.${key}` };
  }
  return undefined;
}

function usableId(value: unknown): string | undefined {
  const id = typeof value === 'string' ? value.trim() : '';
  return id.length > 0 ? id.slice(0, MAX_ID_CHARS) : undefined;
}

/** The `session` argument of terminal_list and list_processes. */
export const sessionFilterInput = {
  session: listingParamsSchema.shape.session.describe(
    '"mine": only what this agent session started (the session the client names: a VS Code chat, a Copilot CLI, Claude Code or Codex session); "all" or absent: everything.',
  ),
};
