/** Text renderings of tool results: what a model reads when it ignores structuredContent. */
import { formatCost } from '../../../../common/src/processCost';
import { formatDuration, ownerLabel } from '../../../../common/src/format';
import type { DevServer, KillResult, ListProcessesResult, TerminalInfo, TerminalRunResult, TrackedProcess, WorkspaceInfoResult } from '../../../../common/src/protocol';


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
  if (result.ready && result.ready.urls.length > 0) lines.push(`URLs: ${result.ready.urls.join(', ')}`);
  if (result.server && result.server.urls.length > 0) lines.push(`URLs: ${result.server.urls.join(', ')}`);
  if (result.cost) lines.push(`Its terminal's processes: ${result.cost.processes} process${result.cost.processes === 1 ? '' : 'es'}, ${formatCost(result.cost)}.`);
  if (result.watch) lines.push(`Watching (${result.watch.tool}, cycle ${result.watch.cycle}): ${result.watch.summary.join(' · ') || 'no summary line'}`);
  if (result.message) lines.push(result.message);
  if (result.nextCall) lines.push(`Next call: ${result.nextCall.tool} ${JSON.stringify(result.nextCall.arguments)}`);
  if (result.truncated) lines.push(`Output truncated (head and tail kept); the full output is in ${result.outputFile ?? 'the log file'}.`);
  else if (result.outputFile) lines.push(`Its output is also written to ${result.outputFile} while it runs.`);
  lines.push('--- output ---');
  lines.push(result.output.length > 0 ? result.output : '(no output)');
  if (result.previous) {
    const p = result.previous;
    lines.push(`--- previous command \`${p.command}\`: ${p.status}${p.exitCode !== undefined ? `, exit code ${p.exitCode}` : ''}, ${formatDuration(p.durationMs)} (last lines) ---`);
    lines.push(p.output.length > 0 ? p.output : '(no output)');
  }
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
      if (t.agentSession) parts.push(`started by ${ownerLabel(t)}`);
      if (!t.shellIntegration) parts.push('no shell integration');
      return parts.join(' · ');
    })
    .join('\n');
}

function processLine(p: TrackedProcess, depth: number, now: number): string[] {
  const ports = p.ports.length > 0 ? ` · listening on ${p.ports.join(', ')}` : '';
  const started = Date.parse(p.startedAt);
  const age = Number.isFinite(started) ? ` · up ${formatDuration(Math.max(0, now - started))}` : '';
  // A tree's descendants belong to its root's owner: said once, on the root.
  const owner = depth === 0 ? ownerLabel(p) : undefined;
  const session = owner ? ` · started by ${owner}` : '';
  const cost = formatCost(p);
  const line = `${'  '.repeat(depth)}- ${p.name} (pid ${p.pid}, parent ${p.parentPid})${ports}${age}${cost ? ` · ${cost}` : ''}${session}: ${p.commandLine}`;
  return [line, ...(p.children ?? []).flatMap((c) => processLine(c, depth + 1, now))];
}

export function renderProcesses(result: ListProcessesResult, now = Date.now()): string {
  const blocks: string[] = [];
  const byTerminal = new Map<string, TrackedProcess[]>();
  for (const p of result.active) byTerminal.set(p.terminalName, [...(byTerminal.get(p.terminalName) ?? []), p]);
  for (const [terminal, processes] of byTerminal) {
    const where = processes[0]?.clientTools ? `Outside managed terminals, ${quote(terminal)}` : `Terminal ${quote(terminal)}`;
    blocks.push(`${where}:\n${processes.flatMap((p) => processLine(p, 0, now)).join('\n')}`);
  }
  if (result.orphaned.length > 0) {
    blocks.push(`Orphaned (left running by an earlier window or a client that is gone; kill_orphans ends them):\n${result.orphaned.flatMap((p) => processLine(p, 0, now)).join('\n')}`);
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

function serverLine(s: DevServer): string {
  const parts = [s.terminal !== undefined ? `terminal ${quote(s.terminal)}` : 'orphaned by an earlier window'];
  if (s.pid !== undefined) parts.push(`pid ${s.pid}`);
  parts.push(s.urls.length > 0 ? s.urls.join(', ') : s.ports.length > 0 ? `port ${s.ports.join(', ')}` : 'no port');
  parts.push(`up ${formatDuration(s.uptimeMs)}`);
  if (s.healthy !== undefined) parts.push(s.healthy ? 'answers' : 'NOT answering');
  return `- \`${s.command}\`${s.cwd ? ` in ${s.cwd}` : ''}: ${parts.join(' · ')}`;
}

export function renderWorkspaceInfo(result: WorkspaceInfoResult): string {
  const blocks: string[] = [];
  const a = result.analysis;
  if (!a) {
    blocks.push('No workspace folder is open: no stacks to detect.');
  } else {
    blocks.push(`Stacks: ${a.detectedStacks.length > 0 ? a.detectedStacks.join(', ') : 'none recognised'} (root ${a.projectRoot})`);
    if (a.projects.length > 0) {
      blocks.push(
        `Projects:\n${a.projects.map((p) => `- ${p.path}: ${p.stacks.join(', ')}${p.packageManager ? ` (package manager ${p.packageManager})` : ''}`).join('\n')}`,
      );
    }
    if (a.devCommands.length > 0) {
      blocks.push(`Dev-server commands (run with terminal_run, waitMode "ready"):\n${a.devCommands.map((c) => `- ${c.command}  (cwd ${quote(c.cwd)}; ${c.source})`).join('\n')}`);
    }
    if (a.expectedProcesses.length > 0) blocks.push(`Expected processes: ${a.expectedProcesses.join(', ')}`);
    if (a.truncated) blocks.push('The scan stopped at its bounds: projects nested deeper may be missing.');
  }
  blocks.push(result.servers.length > 0 ? `Dev servers running now:\n${result.servers.map(serverLine).join('\n')}` : 'No dev server is running.');
  return blocks.join('\n\n');
}
