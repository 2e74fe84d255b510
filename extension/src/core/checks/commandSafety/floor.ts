/**
 * The floor: lines that always ask, whatever the rules, a click for the session, VS Code's global
 * auto-approve or the per-command check being off. Recursive deletion of /, ~, $HOME, the workspace
 * root (or a folder holding it) or a system folder; mkfs, `dd of=/dev/…`, shred, wipefs, a write
 * into a disk device; a download piped (or substituted) into an interpreter; a fork bomb;
 * recursive chmod/chown of / or ~; `kill -1`. Every sub-command is read, with the commands its
 * wrappers run and what `-c` strings, `eval` and heredocs hand to a shell.
 */
import path from 'node:path';
import { argvOf, wrappedCommands, type Argv } from './commandWords';
import { programName, type ParsedLine, type ShellCommand } from './shellSyntax';

export interface FloorContext {
  /** Where the line runs; undefined when not known (relative targets then count as the worst case). */
  readonly cwd: string | undefined;
  readonly workspaceFolders: readonly string[];
  /** The user's home folder. */
  readonly home: string;
}

const SYSTEM_FOLDERS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run', '/sbin', '/snap', '/srv', '/sys', '/usr', '/var',
  '/Applications', '/Library', '/System', '/Users', '/Volumes', '/private', '/cores',
  'c:', 'c:/windows', 'c:/program files', 'c:/program files (x86)', 'c:/programdata', 'c:/users',
]);

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'invoke-webrequest', 'invoke-restmethod', 'iwr', 'irm']);
const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox', 'pwsh', 'powershell', 'cmd',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'osascript',
  'eval', 'source', '.', 'iex', 'invoke-expression', 'exec',
]);
const DELETERS = new Set(['rm', 'remove-item', 'ri', 'del', 'erase', 'rd', 'rmdir']);
const DISK_TOOLS = new Set(['shred', 'wipefs', 'mke2fs', 'format-volume', 'clear-disk']);
const FIND_TESTS = /^-(i?name|i?path|i?wholename|i?regex|type|xtype|size|empty|newer\w*|[acm](time|min)|user|group|uid|gid|perm|links|inum|samefile|lname|ilname|fstype|readable|writable|executable|nouser|nogroup|used)$/;
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/)/;

/** Why the line always asks, or undefined when the floor has nothing to say. */
export function floorReason(line: ParsedLine, context: FloorContext): string | undefined {
  const powershell = line.grammar === 'powershell';
  // A `cd` anywhere in the line makes `.` and `*` mean a directory this reading cannot know.
  const changesDirectory = line.commands.some((c) => ['cd', 'pushd', 'set-location', 'sl', 'chdir'].includes(lower(programName(c.words[0]?.value))));
  const cwd = changesDirectory ? undefined : context.cwd;
  for (const command of line.commands) {
    for (const argv of [argvOf(command), ...wrappedCommands(argvOf(command))]) {
      const reason = commandReason(argv, { ...context, cwd }, powershell);
      if (reason) return `${reason} (\`${command.text.trim()}\`)`;
    }
  }
  for (const target of line.redirects) {
    if (DISK_DEVICE.test(target.value ?? target.raw)) return `it writes over the disk device ${target.raw}`;
  }
  return pipedDownload(line) ?? forkBomb(line);
}

function commandReason(argv: Argv, context: FloorContext, powershell: boolean): string | undefined {
  const program = lower(programName(argv[0]));
  const args = argv.slice(1);
  if (DELETERS.has(program) && recursive(program, args, powershell)) {
    const target = args.find((a) => !isOption(a, powershell) && protectedTarget(a, context));
    if (target !== undefined) return `recursive deletion of ${describeTarget(target, context)}`;
  }
  if (program === 'find' && args.some((a) => a === '-delete' || ['-exec', '-execdir', '-ok', '-okdir'].includes(a))) {
    const start = args.find((a) => !a.startsWith('-'));
    const deletes = args.includes('-delete') || wrappedCommands(argv).some((inner) => DELETERS.has(lower(programName(inner[0]))));
    // A test (-name, -type, -mtime, …) picks files: only a find that takes everything is a recursive deletion.
    const picksFiles = args.some((a) => FIND_TESTS.test(a));
    if (deletes && !picksFiles && start !== undefined && protectedTarget(start, context)) return `recursive deletion of ${describeTarget(start, context)}`;
  }
  if (program.startsWith('mkfs') || DISK_TOOLS.has(program)) return `${program} destroys a disk or the data on it`;
  if (program === 'dd' && args.some((a) => /^of=\/dev\//.test(a) && !/^of=\/dev\/(null|zero|stdout|stderr|tty)$/.test(a))) return 'dd writes over a device';
  if ((program === 'chmod' || program === 'chown' || program === 'chgrp') && args.some((a) => /^-[a-zA-Z]*R|^--recursive$/.test(a))) {
    const target = args.find((a) => !a.startsWith('-') && isRootOrHome(a, context));
    if (target !== undefined) return `recursive ${program} of ${describeTarget(target, context)}`;
  }
  if (program === 'kill' && args.includes('-1')) return '`kill -1` signals every process the user may signal';
  return undefined;
}

function recursive(program: string, args: Argv, powershell: boolean): boolean {
  if (powershell || program === 'remove-item' || program === 'ri') return args.some((a) => /^-r(e(c(u(r(s(e)?)?)?)?)?)?$/i.test(a)) || ['rd', 'rmdir'].includes(program);
  if (program === 'rd' || program === 'rmdir' || program === 'del' || program === 'erase') return args.some((a) => /^\/s$/i.test(a)) || args.some((a) => /^-[a-zA-Z]*[rR]/.test(a));
  return args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive');
}

function isOption(word: string, powershell: boolean): boolean {
  return word.startsWith('-') || (powershell && /^\/[a-z]$/i.test(word));
}

/** The folder a target names: ~ and $HOME expanded, `x/*` as `x`, relative ones against cwd (unknown cwd: undefined). */
function targetFolder(target: string, context: FloorContext): string | undefined {
  let value = target.replace(/^["']|["']$/g, '');
  value = value.replace(/^(~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|\$env:HOME)(?=$|[\\/])/i, context.home);
  value = value.replace(/[\\/]\*$/, '/').replace(/^\*$/, '.');
  if (/^[a-z]:/i.test(value)) return value.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase() || value;
  if (!path.isAbsolute(value)) return context.cwd === undefined ? undefined : path.resolve(context.cwd, value);
  return path.resolve(value);
}

/** A target whose deletion is on the floor: /, ~, a system folder, a workspace folder or one holding it; `.` and `*` where the directory is unknown. */
function protectedTarget(target: string, context: FloorContext): boolean {
  const folder = targetFolder(target, context);
  if (folder === undefined) return /^(\.\.?|\*|\.\/\*?|\.\.\/\*?)\/?$/.test(target);
  if (SYSTEM_FOLDERS.has(folder) || folder === path.resolve(context.home)) return true;
  return context.workspaceFolders.some((ws) => {
    const relative = path.relative(folder, ws);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

function isRootOrHome(target: string, context: FloorContext): boolean {
  const folder = targetFolder(target, context);
  return folder !== undefined && (folder === '/' || folder === 'c:' || folder === path.resolve(context.home));
}

function describeTarget(target: string, context: FloorContext): string {
  const folder = targetFolder(target, context);
  return folder === undefined || folder === target ? `\`${target}\`` : `\`${target}\` (${folder})`;
}

/** A download fed to an interpreter: later in the same pipe, or substituted into its arguments. */
function pipedDownload(line: ParsedLine): string | undefined {
  const programs = (c: ShellCommand): string[] => [argvOf(c), ...wrappedCommands(argvOf(c))].map((a) => lower(programName(a[0])));
  const downloads = (c: ShellCommand): boolean => programs(c).some((p) => DOWNLOADERS.has(p));
  const interprets = (c: ShellCommand): boolean => programs(c).some((p) => INTERPRETERS.has(p));
  for (const command of line.commands) {
    if (!interprets(command)) continue;
    const pipe = command.pipe;
    const upstream = pipe ? line.commands.filter((c) => c.pipe?.id === pipe.id && c.pipe.stage < pipe.stage) : [];
    const inner = command.inner.map((i) => line.commands[i]!);
    const source = [...upstream, ...inner].find(downloads);
    if (source) return `a download is run by an interpreter (\`${source.text.trim()}\` into \`${command.text.trim()}\`)`;
  }
  return undefined;
}

/** A function that starts itself again in a pipe or in the background: `:(){ :|:& };:`. */
function forkBomb(line: ParsedLine): string | undefined {
  for (const fn of line.functions) {
    const calls = fn.body.map((i) => line.commands[i]!).filter((c) => c.words[0]?.value === fn.name);
    if (calls.length > 0 && calls.some((c) => c.pipe !== undefined)) return `a fork bomb (the function \`${fn.name}\` starts itself in a pipe)`;
  }
  return undefined;
}

function lower(value: string | undefined): string {
  return (value ?? '').toLowerCase();
}
