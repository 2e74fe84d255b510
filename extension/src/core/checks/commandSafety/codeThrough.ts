/**
 * Code that runs through a command the rules approve (each a reason the line asks): bash's prompt
 * expansion `${x@P}` and assigning expansions `${x:=…}`; history expansion (`!!`, `!#`, `^a^b`),
 * which an interactive bash or zsh applies before it parses; interpreter options that load or
 * evaluate code (node, python, ruby, perl, php, deno, bun); npm, yarn and pnpm options that load
 * code or move the script elsewhere (`--node-options`, `--script-shell`, `--prefix`, …, abbreviated
 * too); a file written earlier in the line and then run (a workspace script, package.json, .npmrc);
 * git reads that run programs (`--ext-diff`, `--textconv`, `-C` into a folder outside the
 * workspace, whose config may set core.fsmonitor or diff.external) and branch rewrites in every
 * spelling (`-f`, `-qD`, `--del`).
 */
import path from 'node:path';
import { isInside } from '../../fsUtil';
import { argvOf, wrappedCommands, type Argv } from './commandWords';
import type { LineWrite } from './fileWrites';
import { programName, type ParsedLine } from './shellSyntax';

export interface CodeContext {
  readonly cwd: string | undefined;
  readonly workspaceFolders: readonly string[];
}

export function codeThroughReasons(parsed: ParsedLine, line: string, writes: readonly LineWrite[], context: CodeContext): string[] {
  const reasons: string[] = [];
  if (parsed.grammar === 'bash') {
    if (/\$\{[^}]*@P\}/.test(line)) reasons.push('it expands a prompt string (`${…@P}`), which runs the command substitutions in the value');
    if (/\$\{[#!]?\w+(\[[^\]]*\])?:?=/.test(line)) reasons.push('it assigns a variable inside an expansion (`${x:=…}`)');
    const history = historyExpansion(line);
    if (history) reasons.push(`an interactive shell expands \`${history}\` from its history before it runs the line`);
  }
  for (const command of parsed.commands) {
    for (const argv of [argvOf(command), ...wrappedCommands(argvOf(command))]) {
      const reason = interpreterOption(argv) ?? packageManagerOption(argv) ?? gitReason(argv, context);
      if (reason) reasons.push(`\`${command.text.trim()}\` ${reason}`);
    }
  }
  const runner = writeThenRun(parsed, writes);
  if (runner) reasons.push(runner);
  return [...new Set(reasons)];
}

/** The first history expansion an interactive bash would perform: `!` outside single quotes followed by an event, or a leading `^`. */
function historyExpansion(line: string): string | undefined {
  if (/^\s*\^[^^\s]+\^/.test(line)) return line.trim().split(/\s/)[0];
  let single = false;
  let double = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && !single) i++;
    else if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    else if (c === '!' && !single) {
      const next = line[i + 1] ?? '';
      const previous = line[i - 1] ?? '';
      // Not an event: `! cmd`, `!=`, extglob `!(…)`, `$!`, `${!x}`, `[!…]`, a closing quote, the end.
      if (next === '' || /[\s=(]/.test(next) || (double && next === '"') || /[${[]/.test(previous)) continue;
      return line.slice(i, i + 2);
    }
  }
  return undefined;
}

/** Interpreter options that evaluate code or load it before the program (exact, or attached: `-rfoo`, `--require=foo`). */
const CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  node: ['-e', '-p', '-pe', '-r', '--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists', '--experimental-config-file', '--inspect-brk'],
  bun: ['-e', '-p', '-r', '--eval', '--print', '--preload', '--require', '--import', '--env-file'],
  deno: ['eval', '--import-map', '--preload', '--env-file'],
  python: ['-c', '-m'],
  ruby: ['-e', '-r', '-I', '--require'],
  perl: ['-e', '-E', '-M', '-m', '-I', '-d'],
  php: ['-r', '-B', '-R', '-E', '-F', '-d', '-a'],
};
const INTERPRETER_NAMES: Readonly<Record<string, string>> = { nodejs: 'node', python2: 'python', python3: 'python', py: 'python' };

function interpreterOption(argv: Argv): string | undefined {
  const name = (programName(argv[0]) ?? '').toLowerCase().replace(/\.exe$/, '').replace(/^python3\.\d+$/, 'python3');
  const options = CODE_OPTIONS[INTERPRETER_NAMES[name] ?? name];
  if (!options) return undefined;
  for (const word of argv.slice(1)) {
    if (word === '--') return undefined;
    const hit = options.find((o) => word === o || (o.startsWith('--') ? word.startsWith(`${o}=`) : o.length === 2 && o.startsWith('-') && word.startsWith(o)));
    if (hit) return `hands ${name} code to load or evaluate (\`${hit}\`)`;
    // The first operand is the program; what follows is its own.
    if (!word.startsWith('-')) return undefined;
  }
  return undefined;
}

/** npm/yarn/pnpm configuration that runs code or moves the script to another package (npm takes abbreviations). */
const PACKAGE_OPTIONS = ['node-options', 'script-shell', 'shell', 'userconfig', 'globalconfig', 'prefix', 'browser', 'editor', 'call', 'dir', 'cwd', 'workspace', 'workspaces', 'filter', 'recursive', 'init-module', 'onload-script', 'node-arg', 'require', 'import', 'loader'];
const PACKAGE_SHORT = new Set(['-C', '-w', '-ws', '-F', '-r', '-c']);

function packageManagerOption(argv: Argv): string | undefined {
  const name = (programName(argv[0]) ?? '').toLowerCase();
  if (!['npm', 'npx', 'yarn', 'pnpm', 'pnpx'].includes(name)) return undefined;
  for (const word of argv.slice(1)) {
    if (word === '--') return undefined;
    const long = /^--(?:no-)?([\w-]+)/.exec(word)?.[1];
    const hit = long !== undefined && long.length >= 3 ? PACKAGE_OPTIONS.find((o) => o.startsWith(long)) : PACKAGE_SHORT.has(word) ? word : undefined;
    if (hit) return `sets ${name}'s \`${hit}\`, which runs code or runs another package's script`;
  }
  return undefined;
}

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path']);
const BRANCH_REWRITES = ['delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'edit-description', 'track', 'no-track'];

function gitReason(argv: Argv, context: CodeContext): string | undefined {
  if ((programName(argv[0]) ?? '').toLowerCase() !== 'git') return undefined;
  let i = 1;
  for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
    const option = argv[i]!;
    if (option === '-C') {
      const folder = argv[i + 1];
      const inside = folder !== undefined && context.cwd !== undefined && !/[$`~]/.test(folder) && context.workspaceFolders.some((ws) => isInside(/^[a-zA-Z]:/.test(folder) ? folder : path.resolve(context.cwd!, folder), ws));
      if (!inside) return `reads the repository in \`${folder ?? ''}\`, outside the workspace, whose settings may run programs (core.fsmonitor, diff.external)`;
    }
    if (/^-c|^--config-env|^--exec-path/.test(option)) return `sets git configuration (\`${option}\`) that may run programs`;
    if (GIT_VALUED.has(option)) i++;
  }
  const sub = argv[i];
  const args = argv.slice(i + 1);
  const runs = args.find((a) => /^--(ext-diff|textconv)$/.test(a));
  if (runs) return `runs the programs the repository's settings name (\`${runs}\`)`;
  if (sub === 'branch') {
    const rewrite = args.find((a) => (/^-[a-zA-Z]+$/.test(a) && /[dDmMcCfu]/.test(a)) || (/^--[\w-]+/.test(a) && BRANCH_REWRITES.some((o) => o.startsWith(a.slice(2).split('=')[0]!))));
    if (rewrite) return `rewrites or deletes a branch (\`${rewrite}\`)`;
  }
  return undefined;
}

/** Programs that run what the workspace holds (scripts, manifests, makefiles). */
const RUNNERS = new Set(['npm', 'npx', 'yarn', 'pnpm', 'pnpx', 'bun', 'deno', 'make', 'node', 'python', 'python3', 'sh', 'bash', 'zsh', 'source', '.', 'ruby', 'perl', 'php', 'cargo', 'go', 'gradle', 'mvn', 'tsc', 'vite']);

/** A file written earlier in the line, then something that runs the workspace's files. */
function writeThenRun(parsed: ParsedLine, writes: readonly LineWrite[]): string | undefined {
  if (writes.length === 0) return undefined;
  const first = Math.min(...writes.map((w) => w.at));
  for (const command of parsed.commands) {
    if (!command.nested && command.at <= first) continue;
    const program = command.words[0]?.value ?? '';
    const name = (programName(program) ?? '').toLowerCase();
    if (RUNNERS.has(name) || /[\\/]/.test(program)) {
      return `it writes \`${writes[0]!.word.raw}\` and then runs \`${command.text.trim()}\`, which may run what was just written`;
    }
  }
  return undefined;
}
