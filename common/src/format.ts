/** Human-readable durations for messages on both sides of the bridge. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s % 60);
  return rest > 0 ? `${m}m ${rest}s` : `${m}m`;
}

/** Who started a process or a command: an agent session, or a client's own tools (either may be absent). */
export interface Ownership {
  readonly agentSession?: { readonly client: string; readonly id: string; readonly from?: string };
  readonly clientTools?: { readonly client: string; readonly pid: number; readonly command: string };
}

/**
 * "claude-code session 4f2…", "codex (client pid 812, no session id)", "claude-code's own tools
 * (client pid 812, node)", or undefined when nobody is named.
 */
export function ownerLabel(owner: Ownership): string | undefined {
  const client = owner.agentSession?.client || owner.clientTools?.client || 'a client';
  // 'client.pid': protocol/basics.ts CLIENT_PROCESS, the client process standing for a session it did not name.
  const session = !owner.agentSession ? undefined : owner.agentSession.from === 'client.pid' ? `${client} (client pid ${owner.agentSession.id}, no session id)` : `${client} session ${owner.agentSession.id}`;
  if (!owner.clientTools) return session;
  const tools = `${client}'s own tools (client pid ${owner.clientTools.pid}, ${owner.clientTools.command})`;
  return session ? `${tools}, ${session}` : tools;
}
