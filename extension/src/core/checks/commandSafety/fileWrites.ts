/**
 * Detected file writes, as VS Code's chat.tools.terminal.blockDetectedFileWrites reads them
 * (microsoft/vscode, chatAgentTools/browser/tools/commandLineAnalyzer/commandLineFileWriteAnalyzer.ts):
 * redirect targets and `sed -i` files, resolved against the directory the command runs in. With
 * `outsideWorkspace` (the default) a write keeps a line from running unasked when it leaves the
 * workspace folders, when the directory is unknown, or when the path holds `$ ( ) { } \` ~ %`
 * (`/tmp/…` passes only once all commands are allowed for the session); `all` asks for every write.
 * Stricter than VS Code: `tee` files count as writes, and so does a write into the workspace's
 * `.git/`, `.vscode/` or `.devtools/` (git hooks and VS Code's own settings, these rules among them,
 * run or decide later without a question).
 */
import path from 'node:path';
import { isInside } from '../../fsUtil';
import { programName, type ParsedLine } from './shellSyntax';

export type BlockFileWrites = 'never' | 'outsideWorkspace' | 'all';

export interface WriteContext {
  readonly setting: BlockFileWrites;
  /** Where the line runs; undefined when not known. */
  readonly cwd: string | undefined;
  readonly workspaceFolders: readonly string[];
  /** "Allow all commands in this session" was given (VS Code then lets `/tmp/…` pass). */
  readonly sessionAllowsAll: boolean;
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
  const targets = [...line.redirectTargets, ...commandWrites(line)].filter((t) => t !== nullDevice);
  const writes = targets.map((t) => (context.cwd === undefined ? t : resolve(context.cwd, stripQuotes(t))));
  if (writes.length === 0 || context.setting === 'never') return { writes, blocked: undefined };
  const list = writes.map((w) => `\`${w}\``).join(', ');
  if (context.setting === 'all') return { writes, blocked: `it writes to ${list} (chat.tools.terminal.blockDetectedFileWrites is "all")` };
  if (context.workspaceFolders.length === 0) return { writes, blocked: `it writes to ${list} and no workspace folder is open` };
  for (const write of writes) {
    if (!path.isAbsolute(write)) return { writes, blocked: `it writes to \`${write}\` and the directory it runs in is not known` };
    if (/[$(){}`~%]/.test(write) || /![^!\r\n]+!/.test(write)) return { writes, blocked: `it writes to \`${write}\`, a path a variable, a sub-command or ~ decides` };
    const folder = context.workspaceFolders.find((f) => isInside(write, f));
    if (folder === undefined) {
      if (context.sessionAllowsAll && write.startsWith('/tmp/')) continue;
      return { writes, blocked: `it writes to \`${write}\`, outside the workspace` };
    }
    const top = path.relative(folder, write).split(path.sep)[0];
    if (top !== undefined && PROTECTED.includes(top)) return { writes, blocked: `it writes to \`${write}\`, inside the workspace's ${top}/ folder` };
  }
  return { writes, blocked: undefined };
}

/** Files written by `sed -i` (VS Code) and `tee` (ours) among the sub-commands. */
function commandWrites(line: ParsedLine): string[] {
  const files: string[] = [];
  for (const command of line.commands) {
    const [program, ...args] = command.words.map((w) => w.value ?? w.raw);
    const name = programName(program);
    if (name === 'sed' && args.some((a) => /^-[a-zA-Z]*[iI]/.test(a) || a.startsWith('--in-place'))) files.push(...sedFiles(args));
    if (name === 'tee') files.push(...args.filter((a) => !a.startsWith('-')));
  }
  return files;
}

/** The files after sed's script: the first operand is the script unless -e/-f/--expression/--file gave it. */
function sedFiles(args: readonly string[]): string[] {
  const operands: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-e' || arg === '-f' || arg === '--expression' || arg === '--file') {
      scriptGiven = true;
      i++;
    } else if (/^--(expression|file)=/.test(arg) || /^-[a-zA-Z]*[ef]./.test(arg)) {
      scriptGiven = true;
    } else if (!arg.startsWith('-')) {
      operands.push(arg);
    }
  }
  return scriptGiven ? operands : operands.slice(1);
}

function stripQuotes(target: string): string {
  let value = target;
  while (/^(['"]).*\1$/s.test(value) && value.length >= 2) value = value.slice(1, -1);
  return value;
}

function resolve(cwd: string, target: string): string {
  return path.isAbsolute(target) ? path.normalize(target) : path.join(cwd, target);
}
