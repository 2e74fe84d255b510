/**
 * macOS: the user's own processes whose environment carries a mark, from one `ps -E -x -ww`
 * (BSD ps: -x without -a lists the caller's own processes, terminal or not; -E appends each
 * process's environment at launch, space-separated, after its arguments in the last column).
 * Since Big Sur the kernel hides the environment of restricted processes (platform binaries
 * such as /bin/sleep, hardened-runtime apps): ps prints their arguments alone, so they carry no
 * mark here (docs/ledger.md says what is found instead).
 */
import { DARWIN_PS_COLUMNS, parseDarwinPsLine } from './darwinParsers';

/** tpgid first (0 or less: no controlling terminal), then the table's columns with `command` last: the column -E extends. */
export const DARWIN_MARK_COLUMNS = `tpgid=,${DARWIN_PS_COLUMNS.replace(/args=$/, 'command=')}`;

/** One process of the scan: its identity and marks. Its command line is read again without -E: the environment may hold secrets. */
export interface DarwinMarkedRow {
  readonly pid: number;
  readonly startTime: string;
  readonly marks: Readonly<Record<string, string>>;
  /** A session leader (`s` in stat) with a controlling terminal: a terminal's shell itself. */
  readonly terminalShell: boolean;
}

/** The rows of `ps -E -x -ww -o ${DARWIN_MARK_COLUMNS}` whose environment carries any of `names`; zombies and other lines skipped. */
export function parseDarwinMarkedPs(output: string, names: readonly string[]): DarwinMarkedRow[] {
  const out: DarwinMarkedRow[] = [];
  for (const line of output.split('\n')) {
    const m = /^\s*(-?\d+)\s+(.*)$/.exec(line);
    const row = m ? parseDarwinPsLine(m[2]!) : undefined;
    const marks = row && !row.stat.startsWith('Z') ? environmentValues(row.commandLine, names) : undefined;
    if (row && marks) {
      out.push({ pid: row.pid, startTime: row.startTime, marks, terminalShell: row.stat.slice(1).includes('s') && Number(m![1]) > 0 });
    }
  }
  return out;
}

/** Where the next `NAME=` of the environment starts: a space, then a variable name and `=`. */
const NEXT_VARIABLE = / [A-Za-z_][A-Za-z0-9_]*=/g;

/**
 * The values of `names` in `ps -E`'s last column (arguments, then `NAME=value` pairs joined by
 * spaces). The LAST ` NAME=` wins: the environment follows the arguments, so an argument that
 * merely looks like a mark is overridden by the real one. A value runs to the next ` NAME=` or
 * the end of the line, so a value may contain spaces (a terminal named "dev server") but is cut
 * where it contains ` WORD=` itself; a value that must be exact (the session id) is matched
 * against the ledger's log by the caller.
 */
export function environmentValues(text: string, names: readonly string[]): Record<string, string> | undefined {
  let found: Record<string, string> | undefined;
  for (const name of names) {
    const key = ` ${name}=`;
    const at = text.lastIndexOf(key);
    if (at < 0) continue;
    const start = at + key.length;
    NEXT_VARIABLE.lastIndex = start;
    const next = NEXT_VARIABLE.exec(text);
    (found ??= {})[name] = text.slice(start, next ? next.index : text.length);
  }
  return found;
}
