/**
 * Secrets out of what leaves the terminal for the model or the disk (results, log files, the
 * process log, the extension log); the terminal the person sees is never touched. Three kinds of
 * finding, each replaced by a marker naming its kind (`‹redacted: GitHub token›`):
 * - well-known token formats (GitHub, OpenAI/Anthropic, AWS, GitLab, Slack, npm, Stripe, Google,
 *   JWTs, private-key blocks, bearer credentials, the password of a URL);
 * - the values of the environment's secret-named variables (secretNames.ts), matched literally;
 * - the value of an assignment whose key is secret-named (`API_KEY=…`, `"password": "…"`), which
 *   covers `printenv`, `cat .env` and config dumps.
 * Every pattern is anchored on a prefix or a key name, so hashes, UUIDs and base64 payloads pass.
 * The rules run only on the lines secretLines.ts finds with a few native scans: most output has none.
 */
import { PRIVATE_KEY_END, RARE_LETTERS, secretLines, VALUE_ANCHORS } from './secretLines';
import { isSecretName, secretValues } from './secretNames';
import { ValueScanner } from './valueScanner';

export interface Redacted {
  readonly text: string;
  /** How many secrets were replaced. */
  readonly count: number;
}

export interface RedactionOptions {
  /** False: nothing is redacted (the setting is off). Default true. */
  readonly enabled?: boolean;
  /** Where secret-named variables are looked up (the environment the terminals inherit). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** More patterns (JavaScript regular expressions) whose matches are secrets, from the settings. */
  readonly extraPatterns?: readonly string[];
}

interface FormatRule {
  readonly kind: string;
  readonly pattern: RegExp;
}

/** Token formats, most specific first (a GitHub token in a URL is named a GitHub token). */
const FORMAT_RULES: readonly FormatRule[] = [
  { kind: 'private key', pattern: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{30,255})\b/g },
  { kind: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  // OpenAI keys (sk-…, sk-proj-…) hold digits; a long hyphenated word after "sk-" does not.
  { kind: 'OpenAI key', pattern: /\bsk-(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}/g },
  { kind: 'Stripe key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'JWT', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

/** `Authorization: Bearer …` and the like: the credential after the scheme. */
const BEARER = /\b(Bearer|Basic|token)( +)([A-Za-z0-9._~+/=-]{20,})/g;
/** scheme://user:password@host: the password. */
const URL_PASSWORD = /\b([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s:/@'"]*:)([^\s@/'"‹]+)@/g;
/**
 * key=value, key: value, "key": "value", export KEY=value. The key is checked by isSecretName;
 * the value is at least 6 characters and not a marker already.
 */
const ASSIGNMENT = /(["']?)\b((?:[A-Za-z_][A-Za-z0-9_.-]{0,80})?(?:token|secret|passw(?:or)?d|passphrase|pass|pwd|key|auth|credential|string))\1(\s{0,3}[:=]\s{0,3})(["']?)((?!‹)[^\s"',;]{6,})/gi;

/**
 * Values of a secret-named key that are not secrets: code (`token: string`, `apiKey: undefined`,
 * `token = opts.token`, a call), a placeholder (`${API_KEY}`, `process.env.X`, `<your-key>`,
 * `****`), a version range in a lockfile (`"jsonwebtoken": "^9.0.2"`). Measured on `git log -p`
 * and package-lock.json, where they were the false positives.
 */
const NOT_A_SECRET = /^(?:undefined|null|true|false|boolean|string|number|object|none|None|nil|required|optional|redacted|\*+|x+|<[^>]*>?|\$\{?[\w.]+\}?|(?:process\.env|os\.environ|env)\b.*|[\^~>=<v]*\d+(?:\.[\dx*]+)+\S*|[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+|.*[()[\]{}].*)$/;

/**
 * A key that is only an ending counts when it names a password (`password=`, `PASSWORD:` in a .env
 * or a YAML file); `token:`, `secret:`, `auth:` alone are mostly prose and code (`git log -p`).
 */
const BARE_ENDING = /^(?:token|secret|passw(?:or)?d|passphrase|pass|pwd|key|auth|credential|string)$/i;
const BARE_PASSWORD = /^(?:passw(?:or)?d|passphrase)$/i;

export const MARKER_OPEN = '‹redacted: ';
export const marker = (kind: string): string => `${MARKER_OPEN}${kind}›`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  private readonly enabled: boolean;
  private readonly literal: RegExp | undefined;
  private readonly literalValues: ValueScanner;
  private readonly literalNames: ReadonlyMap<string, string>;
  private readonly extra: readonly RegExp[];
  /** Patterns of the settings that do not compile, for the caller to report. */
  readonly invalidPatterns: readonly string[];

  constructor(options: RedactionOptions = {}) {
    this.enabled = options.enabled !== false;
    const values = secretValues(options.env ?? {});
    this.literalNames = new Map(values.map(({ name, value }) => [value, name]));
    const literal = values.map(({ value }) => escapeRegExp(value)).join('|');
    this.literal = values.length > 0 ? new RegExp(literal, 'g') : undefined;
    this.literalValues = new ValueScanner(values.map(({ value }) => value), VALUE_ANCHORS, RARE_LETTERS);
    const extra: RegExp[] = [];
    const invalid: string[] = [];
    for (const source of options.extraPatterns ?? []) {
      try {
        if (source.length > 0) extra.push(new RegExp(source, 'g'));
      } catch {
        invalid.push(source);
      }
    }
    this.extra = extra;
    this.invalidPatterns = invalid;
  }

  /** `text` with every secret found replaced by its marker. */
  redact(text: string): Redacted {
    if (!this.enabled || text.length === 0) return { text, count: 0 };
    // The settings' patterns may match anything, anywhere: they take the whole text through every rule.
    if (this.extra.length > 0) return this.redactLines(text);
    let out = '';
    let copied = 0;
    let count = 0;
    for (const [start, end] of secretLines(text, this.literalValues)) {
      const lines = this.redactLines(text.slice(start, end));
      if (lines.count === 0) continue;
      out += text.slice(copied, start) + lines.text;
      copied = end;
      count += lines.count;
    }
    return count === 0 ? { text, count: 0 } : { text: out + text.slice(copied), count };
  }

  /** Every rule over `text`, in order (a later rule sees the markers of the earlier ones). */
  private redactLines(text: string): Redacted {
    let count = 0;
    let out = text;
    for (const rule of FORMAT_RULES) {
      out = out.replace(rule.pattern, () => {
        count++;
        return marker(rule.kind);
      });
    }
    if (this.literal) {
      out = out.replace(this.literal, (value) => {
        count++;
        return marker(`value of ${this.literalNames.get(value) ?? 'a secret variable'}`);
      });
    }
    for (const pattern of this.extra) {
      out = out.replace(pattern, (found) => {
        if (found.length === 0) return found;
        count++;
        return marker('custom pattern');
      });
    }
    out = out.replace(BEARER, (_found, scheme: string, space: string) => {
      count++;
      return `${scheme}${space}${marker('credential')}`;
    });
    out = out.replace(URL_PASSWORD, (_found, head: string) => {
      count++;
      return `${head}${marker('URL password')}@`;
    });
    out = out.replace(ASSIGNMENT, (found, quote: string, name: string, sep: string, valueQuote: string, value: string) => {
      if (!isSecretName(name) || NOT_A_SECRET.test(value) || (BARE_ENDING.test(name) && !BARE_PASSWORD.test(name))) return found;
      count++;
      return `${quote}${name}${quote}${sep}${valueQuote}${marker(`value of ${name}`)}`;
    });
    return { text: out, count };
  }

  /** Redacts text that arrives in pieces (a log file): a private-key block may span several. */
  stream(): RedactionStream {
    return new RedactionStream(this);
  }
}

const KEY_BEGIN_OPEN = /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----(?![\s\S]*-----END[A-Z0-9 ]{0,40} PRIVATE KEY)/;

export class RedactionStream {
  /** A private-key block began in an earlier piece and has not ended yet. */
  private inKey = false;
  private total = 0;

  constructor(private readonly redactor: Redactor) {}

  /** How many secrets the pieces so far held. */
  get count(): number {
    return this.total;
  }

  /** The next piece, redacted; the stream remembers an unfinished private-key block. */
  push(text: string): string {
    const { text: out, count, inKey } = this.redactPiece(text, this.inKey);
    this.inKey = inKey;
    this.total += count;
    return out;
  }

  /** A piece that is not final (a screen that will be rewritten): redacted as `push` would, leaving the stream as it is. */
  peek(text: string): string {
    return this.redactPiece(text, this.inKey).text;
  }

  private redactPiece(text: string, inKey: boolean): Redacted & { readonly inKey: boolean } {
    let rest = text;
    let head = '';
    let count = 0;
    if (inKey) {
      const end = PRIVATE_KEY_END.exec(rest);
      if (!end) return { text: rest.length > 0 ? marker('private key') : rest, count: 0, inKey: true };
      head = marker('private key');
      rest = rest.slice(end.index + end[0].length);
    }
    const redacted = this.redactor.redact(rest);
    // A private-key header is always redacted (its rule runs to the text's end without an END), so
    // a piece that redacted nothing opens no block: most pieces skip the look for one.
    const opens = redacted.count > 0 && rest.includes('-----BEGIN') && KEY_BEGIN_OPEN.test(rest);
    count += redacted.count;
    return { text: head + redacted.text, count, inKey: opens };
  }
}

/** What the settings say about redaction (core/settings.ts). */
export interface RedactionSettings {
  readonly redactSecrets: boolean;
  readonly redactPatterns: readonly string[];
}

let cached: { readonly key: string; readonly redactor: Redactor } | undefined;

/**
 * The window's redactor under these settings, over the environment the terminals inherit (the
 * extension host's); built again only when the settings change.
 */
export function redactorFor(settings: RedactionSettings, env: Readonly<Record<string, string | undefined>> = process.env): Redactor {
  const key = JSON.stringify([settings.redactSecrets, settings.redactPatterns]);
  if (cached?.key !== key || env !== process.env) {
    const redactor = new Redactor({ enabled: settings.redactSecrets, extraPatterns: settings.redactPatterns, env });
    if (env !== process.env) return redactor;
    cached = { key, redactor };
  }
  return cached.redactor;
}
