/**
 * Parsing: a command line as the safety rules see it, from the tree-sitter grammar VS Code uses for
 * the shell (bash, for zsh, fish, sh and the rest too; PowerShell for pwsh). Every command node is
 * a sub-command, wherever it sits (pipes, lists, subshells, groups, if/for, $( ), backticks, <( ),
 * script blocks), with its words resolved where they are literal; what VS Code calls unanalyzable
 * (a standalone assignment or declaration; in PowerShell also an invocation expression or any
 * parse error); the redirect targets; functions. The text of a `-c` string, an `eval` or a heredoc
 * handed to a shell is parsed again, so the floor and the deny rules see inside it.
 */
import type { Node } from 'web-tree-sitter';
import type { GrammarName, LoadedGrammars } from './shellGrammars';

export interface Word {
  /** As written. */
  readonly raw: string;
  /** Quotes and escapes resolved; undefined when an expansion or substitution makes it unknowable before it runs. */
  readonly value: string | undefined;
}

export interface ShellCommand {
  /** The command node's text: what VS Code matches its rules against. */
  readonly text: string;
  /** Its words, the program's first. */
  readonly words: readonly Word[];
  /** Indexes (into ParsedLine.commands) of the commands inside its arguments and redirects ($( ), ``, <( ), script blocks). */
  readonly inner: readonly number[];
  /** Its stage in a pipeline. */
  readonly pipe: { readonly id: number; readonly stage: number } | undefined;
  /** What a heredoc or here-string feeds to its standard input. */
  readonly stdin: string | undefined;
  /** Found by parsing a `-c` string, an `eval` argument or a heredoc again, not in the line as written. */
  readonly nested: boolean;
  /** Where it starts in the line (for a nested one: where the command that hands it over starts). */
  readonly at: number;
}

/** A redirect's target: as written, resolved (undefined when an expansion decides it), and where it is in the line. */
export interface Redirect extends Word {
  readonly at: number;
  readonly nested: boolean;
}

export interface ParsedLine {
  readonly grammar: GrammarName;
  readonly commands: readonly ShellCommand[];
  /** Syntax VS Code never auto-approves (extractAutoApprovalSubCommands' `hasUnanalyzableSyntax`), named. */
  readonly unanalyzable: readonly string[];
  /** The grammar found a syntax error (VS Code ignores this for bash). */
  readonly hasError: boolean;
  /** Redirect targets (VS Code's file-write query; zsh's `>!` target too). */
  readonly redirects: readonly Redirect[];
  /** Functions the line defines: name and the indexes of the commands in their bodies. */
  readonly functions: readonly { readonly name: string; readonly body: readonly number[] }[];
}

/** Programs whose `-c`/`-Command` string, or heredoc, is itself a command line worth reading. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'mksh', 'csh', 'tcsh', 'ash', 'busybox', 'pwsh', 'powershell']);

/** How deep `bash -c "bash -c '…'"` is followed. */
const MAX_NESTING = 3;

export function parseCommandLine(grammars: LoadedGrammars, grammar: GrammarName, line: string, deadline = Infinity, maxCommands = Infinity): ParsedLine {
  const builder = new LineBuilder(grammar, deadline, maxCommands);
  // VS Code reads PowerShell's `--name=value` as `--name value` (same length, so ranges still match the line).
  const text = grammar === 'powershell' ? powershellText(line).replace(/(^|\s)(-{1,2}[\w-]+)=/g, '$1$2 ') : line;
  builder.read(grammars, grammar, text, grammar === 'powershell' ? powershellText(line) : line, false, 0);
  builder.readNested(grammars);
  return builder.result();
}

/**
 * PowerShell closes strings with typographic quotes and takes dashes for `-` where its grammar does
 * not: read as PowerShell runs it (each is one UTF-16 unit, so positions do not move).
 */
export function powershellText(line: string): string {
  return line.replace(/[\u2018\u2019\u201A\u201B]/g, "'").replace(/[\u201C\u201D\u201E]/g, '"').replace(/[\u2013\u2014\u2015]/g, '-');
}

class LineBuilder {
  private readonly commands: MutableCommand[] = [];
  private readonly unanalyzable: string[] = [];
  private readonly redirects: Redirect[] = [];
  private readonly functions: { name: string; body: number[] }[] = [];
  private hasError = false;
  private pipes = 0;
  /** While a nested script is read: where the command that hands it over starts. */
  private nestedAt: number | undefined;

  constructor(
    private readonly grammar: GrammarName,
    private readonly deadline: number,
    private readonly maxCommands: number,
  ) {}

  read(grammars: LoadedGrammars, grammar: GrammarName, text: string, original: string, nested: boolean, at: number): void {
    const tree = grammars.parse(grammar, text, this.deadline);
    try {
      if (tree.rootNode.hasError) {
        this.hasError = true;
        if (grammar === 'powershell') this.unanalyzable.push('a PowerShell parse error');
      }
      this.nestedAt = nested ? at : undefined;
      this.walk(tree.rootNode, original, nested, undefined);
    } finally {
      tree.delete();
    }
  }

  /** Parses again the text a shell gets through `-c`, `eval` or a heredoc (bash grammar, bounded depth). */
  readNested(grammars: LoadedGrammars): void {
    for (let depth = 0, from = 0; depth < MAX_NESTING; depth++) {
      const upTo = this.commands.length;
      for (let i = from; i < upTo; i++) {
        for (const script of scriptsOf(this.commands[i]!)) this.read(grammars, 'bash', script, script, true, this.commands[i]!.at);
      }
      if (this.commands.length === upTo) return;
      from = upTo;
    }
  }

  result(): ParsedLine {
    return { grammar: this.grammar, commands: this.commands, unanalyzable: this.unanalyzable, hasError: this.hasError, redirects: this.redirects, functions: this.functions };
  }

  /** Visits a node; returns the indexes of the commands found under it. */
  private walk(node: Node, source: string, nested: boolean, pipe: MutableCommand['pipe']): number[] {
    const found: number[] = [];
    switch (node.type) {
      case 'command': {
        const index = this.commands.length;
        if (index >= this.maxCommands) throw new Error(`it holds more than ${this.maxCommands} commands`);
        const command: MutableCommand = { text: source.substring(node.startIndex, node.endIndex), words: [], inner: [], pipe, stdin: undefined, nested, at: this.nestedAt ?? node.startIndex };
        this.commands.push(command);
        found.push(index);
        command.words = this.grammar === 'powershell' && !nested ? pwshWords(node) : bashWords(node);
        for (const child of node.namedChildren) {
          if (!child) continue;
          command.inner.push(...this.walk(child, source, nested, undefined));
          const stdin = stdinOf(child);
          if (stdin !== undefined) command.stdin = stdin;
        }
        return found;
      }
      case 'variable_assignment':
        // FOO=1 cmd is the command's own prefix (denied by the env-prefix rule); a standalone one is not analyzable.
        if (node.parent?.type !== 'command') this.unanalyzable.push(`the assignment \`${node.text}\``);
        break;
      case 'declaration_command':
        this.unanalyzable.push(`the declaration \`${node.text}\``);
        break;
      case 'assignment_expression':
        this.unanalyzable.push(`the assignment \`${node.text}\``);
        break;
      case 'invokation_expression':
        this.unanalyzable.push(`the invocation \`${node.text}\``);
        break;
      case 'file_redirect': {
        // Every destination word: zsh reads `>! /etc/x` as a write of /etc/x (the grammar sees `!` and `/etc/x`).
        // `>&2`, `2>&1` name descriptors, not files.
        const duplicates = /^\d*>&|^<&/.test(node.text);
        const at = this.nestedAt ?? node.startIndex;
        for (const destination of node.childrenForFieldName('destination')) {
          if (destination && !(duplicates && /^(\d+|-)$/.test(destination.text))) this.redirects.push({ raw: destination.text.trim(), value: literal(destination), at, nested: this.nestedAt !== undefined });
        }
        break;
      }
      case 'redirected_file_name': {
        const raw = node.text.trim();
        this.redirects.push({ raw, value: /[$@(){}`]/.test(unquoteable(raw)) ? undefined : unquotePwsh(raw), at: this.nestedAt ?? node.startIndex, nested: this.nestedAt !== undefined });
        break;
      }
      case 'redirected_statement':
        return this.redirected(node, source, nested, pipe);
      case 'pipeline': {
        const id = ++this.pipes;
        let stage = 0;
        for (const child of node.namedChildren) {
          if (!child) continue;
          // A PowerShell pipeline holds one pipeline_chain whose commands are its stages.
          if (child.type === 'pipeline_chain') {
            for (const part of child.namedChildren) if (part) found.push(...this.walk(part, source, nested, { id, stage: stage++ }));
          } else {
            found.push(...this.walk(child, source, nested, { id, stage: stage++ }));
          }
        }
        return found;
      }
      case 'function_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        const body = node.childForFieldName('body');
        const commands = body ? this.walk(body, source, nested, undefined) : [];
        this.functions.push({ name, body: commands });
        return commands;
      }
    }
    for (const child of node.namedChildren) {
      if (child) found.push(...this.walk(child, source, nested, pipe));
    }
    return found;
  }

  /** `cmd <<EOF … EOF`, `cmd <<< text`, `cmd > file`: the redirects belong to the command they wrap. */
  private redirected(node: Node, source: string, nested: boolean, pipe: MutableCommand['pipe']): number[] {
    const body = node.childForFieldName('body');
    const found = body ? this.walk(body, source, nested, pipe) : [];
    const target = body?.type === 'command' ? this.commands[found[0]!] : undefined;
    for (const redirect of node.namedChildren) {
      if (!redirect || (body && redirect.id === body.id)) continue;
      const inside = this.walk(redirect, source, nested, undefined);
      if (target) {
        target.inner.push(...inside);
        target.stdin = stdinOf(redirect) ?? target.stdin;
      } else {
        found.push(...inside);
      }
    }
    return found;
  }
}

interface MutableCommand {
  text: string;
  words: Word[];
  inner: number[];
  pipe: { readonly id: number; readonly stage: number } | undefined;
  stdin: string | undefined;
  nested: boolean;
  at: number;
}

/** The command lines a shell or `eval` would run from this command: its `-c` string, its arguments, its heredoc. */
function scriptsOf(command: ShellCommand): string[] {
  const values = command.words.map((w) => w.value);
  const program = programName(values[0]);
  if (program === 'eval') return [values.slice(1).map((v) => v ?? '').join(' ')];
  if (!program || !SHELLS.has(program)) return [];
  const scripts: string[] = [];
  const flag = values.findIndex((v, i) => i > 0 && v !== undefined && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(v));
  if (flag > 0 && values[flag + 1] !== undefined) scripts.push(values[flag + 1]!);
  if (command.stdin !== undefined) scripts.push(command.stdin);
  return scripts;
}

/** A program word's name as rules about programs see it: no leading backslash, no directory. */
export function programName(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const name = word.replace(/^\\+/, '').split(/[\\/]/).pop() ?? '';
  return name.length > 0 ? name : undefined;
}

/** What a heredoc or here-string redirect feeds to standard input (as written when it expands something). */
function stdinOf(redirect: Node): string | undefined {
  if (redirect.type === 'heredoc_redirect') return redirect.namedChildren.filter((c): c is Node => c?.type === 'heredoc_body').map((c) => c.text).join('\n');
  if (redirect.type !== 'herestring_redirect') return undefined;
  const content = redirect.namedChildren.find((c): c is Node => c !== null);
  return content ? (literal(content) ?? content.text) : '';
}

function bashWords(command: Node): Word[] {
  const words: Word[] = [];
  for (const child of command.namedChildren) {
    if (!child) continue;
    if (child.type === 'command_name') words.push({ raw: child.text, value: literal(child.namedChildren[0] ?? child) });
    else if (child.type !== 'variable_assignment' && !child.type.endsWith('redirect')) words.push({ raw: child.text, value: literal(child) });
  }
  return words;
}

/** A bash word's value once quotes and escapes are resolved; undefined when it expands anything. */
function literal(node: Node): string | undefined {
  switch (node.type) {
    case 'word':
    case 'command_name':
      return node.text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      return ansiC(node.text.slice(2, -1));
    case 'string': {
      if (node.namedChildren.some((c) => c && c.type !== 'string_content')) return undefined;
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, '$1');
    }
    case 'concatenation': {
      let value = '';
      for (const part of node.namedChildren) {
        const piece = part ? literal(part) : undefined;
        if (piece === undefined) return undefined;
        value += piece;
      }
      // A part the grammar does not name (a `{` or `}` of a brace expansion) keeps the raw text.
      return node.namedChildren.length === 0 ? node.text : value;
    }
    default:
      return undefined;
  }
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** bash's `$'…'`: the escapes it resolves (`\xHH`, octal, `\uHHHH`, `\cX`, the letters); an unknown escape keeps its backslash. */
function ansiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (all, escape: string) => {
    if (/^[xuU]/.test(escape)) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8) & 0xff);
    if (escape.startsWith('c')) return String.fromCharCode(escape.charCodeAt(1) & 0x1f);
    return ANSI_C_ESCAPES[escape] ?? all;
  });
}

function pwshWords(command: Node): Word[] {
  const words: Word[] = [];
  const name = command.childForFieldName('command_name');
  if (name) words.push({ raw: name.text, value: name.type === 'command_name' ? unquotePwsh(name.text) : undefined });
  const elements = command.childForFieldName('command_elements');
  for (const element of elements?.namedChildren ?? []) {
    if (!element || element.type === 'command_argument_sep' || element.type === 'redirection') continue;
    const text = element.text.trim();
    words.push({ raw: text, value: /[$@(){}]/.test(unquoteable(text)) ? undefined : unquotePwsh(text) });
  }
  return words;
}

/** The part of a PowerShell token that expands: a single-quoted string expands nothing. */
function unquoteable(text: string): string {
  return /^'.*'$/s.test(text) ? '' : text;
}

function unquotePwsh(text: string): string {
  return /^(['"]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}
