/**
 * The short reminder every tool response carries: what the agent's commands left running and
 * what earlier windows left behind, one line per process with a cap, so nothing is forgotten.
 */
import { z } from 'zod';
import { formatDuration } from '../../common/src/format';
import { ledgerEntrySchema, serverEntrySchema, type LedgerSummary } from '../../common/src/protocol';

/** Most processes listed per group; the rest are counted. */
export const REMINDER_CAP = 8;

export const ledgerReminderSchema = z
  .object({
    running: z.array(ledgerEntrySchema).describe('Processes still running under managed terminals (first few).'),
    orphaned: z.array(ledgerEntrySchema).describe('Processes an earlier window left running (first few); kill_orphans ends them.'),
    runningTotal: z.number().int(),
    orphanedTotal: z.number().int(),
    servers: z.array(serverEntrySchema).optional().describe('Dev servers running under managed terminals, with their URLs (first few).'),
  })
  .describe('What is still running and what is orphaned, attached to every response.');
export type LedgerReminder = z.infer<typeof ledgerReminderSchema>;

export function toReminder(summary: LedgerSummary): LedgerReminder {
  return {
    running: summary.running.slice(0, REMINDER_CAP),
    orphaned: summary.orphaned.slice(0, REMINDER_CAP),
    runningTotal: summary.running.length,
    orphanedTotal: summary.orphaned.length,
    ...(summary.servers && summary.servers.length > 0 ? { servers: summary.servers.slice(0, REMINDER_CAP) } : {}),
  };
}

function entryLine(entry: LedgerReminder['running'][number], now: number): string {
  const ports = entry.ports.length > 0 ? `, listening on ${entry.ports.join(', ')}` : '';
  const age = Date.parse(entry.startedAt);
  const since = Number.isFinite(age) ? `, up ${formatDuration(Math.max(0, now - age))}` : '';
  return `- ${entry.name}, pid ${entry.pid}${ports}, terminal ${JSON.stringify(entry.terminalName)}${since}`;
}

/** Empty when nothing runs: no noise on responses that have nothing to remind of. */
export function renderReminder(reminder: LedgerReminder, now = Date.now()): string {
  const blocks: string[] = [];
  if (reminder.servers && reminder.servers.length > 0) {
    const lines = reminder.servers.map((s) => {
      const where = s.urls.length > 0 ? s.urls.join(', ') : s.ports.length > 0 ? `port ${s.ports.join(', ')}` : 'no port yet';
      return `- \`${s.command}\` in terminal ${JSON.stringify(s.terminal)}: ${where}${s.pid !== undefined ? ` (pid ${s.pid})` : ''}`;
    });
    blocks.push(`Dev servers running (reuse them; terminal_run with the same command says already_running):\n${lines.join('\n')}`);
  }
  const group = (title: string, entries: LedgerReminder['running'], total: number, hint: string): void => {
    if (total === 0) return;
    const lines = entries.map((e) => entryLine(e, now));
    if (total > entries.length) lines.push(`- and ${total - entries.length} more`);
    blocks.push(`${title} (${total}; ${hint}):\n${lines.join('\n')}`);
  };
  group('Still running', reminder.running, reminder.runningTotal, 'list_processes shows them, kill_process stops one');
  group('Orphaned by an earlier window', reminder.orphaned, reminder.orphanedTotal, 'kill_orphans ends them');
  return blocks.join('\n');
}
