/**
 * Which run the editor's events belong to, once TerminalSessions found the session of their
 * terminal: an execution that starts or ends is the run's own, part of it (a cascade), or one the
 * user typed; a terminal that closes ends its active run with what can be believed of the exit
 * code.
 */
import type { Logger } from '../../../../common/src/logger';
import type { ExecutionEndEvent, ExecutionEvent, TerminalCloseEvent } from './terminalPort';
import type { TerminalSession } from './terminalSession';

export function routeExecutionStart(session: TerminalSession, { execution }: ExecutionEvent, logger: Logger): void {
  const run = session.currentRun;
  logger.debug(`terminal "${session.name}": execution started: ${JSON.stringify(execution.commandLine)}${session.runExecutions.has(execution) ? ' (the run\'s own)' : run?.active ? ' (during the run)' : ' (typed)'}`);
  if (session.runExecutions.has(execution)) {
    run?.executionStarted(execution);
  } else if (run?.active) {
    // A cascade (next line of multi-line input, an activation script): part of the same run.
    // One showing the line we sent is our own reported as another object: without a trusted
    // command line (VS Code's nonce) VS Code reads it from the screen, where a long line
    // wraps and a right prompt may follow it.
    session.runExecutions.add(execution);
    if (session.sentLine !== undefined && showsLine(execution.commandLine, session.sentLine)) run.expectOwnExecution(execution);
    run.attachExecution(execution);
    run.executionStarted(execution);
  } else {
    session.foreignExecutions.add(execution);
  }
}

export function routeExecutionEnd(session: TerminalSession, { execution, exitCode }: ExecutionEndEvent, logger: Logger): void {
  logger.debug(`terminal "${session.name}": execution ended (exit code ${exitCode ?? 'none'}): ${JSON.stringify(execution.commandLine)}`);
  if (session.foreignExecutions.delete(execution)) return;
  const run = session.currentRun;
  if (run?.active) {
    session.runExecutions.add(execution);
    run.executionEnded(execution, exitCode);
  }
}

/** Ends the session's active run as its terminal closed. */
export function endRunOnClose(session: TerminalSession, { exitCode, reason }: TerminalCloseEvent): void {
  const run = session.currentRun;
  if (!run?.active) return;
  if (reason === 'window' || reason === 'user') {
    run.terminalClosed(undefined, reason);
  } else if (exitCode === 0) {
    // VS Code reports 0 for a shell killed by a signal too: a run it cut short never gets a success.
    run.terminalClosed(undefined, 'unreported_exit');
  } else {
    run.terminalClosed(exitCode, reason === 'shell' ? 'shell_exit' : 'closed');
  }
}

/**
 * Whether a command line read from the screen shows `sent` (wraps and a right prompt aside), or is
 * its first simple command: VS Code's bash script reports $BASH_COMMAND instead of the history line
 * once HISTCONTROL ignores spaces (as it does to keep agent commands out of history, agentMarks.ts,
 * and as Ubuntu's default `ignoreboth` does). Bash gives that command rebuilt from its parse: spaces
 * squeezed, the keywords before it dropped, the rest of the line cut at an operator, so
 * `sleep 9 &` shows as `sleep 9`, `ls | wc` as `ls`, `if true; then …` as `true` and
 * `for i in $(seq 3); do …` as `for i in $(seq 3)`.
 */
export function showsLine(commandLine: string, sent: string): boolean {
  const shown = squash(commandLine);
  const wanted = squash(sent);
  if (shown.length === 0 || wanted.length === 0) return false;
  if (shown.startsWith(wanted)) return true;
  const tokens = sent.split(TOKEN).filter((t) => t !== undefined && t.trim() !== '');
  let first = 0;
  while (first < tokens.length && OPENERS.has(tokens[first]!)) first++;
  let seen = '';
  for (let i = first; i < tokens.length && seen.length < shown.length; i++) {
    seen += squash(tokens[i]!);
    const next = tokens[i + 1];
    if (seen === shown && (next === undefined || OPERATORS.has(next))) return true;
  }
  return false;
}

const squash = (text: string): string => text.replace(/\s+/g, '');
/** Splits a line into words and the operators that end a simple command (kept as tokens). */
const TOKEN = /(&&|\|\||;;|[;&|(){}\n])|[ \t\r]+/;
const OPERATORS = new Set(['&&', '||', ';;', ';', '&', '|', ')', '}', '\n']);
/** What bash leaves out of $BASH_COMMAND before a line's first simple command. */
const OPENERS = new Set(['(', '{', '!', 'time', 'if', 'elif', 'while', 'until', 'then', 'do', 'else']);
