/**
 * What the status bar item says for a ledger summary. Pure, so its texts are unit-tested.
 *
 * The item is hidden while nothing is tracked: a permanent "0" would take room in every window,
 * also where no agent ever ran anything, and the Processes view (activity bar) stays the
 * always-there entry point. It appears with the first tracked process and turns to the warning
 * colours while processes of an earlier window (orphans) are alive, the one state that asks the
 * user to act.
 */
import type { DevServer, LedgerSummary } from '../../../../common/src/protocol';
import { countProcesses, escapeMarkdown, processDescription, type ProcessFacts } from './format';
import { serverFacts } from './processModel';

export interface StatusBarModel {
  readonly visible: boolean;
  /** With codicons, e.g. "$(server-process) 2  $(warning) 1". */
  readonly text: string;
  /** Markdown. */
  readonly tooltip: string;
  /** What a screen reader says (codicons read badly). */
  readonly accessibilityLabel: string;
  /** Orphans are alive: warning background. */
  readonly warning: boolean;
}

/** Processes listed in the tooltip; more are counted. */
export const TOOLTIP_MAX_LISTED = 10;

export function statusBarModel(summary: LedgerSummary, now: number, devServers: readonly DevServer[] = []): StatusBarModel {
  const running = summary.running.length;
  const orphaned = summary.orphaned.length;
  const servers = serverFacts(devServers);
  const counts = [
    countProcesses(running, 'running'),
    ...(servers.count > 0 ? [`${servers.count} dev server${servers.count === 1 ? '' : 's'}`] : []),
    ...(orphaned > 0 ? [countProcesses(orphaned, 'orphaned')] : []),
  ].join(', ');
  const text = [`$(server-process) ${running}`, ...(servers.count > 0 ? [`$(globe) ${servers.count}`] : []), ...(orphaned > 0 ? [`$(warning) ${orphaned}`] : [])].join('  ');
  const lines = [`**Terminal Shepherd**: ${escapeMarkdown(counts)}`, ''];
  if (servers.count > 0) {
    lines.push('Dev servers:', '', ...servers.servers.map((s) => `- ${s.url !== undefined ? `[${escapeMarkdown(s.url)}](${s.url}) · ` : ''}${escapeMarkdown(s.text)}`), '');
  }
  let budget = TOOLTIP_MAX_LISTED;
  const section = (title: string, entries: readonly ProcessFacts[]): void => {
    if (entries.length === 0) return;
    lines.push(`${title}:`, '');
    const shown = entries.slice(0, Math.max(0, budget));
    budget -= shown.length;
    for (const e of shown) lines.push(`- ${tooltipLine(e, now)}`);
    if (entries.length > shown.length) lines.push(`- … and ${entries.length - shown.length} more`);
    lines.push('');
  };
  section('Running', summary.running);
  section('Orphaned (left by an earlier window)', summary.orphaned);
  lines.push('Click to show processes.');
  return {
    visible: running + orphaned > 0,
    text,
    tooltip: lines.join('\n'),
    accessibilityLabel: `Terminal Shepherd: ${counts}`,
    warning: orphaned > 0,
  };
}

export function sameModel(a: StatusBarModel, b: StatusBarModel): boolean {
  return a.visible === b.visible && a.text === b.text && a.tooltip === b.tooltip && a.accessibilityLabel === b.accessibilityLabel && a.warning === b.warning;
}

function tooltipLine(e: ProcessFacts, now: number): string {
  const where = e.terminalName ? ` in ${escapeMarkdown(e.terminalName)}` : '';
  return `**${escapeMarkdown(e.name || 'process')}** ${escapeMarkdown(processDescription(e, now))}${where}`;
}
