/**
 * What a user or an agent reads about dev servers and watchers: ready (what answered, how to use
 * and stop it), not ready in time (what was and was not seen), already running (nothing started
 * twice) and a port a start failed on (who holds it, and the next step for each kind of holder).
 */
import { formatDuration, ownerLabel } from '../../../../common/src/format';
import type { DevServer, PortConflict, PortHolder, ReadyInfo, StrategyName, TerminalRunResult } from '../../../../common/src/protocol';
import { quoteName, stopCall, waitCall } from '../nextSteps';
import { isAcceptedStatus } from './probe';
import type { ReadySeen } from './readiness';

/** Status running with `ready`: what answered, and how to use and stop it. */
export function readyMessage(terminal: string, info: ReadyInfo): string {
  const where = info.urls.length > 0 ? info.urls.join(', ') : info.ports.length > 0 ? `port ${info.ports.join(', ')}` : undefined;
  const how =
    info.via === 'http' && info.http
      ? `${info.http.url} answered HTTP ${info.http.status}${isAcceptedStatus(info.http.status) ? '' : ' (not a success status: the page may be broken, the server is up)'}`
      : info.via === 'tcp'
        ? `port ${info.ports.join(', ')} accepts connections${info.urls.length > 0 ? ' but gave no HTTP answer in time (it may still be compiling)' : ' (not HTTP)'}`
        : info.via === 'pattern'
          ? `the output matched readyPattern: ${JSON.stringify(info.line ?? '')}`
          : `it printed its ready line ${JSON.stringify(info.line ?? '')} and listens on no port`;
  return (
    `Ready after ${formatDuration(info.waitedMs)}: ${how}.${where && info.via !== 'tcp' ? ` Use ${where}.` : ''} ` +
    `It keeps running in terminal ${quoteName(terminal)}: terminal_state {name: ${quoteName(terminal)}} shows its output, ${stopCall(terminal)} stops it.`
  );
}

/** Timeout in ready mode: what was and was not seen, and that the command keeps running. */
export function notReadyMessage(terminal: string, timeoutMs: number, seen: ReadySeen): string {
  const facts: string[] = [];
  if (seen.line !== undefined) facts.push(`it printed ${JSON.stringify(seen.line)}`);
  facts.push(seen.ports.length > 0 ? `its processes listen on ${seen.ports.join(', ')} but no probe got an answer` : 'none of its processes listens on a TCP port');
  const hint =
    seen.ports.length === 0 && seen.line !== undefined
      ? ' If it serves from elsewhere (a container) or is a watcher, pass readyPattern with the line that means ready.'
      : seen.ports.length === 0
        ? ' If it is a watcher without a port, pass readyPattern with the line that means ready.'
        : '';
  return (
    `Not ready after ${formatDuration(timeoutMs)}: ${facts.join('; ')}.${hint} The command keeps running in terminal ${quoteName(terminal)}: ` +
    `wait more with ${waitCall(terminal)}, look at its processes with list_processes, stop it with ${stopCall(terminal)} or kill_process.`
  );
}

/** Status already_running: the tail of the running server's output, and what to do instead of a second copy. */
export function alreadyRunningResult(server: DevServer, tail: string, strategy: StrategyName, owner?: string): TerminalRunResult {
  const terminal = server.terminal ?? 'default';
  // Several agents share a folder: the one that did not start it must not stop or duplicate it.
  const whose = owner ? ' If that is not your session, the server is that session\'s: use it, and do not restart or stop it.' : '';
  const where = server.urls.length > 0 ? ` at ${server.urls.join(', ')}` : server.ports.length > 0 ? ` on port ${server.ports.join(', ')}` : '';
  return {
    status: 'already_running',
    output: tail,
    name: terminal,
    command: server.command,
    durationMs: server.uptimeMs,
    strategy,
    server,
    message:
      `Not started again: \`${server.command}\` already runs in terminal ${quoteName(terminal)}${server.pid !== undefined ? ` (pid ${server.pid})` : ''}${where}, ` +
      `started ${formatDuration(server.uptimeMs)} ago${server.cwd ? ` in ${server.cwd}` : ''}${owner ? ` by ${owner}` : ''}.${whose} Use it as it is; ` +
      `terminal_state {name: ${quoteName(terminal)}} shows its output. To replace it, call terminal_run again with restart: true ` +
      `(its process tree is killed first), or stop it with ${stopCall(terminal)}.`,
  };
}

/**
 * Status already_running for a server an MCP client's own tools started outside managed
 * terminals: whose it is, and that it is that client's to stop (kill_process ends it,
 * identity-checked), never a second copy.
 */
export function clientServerResult(server: DevServer, owner: string, strategy: StrategyName): TerminalRunResult {
  const where = server.urls.length > 0 ? ` at ${server.urls.join(', ')}` : server.ports.length > 0 ? ` on port ${server.ports.join(', ')}` : '';
  return {
    status: 'already_running',
    output: '',
    name: server.terminal ?? '',
    command: server.command,
    durationMs: server.uptimeMs,
    strategy,
    server,
    message:
      `Not started again: \`${server.command}\` already runs outside Terminal Shepherd's terminals${server.pid !== undefined ? ` (pid ${server.pid})` : ''}${where}, ` +
      `started ${formatDuration(server.uptimeMs)} ago${server.cwd ? ` in ${server.cwd}` : ''} by ${owner}. If that is not your session, the server is that session's: use it, and do not restart or stop it. ` +
      `Use it as it is; list_processes shows its processes. To replace it, end it first with kill_process {pid: ${server.pid ?? '<pid>'}} (identity-checked), then run this again.`,
  };
}

/** Why a start failed on a taken port, naming who holds it (whose session, which terminal) and the next step that fits. */
export function portConflictMessage(conflict: PortConflict): string {
  const port = conflict.port;
  if (conflict.holders.length === 0) {
    return `Port ${port} is taken, by a process this user cannot see (another user's, or a system service). Run it on another port, or free ${port} first.`;
  }
  return `Port ${port} is already in use. ${conflict.holders.map(holderSentence).join(' ')}`;
}

/** One holder: who it is, who started it, and what to do. */
function holderSentence(h: PortHolder): string {
  const who = `${h.name || 'process'} (pid ${h.pid}${h.commandLine ? `: ${h.commandLine}` : ''})`;
  const kill = `kill_process {pid: ${h.pid}}`;
  const session = ownerLabel(h);
  switch (h.owner) {
    case 'ledger':
      return `${who} holds it, started in Terminal Shepherd terminal ${quoteName(h.terminal ?? '')}${session ? ` by ${session}` : ''}.${nextStep(session, `stop it with ${kill} (identity-checked, with its tree)`)}`;
    case 'client':
      return (
        `${who} holds it, started outside Terminal Shepherd's terminals by ${session ?? 'a client\'s own tools'}.${nextStep(session, `end it with ${kill} (identity-checked, with its tree)`)}` +
        ' terminal_run with restart: true cannot stop it: it is not a managed terminal\'s.'
      );
    case 'orphan': {
      const left = h.clientTools
        ? `left running by ${session} after that client exited or disconnected`
        : `left running by an earlier VS Code window (terminal ${quoteName(h.terminal ?? '')}${session ? `, started by ${session}` : ''})`;
      return `${who} holds it, ${left}. Nothing runs it any more: use it, or end it with ${kill} (or kill_orphans) and retry.`;
    }
    default:
      return `${who} holds it; Terminal Shepherd did not start it and will not kill it. Stop it yourself (or ask the user to), or run this on another port.`;
  }
}

/** Use it or stop it; when a session owns it, only that session stops it (several agents share a folder). */
function nextStep(session: string | undefined, stop: string): string {
  const yours = `use it, or ${stop} and retry.`;
  return session
    ? ` If that is not your session, the server is that session's: use it or run this on another port, and do not stop it. If it is yours, ${yours}`
    : ` ${yours.charAt(0).toUpperCase()}${yours.slice(1)}`;
}
