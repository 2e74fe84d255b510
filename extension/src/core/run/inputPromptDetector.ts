/**
 * Decides whether a running command waits for the user to type, from the tail of its rendered
 * output, how long it has been silent, and (where the OS tells) whether a foreground process is
 * blocked reading the terminal. Pure: the caller supplies every observation.
 */
import { batchJobAnswer } from './batchJobPrompt';

export interface InputPromptObservation {
  /** Last lines of the rendered output (what the terminal shows), oldest first. */
  readonly lastLines: readonly string[];
  /** Milliseconds since the last output chunk (or since input was last sent). */
  readonly silentForMs: number;
  /** True when a foreground process blocks on a terminal read; 'unknown' where the OS can't tell. */
  readonly readingTerminal: boolean | 'unknown';
  /**
   * Whose read it is: the shell itself (a `read`/`Read-Host` builtin, or its own prompt once the
   * command ended, the end event still on its way) or a job it runs. Default: a job.
   */
  readonly reader?: 'shell' | 'job';
  /**
   * The tail is the prompt that was just answered (inputWatch.ts): only the OS's "blocked on a
   * terminal read" says the program waits again; its words no longer do.
   */
  readonly answered?: boolean;
}

export interface InputPromptConfig {
  /** Silence after a strong prompt pattern (y/n, password, press any key) before reporting it. */
  readonly strongSilenceMs: number;
  /** Silence before trusting the OS's "blocked on a terminal read" with any output tail. */
  readonly readingSilenceMs: number;
  /**
   * The same with nothing printed at all: a prompt written just before the read may still be on
   * its way through VS Code (a slow machine delayed python's `>>>` past readingSilenceMs).
   */
  readonly emptyReadingSilenceMs: number;
  /**
   * The shell itself reading after a tail that is no prompt: most likely its own prompt, the
   * command's end delayed in a loaded VS Code (`cd /tmp` and `Write-Output` were taken for input
   * after 1-3 s); a `read` builtin with no prompt is reported after this.
   */
  readonly shellReadingSilenceMs: number;
  /** Silence before a weak pattern (line ends in "?" or ":") counts where the OS can't tell. */
  readonly weakSilenceMs: number;
  /** Silence before a REPL's own prompt (python >>>, node >, irb, psql, sqlite3, gdb) counts, whatever the OS says. */
  readonly replSilenceMs: number;
}

export const defaultInputPromptConfig: InputPromptConfig = {
  strongSilenceMs: 300,
  readingSilenceMs: 300,
  emptyReadingSilenceMs: 1000,
  shellReadingSilenceMs: 5000,
  weakSilenceMs: 3000,
  replSilenceMs: 800,
};

/**
 * Prompts of interactive interpreters, matched against the whole last line: a REPL waits for the
 * next statement. Some wait where the OS cannot see a terminal read (node's event loop), so
 * these count on silence alone.
 */
const replPatterns: readonly RegExp[] = [
  /^(>>>|\.\.\.)$/, // python
  /^(In \[\d+\]|\s*\.{3,}):$/, // IPython and its continuation
  /^>$/, // node
  /^irb\([^)]*\):\d+(:\d+)?[>*"'`]$/, // irb
  /^[\w.-]+[=\-(][#>]$/, // psql: mydb=# mydb-> mydb(>
  /^(sqlite|\s*\.\.\.)>$/, // sqlite3
  /^\((gdb|lldb|pdb|Pdb)\)$/, // debuggers
  /^(mysql|MariaDB \[[^\]]*\]|redis[^>]*|jshell|scala|ghci|Prelude|julia|iex\(\d+\)|>>)>$/, // other common REPLs
];

/** Patterns that only a question to the user ends with. Matched against the last non-empty line. */
const strongPatterns: readonly RegExp[] = [
  /[[(]\s*(y|yes)\s*\/\s*(n|no)\s*[\])]/i, // [y/N], (yes/no)
  /[[(]\s*(n|no)\s*\/\s*(y|yes)\s*[\])]/i,
  /\b(password|passphrase|passcode|pin|otp|token)\b[^:\n]{0,80}:\s*$/i,
  /\bpress\s+(any\s+key|enter|return)\b/i,
  /\b(are you sure|do you want to|would you like to|continue|proceed|overwrite|replace)\b[^\n]{0,120}\?\s*$/i,
  /\(Press Ctrl\+C to (abort|cancel)\)/i,
  /^\s*\?\s.+[›»]/, // prompts/enquirer/inquirer questions (create-vite, npm init ...)
  /\(Use arrow keys\)/i,
];

/** Endings typical of prompts (questions, "Name:", REPL ">>>"), but also of ordinary log lines. */
const weakPatterns: readonly RegExp[] = [/[?:]\s*$/, /^(>>>|\.\.\.|>|irb\(.*\)>|[a-z]+>)\s*$/i];

export function lastNonEmptyLine(lines: readonly string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trimEnd();
    if (line.trim().length > 0) {
      return line;
    }
  }
  return '';
}

/** Returns the prompt text when the command waits for input, undefined otherwise. */
export function detectInputPrompt(
  observation: InputPromptObservation,
  config: InputPromptConfig = defaultInputPromptConfig,
): { prompt: string } | undefined {
  const { silentForMs, readingTerminal } = observation;
  const prompt = lastNonEmptyLine(observation.lastLines);
  if (readingTerminal === true && silentForMs >= readingSilenceFor(prompt, observation.reader ?? 'job', config)) {
    return { prompt };
  }
  if (prompt.length === 0 || observation.answered) {
    return undefined;
  }
  if (silentForMs >= config.strongSilenceMs && isStrongPrompt(prompt)) {
    return { prompt };
  }
  if (silentForMs >= config.replSilenceMs && isReplPrompt(prompt)) {
    return { prompt };
  }
  if (readingTerminal === 'unknown' && silentForMs >= config.weakSilenceMs && weakPatterns.some((p) => p.test(prompt))) {
    return { prompt };
  }
  return undefined;
}

/** How long a terminal read must last, with no output, before it counts as waiting for input. */
function readingSilenceFor(prompt: string, reader: 'shell' | 'job', config: InputPromptConfig): number {
  if (reader === 'shell' && !(isStrongPrompt(prompt) || isReplPrompt(prompt) || weakPatterns.some((p) => p.test(prompt)))) {
    return config.shellReadingSilenceMs;
  }
  return prompt.length > 0 ? config.readingSilenceMs : config.emptyReadingSilenceMs;
}

const isStrongPrompt = (line: string): boolean => strongPatterns.some((p) => p.test(line)) || batchJobAnswer(line) !== undefined;
const isReplPrompt = (line: string): boolean => replPatterns.some((p) => p.test(line.trim()));
