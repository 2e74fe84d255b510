/**
 * "This session's": what terminal/list and process/list keep when a caller asks for its own
 * (`session: "mine"`), by the agent session the MCP server sent with the call and the one
 * recorded on each run and process.
 */
import { sameAgentSession, type AgentSession, type ListingParams, type ListProcessesResult, type TerminalInfo } from '../../../common/src/protocol';
import { noAgentSessionError } from './errors';

/** The session to keep, or undefined for everything; a caller that asks for its own but names none is told what to do. */
export function listingSession(params: ListingParams, caller: AgentSession | undefined, clientName: string | undefined): AgentSession | undefined {
  if (params.session !== 'mine') return undefined;
  if (!caller) throw noAgentSessionError(clientName);
  return caller;
}

/** The terminals whose current or last command the session started. */
export function terminalsOf(terminals: readonly TerminalInfo[], session: AgentSession | undefined): TerminalInfo[] {
  return session ? terminals.filter((t) => sameAgentSession(t.agentSession, session)) : [...terminals];
}

/** The process trees whose root the session's runs started (a tree's descendants go with it). */
export function processesOf(result: ListProcessesResult, session: AgentSession | undefined): ListProcessesResult {
  if (!session) return result;
  return {
    active: result.active.filter((p) => sameAgentSession(p.agentSession, session)),
    orphaned: result.orphaned.filter((p) => sameAgentSession(p.agentSession, session)),
  };
}
