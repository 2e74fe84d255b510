/**
 * The short reminder every tool response carries: what the agent's commands left running and
 * what earlier windows left behind, one line per process with a cap, so nothing is forgotten.
 */
import { z } from 'zod';
import { formatDuration } from '../../../../common/src/format';
import { formatCost } from '../../../../common/src/processCost';
import { ledgerEntrySchema, serverEntrySchema, type LedgerSummary } from '../../../../common/src/protocol';

/** Most processes listed per group; the rest are counted. */
export const REMINDER_CAP = 8;

/** What to do about processes still running, and about orphans: in the text and in the structured ledger alike. */
const RUNNING_NEXT = 'list_processes shows them, kill_process stops one';
const ORPHANED_NEXT = 'kill_orphans ends them';

export const ledgerReminderSchema = z
  .object({
    running: z.array(ledgerEntrySchema).optional().describe('Processes still running under managed terminals (first few; absent when none).'),
    orphaned: z.array(ledgerEntrySchema).optional().describe('Processes an earlier window left running (first few; absent when none).'),
    runningTotal: z.number().int(),
    orphanedTotal: z.number().int(),
    servers: z.array(serverEntrySchema).optional().describe('Dev servers running under managed terminals, with their URLs (first few).'),
    next: z.string().optional().describe('What to do about them (absent when nothing runs).'),
  })
  .describe('What is still running and what is orphaned, attached to every response: just the two totals when nothing is.');
export type LedgerReminder = z.infer<typeof ledgerReminderSchema>;

/** Adds the ledger reminder to a tool's output schema (every response carries it). */
export function withReminder<T extends z.ZodRawShape>(schema: z.ZodObject<T>) {
  return schema.extend({ ledger: ledgerReminderSchema.optional() });
}

export function toReminder(summary: LedgerSummary): LedgerReminder {
  const next = [summary.running.length > 0 ? RUNNING_NEXT : undefined, summary.orphaned.length > 0 ? ORPHANED_NEXT : undefined].filter((n) => n !== undefined);
  return {
    ...(summary.running.length > 0 ? { running: summary.running.slice(0, REMINDER_CAP) } : {}),
    ...(summary.orphaned.length > 0 ? { orphaned: summary.orphaned.slice(0, REMINDER_CAP) } : {}),
    runningTotal: summary.running.length,
    orphanedTotal: summary.orphaned.length,
    ...(summary.servers && summary.servers.length > 0 ? { servers: summary.servers.slice(0, REMINDER_CAP) } : {}),
    ...(next.length > 0 ? { next: `${next.join('; ')}.` } : {}),
  };
}

type LedgerEntry = NonNullable<LedgerReminder['running']>[number];

function entryLine(entry: LedgerEntry, now: number): string {
  const ports = entry.ports.length > 0 ? `, listening on ${entry.ports.join(', ')}` : '';
  const age = Date.parse(entry.startedAt);
  const since = Number.isFinite(age) ? `, up ${formatDuration(Math.max(0, now - age))}` : '';
  const cost = formatCost(entry);
  return `- ${entry.name}, pid ${entry.pid}${ports}, terminal ${JSON.stringify(entry.terminalName)}${since}${cost ? `, ${cost}` : ''}`;
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
  const group = (title: string, entries: readonly LedgerEntry[] = [], total: number, hint: string): void => {
    if (total === 0) return;
    const lines = entries.map((e) => entryLine(e, now));
    if (total > entries.length) lines.push(`- and ${total - entries.length} more`);
    blocks.push(`${title} (${total}; ${hint}):\n${lines.join('\n')}`);
  };
  group('Still running', reminder.running, reminder.runningTotal, RUNNING_NEXT);
  group('Orphaned by an earlier window', reminder.orphaned, reminder.orphanedTotal, ORPHANED_NEXT);
  return blocks.join('\n');
}
