/**
 * Output options of the readers VS Code approves by default: each writes a file, so each is a
 * detected write (judged like a redirect: chat.tools.terminal.blockDetectedFileWrites). The table
 * is every default-approved program of VS Code 1.139 that has one (defaultRules.ts); the others
 * (cat, ls, grep, rg, head, wc, column, df --output = a field list, …) write nothing.
 */
import { programName, type Word } from './shellSyntax';

/** How an option names its file: in the next word, attached (`-ofile`, `--output=file`), or nowhere this reading can place. */
interface OutputOption {
  /** Short letters (in a combined cluster too, getopt style: `-uo file`, `-ofile`). */
  readonly short?: string;
  /** Long name; any unambiguous prefix of at least `abbreviation` characters also counts (getopt_long). */
  readonly long?: string;
  readonly abbreviation?: number;
  /** find's actions: one dash, whole word, the file next. */
  readonly action?: string;
  /** The write lands where this reading cannot say (tree -R writes 00Tree.html into every folder; file -C a .mgc). */
  readonly unplaced?: boolean;
}

interface Reader {
  readonly program: string;
  /** The sub-command words after the program (and its global options, for git). */
  readonly sub?: readonly string[];
  readonly options: readonly OutputOption[];
}

/** The table (docs/safety.md lists it). */
export const OUTPUT_OPTIONS: readonly Reader[] = [
  { program: 'find', options: [{ action: '-fprint' }, { action: '-fprint0' }, { action: '-fprintf' }, { action: '-fls' }] },
  { program: 'sort', options: [{ short: 'o', long: 'output', abbreviation: 1 }] },
  { program: 'git', sub: ['log'], options: [{ long: 'output', abbreviation: 3 }] },
  { program: 'git', sub: ['show'], options: [{ long: 'output', abbreviation: 3 }] },
  { program: 'git', sub: ['diff'], options: [{ long: 'output', abbreviation: 3 }] },
  { program: 'tree', options: [{ short: 'o' }, { short: 'R', unplaced: true }] },
  { program: 'docker', sub: ['compose', 'config'], options: [{ short: 'o', long: 'output' }] },
  { program: 'file', options: [{ short: 'C', unplaced: true }] },
];

/** The files a reader's output options write: their words (an unknown value, or `unplaced`, asks wherever it lands). */
export function outputWrites(words: readonly Word[]): Word[] {
  const program = programName(words[0]?.value);
  const writes: Word[] = [];
  for (const reader of OUTPUT_OPTIONS) {
    if (reader.program !== program) continue;
    const start = subCommandEnd(words, reader);
    if (start === undefined) continue;
    for (let i = start; i < words.length; i++) {
      const value = words[i]!.value;
      if (value === '--') break;
      if (value === undefined) continue;
      for (const option of reader.options) {
        const found = matchOption(value, option);
        if (found === undefined) continue;
        if (option.unplaced) writes.push({ raw: value, value: undefined });
        else if (found.attached !== undefined) writes.push({ raw: found.attached, value: found.attached });
        else if (words[i + 1]) writes.push(words[++i]!);
        break;
      }
    }
  }
  return writes;
}

/** Where the options start: after the program, git's global options and the sub-command words; undefined when the sub-command is another. */
function subCommandEnd(words: readonly Word[], reader: Reader): number | undefined {
  let i = 1;
  if (reader.program === 'git') {
    while (i < words.length && /^-/.test(words[i]!.value ?? '')) i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(words[i]!.value!) ? 2 : 1;
  }
  for (const sub of reader.sub ?? []) {
    if (words[i]?.value !== sub) return undefined;
    i++;
  }
  return i;
}

function matchOption(word: string, option: OutputOption): { attached: string | undefined } | undefined {
  if (option.action !== undefined) return word === option.action ? { attached: undefined } : undefined;
  if (option.long !== undefined && word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = word.slice(2, eq < 0 ? undefined : eq);
    if (name.length >= (option.abbreviation ?? option.long.length) && option.long.startsWith(name)) return { attached: eq < 0 ? undefined : word.slice(eq + 1) };
    return undefined;
  }
  if (option.short !== undefined && /^-[^-]/.test(word)) {
    // A getopt cluster: flags, then the option letter; what follows it is its value.
    const at = word.indexOf(option.short, 1);
    if (at < 0 || !/^[a-zA-Z]*$/.test(word.slice(1, at))) return undefined;
    const rest = word.slice(at + 1);
    return { attached: rest.length > 0 ? rest : undefined };
  }
  return undefined;
}
