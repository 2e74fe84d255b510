/** Text renderings of tool results: what a model reads when it ignores structuredContent. */
import { formatDuration } from '../../common/src/format';
import type { KillResult, ListProcessesResult, TerminalInfo, TerminalRunResult, TrackedProcess } from '../../common/src/protocol';


const quote = (s: string): string => JSON.stringify(s);

export function renderRunResult(result: TerminalRunResult): string {
  const head: string[] = [result.status];
  if (result.exitCode !== undefined) head.push(`exit code ${result.exitCode}`);
  head.push(formatDuration(result.durationMs));
  const about = [...(result.pid !== undefined ? [`shell pid ${result.pid}`] : []), `strategy ${result.strategy}`];
  head.push(`terminal ${quote(result.name)} (${about.join(', ')})`);
  const lines = [head.join(' · ')];
  if (result.command !== undefined) lines.push(`$ ${result.command}`);
  if (result.status === 'waiting_for_input') lines.push(`Prompt: ${quote(result.prompt ?? '')}`);
  if (result.message) lines.push(result.message);
  if (result.truncated) lines.push(`Output truncated (head and tail kept); the full output is in ${result.outputFile ?? 'the log file'}.`);
  lines.push('--- output ---');
  lines.push(result.output.length > 0 ? result.output : '(no output)');
  return lines.join('\n');
}

export function renderTerminalList(terminals: readonly TerminalInfo[]): string {
  if (terminals.length === 0) {
    return 'No managed terminals. terminal_run creates one (name "default" unless you give a name).';
  }
  return terminals
    .map((t) => {
      const parts = [`${quote(t.name)}: ${t.busy ? 'busy' : 'idle'}`, `${t.shell} (strategy ${t.strategy})`];
      if (t.pid !== undefined) parts.push(`shell pid ${t.pid}`);
      if (t.cwd) parts.push(`cwd ${t.cwd}`);
      if (t.command !== undefined) {
        const status = t.status ? ` (${t.status}${t.exitCode !== undefined ? `, exit code ${t.exitCode}` : ''})` : '';
        parts.push(`${t.busy ? 'running' : 'last'}: ${t.command}${status}`);
      }
      if (!t.shellIntegration) parts.push('no shell integration');
      return parts.join(' · ');
    })
    .join('\n');
}

function processLine(p: TrackedProcess, depth: number, now: number): string[] {
  const ports = p.ports.length > 0 ? ` · listening on ${p.ports.join(', ')}` : '';
  const started = Date.parse(p.startedAt);
  const age = Number.isFinite(started) ? ` · up ${formatDuration(Math.max(0, now - started))}` : '';
  const line = `${'  '.repeat(depth)}- ${p.name} (pid ${p.pid}, parent ${p.parentPid})${ports}${age}: ${p.commandLine}`;
  return [line, ...(p.children ?? []).flatMap((c) => processLine(c, depth + 1, now))];
}

export function renderProcesses(result: ListProcessesResult, now = Date.now()): string {
  const blocks: string[] = [];
  const byTerminal = new Map<string, TrackedProcess[]>();
  for (const p of result.active) byTerminal.set(p.terminalName, [...(byTerminal.get(p.terminalName) ?? []), p]);
  for (const [terminal, processes] of byTerminal) {
    blocks.push(`Terminal ${quote(terminal)}:\n${processes.flatMap((p) => processLine(p, 0, now)).join('\n')}`);
  }
  if (result.orphaned.length > 0) {
    blocks.push(`Orphaned (left running by an earlier window; kill_orphans ends them):\n${result.orphaned.flatMap((p) => processLine(p, 0, now)).join('\n')}`);
  }
  return blocks.length > 0 ? blocks.join('\n\n') : 'No process started from a managed terminal is running, and there are no orphans.';
}

export function renderKill(result: KillResult): string {
  const parts: string[] = [];
  parts.push(result.killed.length > 0 ? `Killed ${result.killed.length}: pid ${result.killed.join(', ')}.` : 'Nothing was killed.');
  if (result.failed.length > 0) {
    parts.push(`Could not kill pid ${result.failed.join(', ')} (still alive, or not permitted); see list_processes.`);
  }
  return parts.join(' ');
}
