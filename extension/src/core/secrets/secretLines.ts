/**
 * Where in a text a secret may be: the lines around every place one of redaction.ts's rules could
 * match, found with native `indexOf` scans for a few characters the rules need (`_ - : = J`,
 * `IA za Bearer Basic ken `) and a check at each hit, and the environment's secret values: those
 * holding one of VALUE_ANCHORS at the hits of its scan, those holding a letter rare in output at
 * the hits of a scan for it, the others in one pass (valueScanner.ts).
 * Most output holds none of them, so the full rules run on a few lines instead of every byte
 * (docs/benchmarks.md). A scan costs each place where it stops natively on its needle's first
 * character (about 20 ns) or is handed back (about 30 ns), so a needle starts with its rarest
 * character, and a hit is let go on a look at a character or two before a regular expression
 * (about 60 ns) is asked.
 * A superset by construction: each check is a necessary condition of a rule, and every rule's match
 * lies on the lines returned (a private-key block runs to its END line or the text's end; an
 * assignment may have up to 3 whitespace characters, newlines too, on each side of its `:`/`=`).
 * A URL's password is looked for at the `:` before it (that scan's places), not at its `@`: most
 * `:` in output (`https://`, `warning: `) are let go on the character after them.
 */
import type { ValueScanner } from './valueScanner';

/** Before `_`: GitHub (`ghp_`, `github_pat_`), npm, Stripe (`sk_live_`). */
const UNDERSCORE_PREFIX = /(?<=gh[pousr]|github|npm|[rs]k)_/y;
/** Before `-`: GitLab, OpenAI/Anthropic (`sk-`, `sk-ant-`), Slack. */
const DASH_PREFIX = /(?<=glpat|sk|xox[abposr])-/y;
const KEY_BEGIN = /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/y;
/** The end of a private-key block (redaction.ts's stream looks for it too). */
export const PRIVATE_KEY_END = /-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = new RegExp(PRIVATE_KEY_END.source, 'g');
/** A secret-named key before `:` or `=` (the ASSIGNMENT rule's name ending, quote and spacing). */
const ASSIGNMENT_KEY = /(?<=(?:token|secret|passw(?:or)?d|passphrase|pass|pwd|key|auth|credential|string)["']?\s{0,3})[:=]/iy;
/** The `@` after a URL's `scheme://user:password`. */
const URL_USERINFO = /(?<=:\/\/[^\s:/@'"]*:[^\s@/'"]+)@/y;
const AUTH_SCHEME = /(?:Bearer|Basic|token) +[A-Za-z0-9._~+/=-]{20}/y;
/** The characters a URL's password may hold (URL_USERINFO's), from a `:` on: its end is the `@` if there is one. */
const PASSWORD_RUN = /[^\s@/'"]*/y;
/** ASCII characters no password holds: a `:` followed by one (`https://`, `warning: `, `"key":"`) starts none. */
const ENDS_PASSWORD = new Uint8Array(128);
for (const char of ' \t\n\v\f\r@/\'"') ENDS_PASSWORD[char.charCodeAt(0)] = 1;

/**
 * Where the password characters from `index` on end: walked here over ASCII (runs are short:
 * `8080/`, `\x1b[0m `), by PASSWORD_RUN from the first character beyond it (a Unicode space ends one).
 */
function passwordRunEnd(text: string, index: number): number {
  let end = index;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code >= 128) break;
    if (ENDS_PASSWORD[code] === 1) return end;
  }
  if (end >= text.length) return end;
  PASSWORD_RUN.lastIndex = end;
  PASSWORD_RUN.test(text);
  return PASSWORD_RUN.lastIndex;
}

/**
 * The characters whose every place the scans below visit, rarest in output first: a secret value
 * holding one is looked for at that scan's hits (valueScanner.ts) instead of in a pass of its own.
 */
export const VALUE_ANCHORS = 'J=_:-';
/** Letters rare in output, rarest first: a value holding none of VALUE_ANCHORS may be looked for at the places of a scan for one of these (valueScanner.ts). */
export const RARE_LETTERS = 'QZXVKYqzxj';

/**
 * An assignment's `:`/`=` has at most 3 spaces (newlines too) and a quote on each side: the
 * character this far before it is on the key's line, this far after it on the value's.
 */
const ASSIGNMENT_REACH = 4;

/**
 * The character before the last of a rule's prefix before `-`, by its last (`glpa|t`, `s|k`,
 * `x|b` of `xoxb`…): most `-` in output (`pkg-1`, `test-run`, `--flag`) follow no such pair.
 */
const BEFORE_DASH = new Uint16Array(128);
BEFORE_DASH[0x74] = 0x61;
BEFORE_DASH[0x6b] = 0x73;
for (const char of 'abposr') BEFORE_DASH[char.charCodeAt(0)] = 0x78;

/**
 * The character code at `index`, or -1 outside the text. Every read near a hit that may fall
 * outside goes through it: an out-of-bounds `charCodeAt` (NaN) throws the optimized code away,
 * and a process took 3 passes over 20 MB to run at full speed.
 */
const codeAt = (text: string, index: number): number => (index >= 0 && index < text.length ? text.charCodeAt(index) : -1);

/** The ASSIGNMENT rule's name endings (lower case). */
const KEY_WORDS = ['token', 'secret', 'passwd', 'password', 'passphrase', 'pass', 'auth', 'credential', 'string', 'pwd', 'key'];
/**
 * The endings by their last two letters, at `128 × before + last`: most `:` and `=` in output follow
 * none and are let go on two looks; the others are compared with the few endings there.
 */
const KEY_WORDS_BY_LAST_TWO = new Uint8Array(128 * 128);
/** The lists of endings KEY_WORDS_BY_LAST_TWO points at (0: none). */
const KEY_WORD_LISTS: string[][] = [[]];
for (const word of KEY_WORDS) {
  const slot = word.charCodeAt(word.length - 2) * 128 + word.charCodeAt(word.length - 1);
  if (KEY_WORDS_BY_LAST_TWO[slot] === 0) KEY_WORDS_BY_LAST_TWO[slot] = KEY_WORD_LISTS.push([]) - 1;
  KEY_WORD_LISTS[KEY_WORDS_BY_LAST_TWO[slot]!]!.push(word);
}

/** Whether `word` (lower case) ends at `end` (inclusive), in any case (ASCII letters only, as the rule's `i` flag without `u`). */
function endsWithWord(text: string, end: number, word: string): boolean {
  if (end + 1 < word.length) return false;
  for (let k = 2; k < word.length; k++) if ((text.charCodeAt(end - k) | 0x20) !== word.charCodeAt(word.length - 1 - k)) return false;
  return true;
}

/**
 * Whether a secret-named key may end before the `:`/`=` at `index` (then ASSIGNMENT_KEY decides):
 * one of the endings, past at most 3 spaces and a quote. A character beyond ASCII before the spaces
 * (which may be a Unicode space) leaves the decision to the regular expression.
 */
function mayEndSecretKey(text: string, index: number): boolean {
  let end = index - 1;
  let code = codeAt(text, end);
  for (let spaces = 0; spaces < 4 && (code === 32 || (code >= 9 && code <= 13)); spaces++) code = codeAt(text, --end);
  if (code >= 128) return true;
  if (code === 0x22 || code === 0x27) code = codeAt(text, --end);
  // Before the text (-1) or a letter beyond ASCII: no ending.
  if (end < 1 || code >= 128) return false;
  const before = text.charCodeAt(end - 1) | 0x20;
  if (before >= 128) return false;
  const list = KEY_WORDS_BY_LAST_TWO[before * 128 + (code | 0x20)]!;
  if (list === 0) return false;
  for (const word of KEY_WORD_LISTS[list]!) if (endsWithWord(text, end, word)) return true;
  return false;
}

const at = (pattern: RegExp, text: string, index: number): boolean => {
  pattern.lastIndex = index;
  return pattern.test(text);
};

function lineStart(text: string, index: number): number {
  return index <= 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
}

function lineEnd(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end < 0 ? text.length : end;
}

/**
 * Ranges `[start, end)` of whole lines, sorted and apart, that may hold a secret: `literals` are
 * the environment's secret values, matched wherever they appear. Empty: the text holds none.
 */
export function secretLines(text: string, literals?: ValueScanner): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  /** The lines from the one holding `from` to the one holding `to` (exclusive end). */
  const add = (from: number, to: number): void => {
    spans.push([lineStart(text, from), lineEnd(text, to)]);
  };
  /** The scanner, when a secret value is looked for at the places of `anchor`. */
  const valuesAt = (anchor: string): ValueScanner | undefined => (literals?.anchorsUsed.includes(anchor) ? literals : undefined);
  // One scan per character, each hit checked on the spot: cheaper than one regular expression for all.
  let values = valuesAt('_');
  for (let i = text.indexOf('_'); i >= 0; i = text.indexOf('_', i + 1)) {
    if (at(UNDERSCORE_PREFIX, text, i)) add(i, i);
    values?.atAnchor(text, i, add);
  }
  values = valuesAt('-');
  for (let i = text.indexOf('-'); i >= 0; i = text.indexOf('-', i + 1)) {
    const before = codeAt(text, i - 1);
    const pair = before >= 0 && before < 128 ? BEFORE_DASH[before]! : 0;
    if (pair !== 0 && codeAt(text, i - 2) === pair && at(DASH_PREFIX, text, i)) add(i, i);
    else if (codeAt(text, i + 1) === 0x2d && text.startsWith('----BEGIN', i + 1) && at(KEY_BEGIN, text, i)) {
      KEY_END.lastIndex = i;
      const end = KEY_END.exec(text);
      add(i, end ? end.index + end[0].length : text.length);
    }
    values?.atAnchor(text, i, add);
  }
  values = valuesAt('=');
  for (let i = text.indexOf('='); i >= 0; i = text.indexOf('=', i + 1)) {
    if (mayEndSecretKey(text, i) && at(ASSIGNMENT_KEY, text, i)) add(Math.max(0, i - ASSIGNMENT_REACH), Math.min(text.length, i + ASSIGNMENT_REACH));
    values?.atAnchor(text, i, add);
  }
  values = valuesAt(':');
  /** Where the password characters after the last `:` walked from end: a `:` inside that run ends there too (each character is walked once). */
  let runEnd = -1;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    if (mayEndSecretKey(text, i) && at(ASSIGNMENT_KEY, text, i)) add(Math.max(0, i - ASSIGNMENT_REACH), Math.min(text.length, i + ASSIGNMENT_REACH));
    // A URL's password runs from the `:` after its user to its `@`.
    if (i >= runEnd) runEnd = passwordRunEnd(text, i + 1);
    if (runEnd > i + 1 && codeAt(text, runEnd) === 0x40 && at(URL_USERINFO, text, runEnd)) add(runEnd, runEnd);
    values?.atAnchor(text, i, add);
  }
  // AWS keys (AKIA, ASIA) hold `IA`, Google's (AIza) `za` (`z` is rarer than `I`); a JWT starts
  // `eyJ` (`e` is common: a scan for `eyJ` stops natively at every `e`, 50 times the cost of `J`).
  for (let i = text.indexOf('IA'); i >= 0; i = text.indexOf('IA', i + 1)) {
    if (text.startsWith('AKIA', i - 2) || text.startsWith('ASIA', i - 2)) add(i, i);
  }
  for (let i = text.indexOf('za'); i >= 0; i = text.indexOf('za', i + 1)) {
    if (text.startsWith('AI', i - 2)) add(i, i);
  }
  values = valuesAt('J');
  for (let i = text.indexOf('J'); i >= 0; i = text.indexOf('J', i + 1)) {
    if (text.startsWith('eyJ', i - 2)) add(i, i);
    values?.atAnchor(text, i, add);
  }
  // Each scheme its own scan: a `B` in other words (`Build`) is then let go natively.
  for (const scheme of ['Bearer', 'Basic']) {
    for (let i = text.indexOf(scheme); i >= 0; i = text.indexOf(scheme, i + 1)) {
      if (at(AUTH_SCHEME, text, i)) add(i, i);
    }
  }
  for (let i = text.indexOf('ken '); i >= 0; i = text.indexOf('ken ', i + 1)) {
    if (i >= 2 && at(AUTH_SCHEME, text, i - 2)) add(i, i);
  }
  literals?.scanOwnLetters(text, add);
  literals?.scan(text, add);
  return merge(spans);
}

/** Sorted, with overlapping or touching ranges joined (a line's `\n` between two ranges joins them too). */
function merge(spans: Array<readonly [number, number]>): Array<readonly [number, number]> {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
