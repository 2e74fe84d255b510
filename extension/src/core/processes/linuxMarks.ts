/**
 * Linux: the user's own processes whose environment carries a mark, from /proc/PID/environ.
 * Every process of the user is read once, so this is for a window's startup, never for polling
 * (measured in test/bench: a few milliseconds for a few hundred processes). A process that
 * rewrote its environment (`env -i`, a daemon that clears it) carries no mark and is not found.
 */
import { readdirSync, statSync } from 'node:fs';
import { environValues, type ProcStat } from './linuxProcParsers';
import type { ProcReader } from './procReader';
import { YIELD_EVERY, yieldToEventLoop } from './procReader';
import type { MarkedProcess, ProcessInfo } from './types';

export interface MarkScanSource {
  readonly root: string;
  readonly reader: ProcReader;
  /** The process's stat and description, or undefined when it is gone or a zombie. */
  readonly describe: (pid: number) => { readonly stat: ProcStat; readonly info: ProcessInfo } | undefined;
  /** Whose processes count (default: this process's real user). */
  readonly uid?: number;
}

export async function scanMarkedProcesses(source: MarkScanSource, names: readonly string[]): Promise<MarkedProcess[]> {
  const { root, reader } = source;
  const uid = source.uid ?? process.getuid?.();
  const out: MarkedProcess[] = [];
  let sinceYield = 0;
  for (const name of readdirSync(root)) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    if (++sinceYield === YIELD_EVERY) {
      sinceYield = 0;
      await yieldToEventLoop();
    }
    if (uid !== undefined && ownerUid(`${root}/${name}`) !== uid) continue;
    const environ = reader.read(`${root}/${name}/environ`, true);
    const marks = environ === undefined ? undefined : environValues(environ, names);
    if (!marks) continue;
    const found = source.describe(Number(name));
    if (found) {
      out.push({ info: found.info, marks, terminalShell: found.stat.session === found.stat.pid && found.stat.ttyNr !== 0 });
    }
  }
  return out;
}

function ownerUid(path: string): number | undefined {
  try {
    return statSync(path).uid;
  } catch {
    return undefined; // gone meanwhile
  }
}
