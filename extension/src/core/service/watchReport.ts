/**
 * What an agent reads about a command that turned into a watcher: its last cycle (the counts and
 * summary lines), that it keeps watching, and the exact calls that wait for the next cycle, re-run
 * it or stop it.
 */
import { formatDuration } from '../../../../common/src/format';
import type { NextCall, WatchCycle } from '../../../../common/src/protocol';
import { quoteName, stopCall } from '../nextSteps';
import type { WatchCycleEnd } from '../run/watchCycles';
import type { WatchKey } from '../run/watchOutput';

/** The call that waits for what a terminal's command does next (its end, a prompt, readiness, a watcher's next cycle). */
export function waitNext(terminal: string): NextCall {
  return { tool: 'terminal_state', arguments: { name: terminal, wait: true } };
}

function keyCall(terminal: string, key: WatchKey): string {
  return `terminal_input {name: ${quoteName(terminal)}, text: ${JSON.stringify(key.text)}${key.enter ? '' : ', enter: false'}} (${key.does})`;
}

/** The protocol's `watch`: the cycle with the calls that stop and re-run it. */
export function watchInfo(terminal: string, end: WatchCycleEnd): WatchCycle {
  const { watcher } = end;
  const counts = (['passed', 'failed', 'skipped', 'errors', 'warnings'] as const).filter((k) => end[k] !== undefined);
  return {
    tool: watcher.tool,
    cycle: end.cycle,
    summary: end.summary,
    ...Object.fromEntries(counts.map((k) => [k, end[k]])),
    stop: watcher.stop ? `${keyCall(terminal, watcher.stop)}, or ${stopCall(terminal)}` : stopCall(terminal),
    rerun: watcher.rerun ? keyCall(terminal, watcher.rerun) : 'save a file it watches',
  };
}

/** Status watching: what the cycle found, and how to go on. */
export function watchingMessage(terminal: string, info: WatchCycle, quietForMs?: number): string {
  const counts = (['failed', 'passed', 'skipped', 'errors', 'warnings'] as const)
    .filter((k) => info[k] !== undefined)
    .map((k) => `${info[k]} ${k}`);
  const found = counts.length > 0 ? counts.join(', ') : info.summary.length > 0 ? info.summary.join('; ') : 'see the output';
  const since = quietForMs !== undefined ? `No new cycle in ${formatDuration(quietForMs)}. ` : '';
  return (
    `${since}The command is watching for file changes (${info.tool}, cycle ${info.cycle}: ${found}). It keeps running in terminal ${quoteName(terminal)} ` +
    `and runs again when a watched file changes: after an edit, terminal_state {name: ${quoteName(terminal)}, wait: true} returns the next cycle. ` +
    `Re-run it with ${info.rerun === 'save a file it watches' ? 'a saved file' : info.rerun}; stop it with ${info.stop}.`
  );
}
