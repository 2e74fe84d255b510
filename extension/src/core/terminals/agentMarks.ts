/**
 * What marks a managed terminal as an agent's: `AI_AGENT` (the convention Claude Code and CLIs
 * such as aws-cdk read to drop watch modes, pagers and colour games; microsoft/vscode#311734 asks
 * VS Code for it) naming the calling client, and `TERMINAL_SHEPHERD=1`. And keeping agent
 * commands out of the person's shell history, as VS Code's chat.tools.terminal.preventShellHistory
 * does per shell: the shell scripts (VS Code's and ours) read VSCODE_PREVENT_SHELL_HISTORY and set
 * bash HISTCONTROL=ignorespace, zsh HIST_IGNORE_SPACE, fish private mode, a PSReadLine history
 * handler; bash and zsh lines are then typed with a leading space. In that mode
 * (HISTCONTROL=ignorespace, as Ubuntu's default `ignoreboth`) VS Code's bash script reports a line
 * by $BASH_COMMAND, its first simple command alone: executionRouting.ts matches it to the run.
 */
import { processMarkEnv } from '../ledger/processMarks';
import type { ShellKind } from './shellKind';

/** AI_AGENT when the client is not known. */
export const DEFAULT_AGENT = 'terminal-shepherd';

/** Well-known MCP clients (their clientInfo names) and the AI_AGENT value each goes by. */
const KNOWN_AGENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/claude[\s-]?code/i, 'claude-code'],
  [/claude/i, 'claude'],
  [/codex/i, 'codex'],
  [/gemini/i, 'gemini-cli'],
  [/copilot|visual studio code|^vscode/i, 'copilot'],
  [/cursor/i, 'cursor'],
  [/cline/i, 'cline'],
  [/roo/i, 'roo-code'],
  [/windsurf/i, 'windsurf'],
  [/opencode/i, 'opencode'],
];

/** The AI_AGENT value for the client that asked for the terminal (its MCP clientInfo name). */
export function agentName(clientName: string | undefined): string {
  if (clientName === undefined || clientName.trim().length === 0) return DEFAULT_AGENT;
  const known = KNOWN_AGENTS.find(([pattern]) => pattern.test(clientName));
  if (known) return known[1];
  const slug = clientName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return slug.length > 0 ? slug : DEFAULT_AGENT;
}

export interface AgentMarks {
  /** AI_AGENT's value (agentName). */
  readonly agent: string;
  /** chat.tools.terminal.preventShellHistory. */
  readonly preventShellHistory: boolean;
  /** The ledger session and terminal name every process started there inherits (ledger/processMarks.ts). */
  readonly ledger?: { readonly session: string; readonly terminal: string };
}

/** A terminal opened for no particular client, with VS Code's default history setting. */
export const DEFAULT_MARKS: AgentMarks = { agent: DEFAULT_AGENT, preventShellHistory: true };

/** The variables that mark a managed terminal's environment. */
export function agentEnv(marks: AgentMarks): Record<string, string> {
  return {
    AI_AGENT: marks.agent,
    TERMINAL_SHEPHERD: '1',
    ...(marks.ledger ? processMarkEnv(marks.ledger.session, marks.ledger.terminal) : {}),
    ...(marks.preventShellHistory ? { VSCODE_PREVENT_SHELL_HISTORY: '1' } : {}),
  };
}

/** The line as typed: a leading space keeps it out of bash's and zsh's history (the scripts set them up for it). */
export function historyFreeLine(kind: ShellKind, line: string, preventShellHistory: boolean): string {
  return preventShellHistory && (kind === 'bash' || kind === 'zsh') && !line.startsWith(' ') ? ` ${line}` : line;
}
