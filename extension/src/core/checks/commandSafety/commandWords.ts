/**
 * What a sub-command really runs, for the rules that only ever make a decision stricter (deny
 * rules and the floor): the program by its name (`\rm`, `/bin/rm` and `./rm` are rm), its words
 * with quotes and escapes resolved (`find . -e"x"ec` is `find . -exec`), and the commands a
 * wrapper runs (`sudo`, `env`, `timeout`, `nice`, `command`, `xargs`, `find -exec`, …). None of
 * this ever grants an allow: allow rules see the sub-command as VS Code does.
 */
import { programName, type ShellCommand } from './shellSyntax';

/** A command as words: the program's name first (its word value, or raw text where it expands). */
export type Argv = readonly string[];

interface WrapperSpec {
  /** Options that take the next word as their value (unless written `--opt=value`). */
  readonly valued?: readonly string[];
  /** Words to skip after the options before the wrapped command (timeout's duration). */
  readonly positional?: number;
  /** Options whose value is a whole command line (`su -c`, `flock -c`, `env -S`). */
  readonly script?: readonly string[];
  /** NAME=value words are part of the wrapper (env). */
  readonly assignments?: boolean;
}

/** Wrappers that run the command after their own options (GNU coreutils, sudo, util-linux, findutils). */
const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-a', '--argv0'], script: ['-S', '--split-string'], assignments: true },
  sudo: { valued: ['-u', '--user', '-g', '--group', '-p', '--prompt', '-C', '--close-from', '-h', '--host', '-r', '--role', '-t', '--type', '-U', '--other-user', '-D', '--chdir', '-R', '--chroot', '-T', '--command-timeout'] },
  doas: { valued: ['-u', '-C'] },
  run0: { valued: ['-u', '--user', '-g', '--group', '-D', '--chdir'] },
  pkexec: { valued: ['--user'] },
  su: { valued: ['-s', '--shell', '-g', '--group', '-G'], script: ['-c', '--command'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata'] },
  chrt: { positional: 1 },
  taskset: { valued: ['-c', '--cpu-list'] },
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  nohup: {},
  time: { valued: ['-f', '--format', '-o', '--output'] },
  stdbuf: { valued: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  setsid: {},
  unbuffer: {},
  watch: { valued: ['-n', '--interval', '-d', '--differences', '-q', '--equexit'] },
  xargs: { valued: ['-I', '-n', '--max-args', '-L', '--max-lines', '-P', '--max-procs', '-d', '--delimiter', '-s', '--max-chars', '-a', '--arg-file', '-E', '-e', '--eof', '--process-slot-var'] },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positional: 1, script: ['-c', '--command'] },
  busybox: {},
  strace: { valued: ['-o', '-e', '-p', '-s', '-u'] },
};

/** find's actions that run a command, up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The words of a sub-command: values where literal, raw text where they expand. */
export function argvOf(command: ShellCommand): Argv {
  return command.words.map((w) => w.value ?? w.raw);
}

/** A sub-command's text with the program by name and every word resolved (what deny rules also see). */
export function normalizedText(argv: Argv): string {
  const [program, ...rest] = argv;
  return [programName(program) ?? program ?? '', ...rest].join(' ');
}

/**
 * Every command a sub-command runs through wrappers, outermost first (the sub-command itself not
 * included): `sudo timeout 5 rm -rf x` gives `timeout 5 rm -rf x` and `rm -rf x`.
 */
export function wrappedCommands(argv: Argv, depth = 0): Argv[] {
  if (depth > 8 || argv.length === 0) return [];
  const program = programName(argv[0])?.toLowerCase();
  const inner: Argv[] = [];
  if (program === 'find') {
    for (let i = 1; i < argv.length; i++) {
      if (!FIND_EXEC.has(argv[i]!)) continue;
      const end = argv.findIndex((w, j) => j > i && (w === ';' || w === '+'));
      inner.push(argv.slice(i + 1, end < 0 ? undefined : end));
    }
  } else if (program !== undefined && Object.hasOwn(WRAPPERS, program)) {
    inner.push(...unwrap(argv, WRAPPERS[program]!));
  }
  return inner.filter((a) => a.length > 0).flatMap((a) => [a, ...wrappedCommands(a, depth + 1)]);
}

function unwrap(argv: Argv, spec: WrapperSpec): Argv[] {
  let i = 1;
  const found: Argv[] = [];
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    if (!word.startsWith('-') || word === '-') break;
    const [name, inlineValue] = word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    if (spec.script?.includes(name)) {
      const script = inlineValue ?? argv[++i];
      if (script !== undefined) found.push(script.trim().split(/\s+/));
      continue;
    }
    if (inlineValue === undefined && spec.valued?.includes(name)) i++;
  }
  i += spec.positional ?? 0;
  if (i < argv.length) found.push(argv.slice(i));
  return found;
}
