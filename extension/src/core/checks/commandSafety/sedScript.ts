/**
 * sed as GNU sed and BSD sed read it: where its script comes from (`-e`, `--expression` and its
 * abbreviations, `-f`/`--file`, or the first operand), whether the script runs a program or touches
 * a file (the `e`, `r`, `R`, `w`, `W` commands and the `e`/`w` flags of `s`, in any spelling and
 * with any delimiter), and which files `-i` rewrites in place (any spelling: `-ni`, `-i.bak`,
 * `--in-pl`, BSD's `-i ''`). An option an expansion produces, a script from a file and a script this
 * reading cannot follow are named too, so the line asks.
 */
import type { Word } from './shellSyntax';

export interface SedReading {
  /** Why the script may run a program or read or write a file, or cannot be read (asks); undefined when it cannot. */
  readonly danger: string | undefined;
  /** Files rewritten in place (their words; an unknown value is a write nobody can place). */
  readonly inPlace: readonly Word[];
}

const LONG_OPTIONS = ['expression', 'file', 'in-place', 'line-length', 'null-data', 'zero-terminated', 'quiet', 'silent', 'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'binary', 'follow-symlinks', 'posix', 'debug', 'help', 'version'];

/** getopt_long: a long option may be abbreviated to any prefix that names one option only. */
function longOption(word: string): { name: string | undefined; value: string | undefined } {
  const eq = word.indexOf('=');
  const written = word.slice(2, eq < 0 ? undefined : eq);
  const exact = LONG_OPTIONS.find((o) => o === written);
  const matches = LONG_OPTIONS.filter((o) => o.startsWith(written));
  return { name: exact ?? (matches.length === 1 ? matches[0] : undefined), value: eq < 0 ? undefined : word.slice(eq + 1) };
}

/** A word whose expansion could start with `-` (a variable, a substitution, a brace or glob expansion). */
function mayBeOption(word: Word): boolean {
  return /^["']*[$`{*?[]/.test(word.raw);
}

export function readSed(args: readonly Word[]): SedReading {
  const scripts: string[] = [];
  const operands: Word[] = [];
  let danger: string | undefined;
  let inPlace = false;
  let bsdSuffix = false;
  let optionsEnd = false;
  let followsLinks = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const value = word.value;
    if (optionsEnd) {
      operands.push(word);
      continue;
    }
    if (value === undefined) {
      if (mayBeOption(word)) danger ??= `sed's option \`${word.raw}\` is decided by an expansion when it runs`;
      operands.push(word);
      continue;
    }
    if (value === '--') {
      optionsEnd = true;
    } else if (value.startsWith('--')) {
      const { name, value: inline } = longOption(value);
      if (name === 'expression') scripts.push(inline ?? args[++i]?.value ?? '');
      else if (name === 'file') danger ??= `sed reads its script from a file (\`${value}\`)`;
      else if (name === 'in-place') inPlace = true;
      else if (name === 'follow-symlinks') followsLinks = true;
      else if (name === 'line-length' && inline === undefined) i++;
    } else if (value.startsWith('-') && value.length > 1) {
      for (let j = 1; j < value.length; j++) {
        const flag = value[j]!;
        const rest = value.slice(j + 1);
        if (flag === 'e' || flag === 'f' || flag === 'l') {
          const optionValue = rest.length > 0 ? rest : args[++i]?.value;
          if (flag === 'e') scripts.push(optionValue ?? '');
          if (flag === 'f') danger ??= `sed reads its script from a file (\`${value}\`)`;
          break;
        }
        if (flag === 'i' || flag === 'I') {
          inPlace = true;
          // GNU: the rest is the backup suffix; BSD: a standalone -i takes the next word as the suffix.
          if (rest.includes('/')) danger ??= `sed -i keeps its backups in another folder (\`${value}\`)`;
          if (rest.length === 0) bsdSuffix = true;
          break;
        }
      }
    } else {
      operands.push(word);
    }
  }
  const fromOperand = scripts.length === 0;
  if (fromOperand && operands[0]) scripts.push(operands[0].value ?? '');
  // BSD's `sed -i '' script file`: the script may be the second operand.
  for (const script of scripts) danger ??= scriptDanger(script);
  // (Where the BSD script cannot be read as one, BSD sed fails on it: only what it would run counts.)
  if (fromOperand && bsdSuffix && operands[1]?.value !== undefined) danger ??= scriptDanger(operands[1].value, false);
  const files = fromOperand ? operands.slice(1) : operands;
  if (inPlace && files.some((f) => /^[^'"]*[*?[]/.test(f.raw))) danger ??= 'sed -i rewrites the files a glob picks when it runs';
  if (inPlace && followsLinks) danger ??= 'sed -i --follow-symlinks rewrites where the links point';
  if (fromOperand && operands[0] && operands[0].value === undefined) danger ??= `sed's script \`${operands[0].raw}\` is decided by an expansion when it runs`;
  return { danger, inPlace: inPlace ? files : [] };
}

const SIMPLE_COMMANDS = new Set('=dDgGhHnNpPxzF'.split(''));

/** Why a sed script may run a program or touch a file, or cannot be read; undefined when neither. */
export function scriptDanger(script: string, unreadableAsks = true): string | undefined {
  const reader = new ScriptReader(script);
  try {
    return reader.read();
  } catch {
    return unreadableAsks ? `sed's script \`${script}\` could not be read` : undefined;
  }
}

class ScriptReader {
  private i = 0;

  constructor(private readonly text: string) {}

  read(): string | undefined {
    for (;;) {
      this.skip(/[\s;]/);
      if (this.i >= this.text.length) return undefined;
      if (this.peek() === '#') {
        this.toLineEnd();
        continue;
      }
      this.address();
      this.skip(/\s/);
      if (this.peek() === ',') {
        this.i++;
        this.skip(/\s/);
        this.address();
      }
      this.skip(/[\s!]/);
      const command = this.text[this.i++];
      if (command === undefined) throw new Error('no command');
      const found = this.command(command);
      if (found) return found;
    }
  }

  private command(command: string): string | undefined {
    if (command === '{' || command === '}' || SIMPLE_COMMANDS.has(command)) return undefined;
    if ('erRwW'.includes(command)) return `sed's \`${command}\` command ${command === 'e' ? 'runs a program' : command === 'w' || command === 'W' ? 'writes a file' : 'reads a file'}`;
    if (command === 's' || command === 'y') {
      const delimiter = this.text[this.i++];
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') throw new Error('bad delimiter');
      this.part(delimiter);
      this.part(delimiter);
      return command === 's' ? this.substituteFlags() : undefined;
    }
    if ('aic'.includes(command)) {
      this.toLineEnd(true);
      return undefined;
    }
    if (':btTv'.includes(command)) {
      this.skip(/[ \t]/);
      while (this.i < this.text.length && !/[;\n]/.test(this.peek())) this.i++;
      return undefined;
    }
    if ('qQlL'.includes(command)) {
      this.skip(/[ \t\d]/);
      return undefined;
    }
    throw new Error(`unknown command ${command}`);
  }

  /** A line number, `$`, `first~step`, `+N`, `~N`, `/re/` or `\cREc` with its I/M flags. */
  private address(): void {
    const c = this.peek();
    if (/[\d$+~]/.test(c)) {
      this.skip(/[\d$+~]/);
    } else if (c === '/' || c === '\\') {
      this.i++;
      const delimiter = c === '/' ? '/' : this.text[this.i++];
      if (delimiter === undefined) throw new Error('bad address');
      this.part(delimiter);
      this.skip(/[IM]/);
    }
  }

  /** Up to the next unescaped delimiter (which it consumes). */
  private part(delimiter: string): void {
    for (; this.i < this.text.length; this.i++) {
      const c = this.text[this.i];
      if (c === '\\') this.i++;
      else if (c === delimiter) {
        this.i++;
        return;
      }
    }
    throw new Error('unterminated');
  }

  private substituteFlags(): string | undefined {
    for (; this.i < this.text.length; this.i++) {
      const flag = this.peek();
      if (flag === 'e') return "sed's `s///e` runs the result as a command";
      if (flag === 'w') return "sed's `s///w` writes a file";
      if (/[;\n}#\s]/.test(flag)) return undefined;
      if (!/[gpiImM\d]/.test(flag)) throw new Error(`unknown flag ${flag}`);
    }
    return undefined;
  }

  private toLineEnd(continued = false): void {
    for (; this.i < this.text.length && this.text[this.i] !== '\n'; this.i++) {
      if (continued && this.text[this.i] === '\\') this.i++;
    }
  }

  private skip(pattern: RegExp): void {
    while (this.i < this.text.length && pattern.test(this.peek())) this.i++;
  }

  private peek(): string {
    return this.text[this.i] ?? '';
  }
}
