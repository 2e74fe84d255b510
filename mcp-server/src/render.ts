/** Text renderings of tool results: what a model reads when it ignores structuredContent. */
import { formatDuration } from '../../common/src/format';
import type { TerminalInfo, TerminalRunResult } from '../../common/src/protocol';


const quote = (s: string): string => JSON.stringify(s);

export function renderRunResult(result: TerminalRunResult): string {
  const head: string[] = [result.status];
  if (result.exitCode !== undefined) head.push(`exit code ${result.exitCode}`);
  head.push(formatDuration(result.durationMs));
  head.push(`terminal ${quote(result.name)}${result.pid !== undefined ? ` (shell pid ${result.pid})` : ''}`);
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
      const parts = [`${quote(t.name)}: ${t.busy ? 'busy' : 'idle'}`];
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
