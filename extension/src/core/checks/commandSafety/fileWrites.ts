/**
 * Detected file writes, as VS Code's chat.tools.terminal.blockDetectedFileWrites reads them
 * (microsoft/vscode, chatAgentTools/browser/tools/commandLineAnalyzer/commandLineFileWriteAnalyzer.ts):
 * redirect targets and `sed -i` files, resolved against the directory the command runs in. With
 * `outsideWorkspace` (the default) a write keeps a line from running unasked when it leaves the
 * workspace folders, when the directory is unknown, or when the path holds `$ ( ) { } \` ~ %`
 * (`/tmp/…` passes only once all commands are allowed for the session); `all` asks for every write.
 * Where a write lands is read as the shell reads it: quotes, escapes and `$'…'` resolved, the
 * directory followed through the line (`cd`, `pushd`, `Set-Location`, …; after one, a relative
 * target is judged against every directory it may run in), and a target an expansion decides is
 * unknown. Stricter than VS Code (`shellReading`): `tee` files and the output options of approved
 * readers (outputOptions.ts) count as writes, and so does a write into the workspace's `.git/`,
 * `.vscode/` or `.devtools/` (git hooks and VS Code's own settings, these rules among them, run or
 * decide later without a question).
 */
import path from 'node:path';
import { isInside } from '../../fsUtil';
import { outputWrites } from './outputOptions';
import { readSed } from './sedScript';
import { programName, type ParsedLine, type Word } from './shellSyntax';

export type BlockFileWrites = 'never' | 'outsideWorkspace' | 'all';

export interface WriteContext {
  readonly setting: BlockFileWrites;
  /** Where the line runs; undefined when not known. */
  readonly cwd: string | undefined;
  readonly workspaceFolders: readonly string[];
  /** "Allow all commands in this session" was given (VS Code then lets `/tmp/…` pass). */
  readonly sessionAllowsAll: boolean;
  /** Our stricter readings too (tee, output options, the protected folders); off where the person approved the whole line. */
  readonly shellReading: boolean;
}

export interface WriteVerdict {
  /** The writes, as resolved. */
  readonly writes: readonly string[];
  /** Why they keep the line from running unasked; undefined when they do not. */
  readonly blocked: string | undefined;
}

/** Folders in the workspace whose files act later without a question. */
const PROTECTED = ['.git', '.vscode', '.devtools'];

export function checkFileWrites(line: ParsedLine, context: WriteContext): WriteVerdict {
  const powershell = line.grammar === 'powershell';
  const nullDevice = powershell ? '$null' : '/dev/null';
  const targets = lineWrites(line, context.shellReading).filter((t) => t.word.value !== nullDevice && t.word.raw !== nullDevice);
  const directories = new Directories(line, context.cwd);
  const writes = targets.flatMap((t) => placed(t.word, directories.at(t.at)));
  if (writes.length === 0 || context.setting === 'never') return { writes, blocked: undefined };
  const list = writes.map((w) => `\`${w}\``).join(', ');
  if (context.setting === 'all') return { writes, blocked: `it writes to ${list} (chat.tools.terminal.blockDetectedFileWrites is "all")` };
  if (context.workspaceFolders.length === 0) return { writes, blocked: `it writes to ${list} and no workspace folder is open` };
  for (const write of writes) {
    if (/[$(){}`~%]/.test(write) || /![^!\r\n]+!/.test(write)) return { writes, blocked: `it writes to \`${write}\`, a path a variable, a sub-command or ~ decides` };
    if (!path.isAbsolute(write)) return { writes, blocked: `it writes to \`${write}\` and the directory it runs in is not known` };
    const folder = context.workspaceFolders.find((f) => isInside(write, f));
    if (folder === undefined) {
      if (context.sessionAllowsAll && write.startsWith('/tmp/')) continue;
      return { writes, blocked: `it writes to \`${write}\`, outside the workspace` };
    }
    const top = path.relative(folder, write).split(path.sep)[0];
    if (context.shellReading && top !== undefined && PROTECTED.includes(top)) return { writes, blocked: `it writes to \`${write}\`, inside the workspace's ${top}/ folder` };
  }
  return { writes, blocked: undefined };
}

/** A write and where in the line it happens. */
export interface LineWrite {
  readonly word: Word;
  readonly at: number;
}

/** Redirects and `sed -i` files (VS Code), with `tee` files and output options (ours) when `shellReading`. */
export function lineWrites(line: ParsedLine, shellReading: boolean): LineWrite[] {
  // A nested script (`bash -c "cd x; …"`) is judged against every directory the line may reach.
  const writes: LineWrite[] = line.redirects.map((r) => ({ word: r, at: r.nested ? Infinity : r.at }));
  for (const command of line.commands) {
    const at = command.nested ? Infinity : command.at;
    const name = programName(command.words[0]?.value);
    const args = command.words.slice(1);
    if (name === 'sed' || name === 'sed.exe') writes.push(...readSed(args).inPlace.map((word) => ({ word, at })));
    if (!shellReading) continue;
    if (name === 'tee') writes.push(...args.filter((a) => !(a.value ?? a.raw).startsWith('-')).map((word) => ({ word, at })));
    writes.push(...outputWrites(command.words).map((word) => ({ word, at })));
  }
  return writes;
}

/** Where a target lands from each directory the command may run in (unknown: as written, so it asks). */
function placed(word: Word, directories: readonly string[] | undefined): string[] {
  const target = word.value;
  if (target === undefined) return [word.raw.includes('$') || word.raw.includes('`') ? word.raw : `$(${word.raw})`];
  if (path.isAbsolute(target) || /[$(){}`~%]/.test(target[0] ?? '')) return [path.isAbsolute(target) ? path.normalize(target) : target];
  return directories === undefined ? [target] : [...new Set(directories.map((d) => path.join(d, target)))];
}

const CHANGE_DIRECTORY = new Set(['cd', 'pushd', 'popd', 'chdir', 'set-location', 'sl', 'push-location', 'pop-location']);

/**
 * The directories a command may run in, by its place in the line: every `cd` before it adds its
 * target (it may have failed, or run in a subshell, so the earlier ones stay possible); a `cd` to
 * where an expansion, `~`, `-` or the directory stack decides makes it unknown.
 */
class Directories {
  private readonly changes: { at: number; to: string | undefined }[] = [];

  constructor(
    line: ParsedLine,
    private readonly cwd: string | undefined,
  ) {
    for (const command of line.commands) {
      const name = (programName(command.words[0]?.value) ?? '').toLowerCase();
      if (!CHANGE_DIRECTORY.has(name)) continue;
      const operands = command.words.slice(1).filter((w, i, all) => !/^-(P|L|e|@|-|Path|LiteralPath)$/i.test(w.value ?? '') || all[i + 1] === undefined);
      const to = operands.length === 1 && !name.startsWith('pop') && name !== 'popd' ? operands[0]!.value : undefined;
      this.changes.push({ at: command.at, to: to === undefined || /^[~-]|^\+\d/.test(to) ? undefined : to });
    }
  }

  at(position: number): string[] | undefined {
    if (this.cwd === undefined) return undefined;
    let possible = [this.cwd];
    for (const change of this.changes) {
      if (change.at >= position) continue;
      if (change.to === undefined) return undefined;
      const to = change.to;
      possible = [...new Set([...possible, ...possible.map((d) => path.resolve(d, to))])];
    }
    return possible;
  }
}
