/**
 * Rule reading and matching, with VS Code's semantics (microsoft/vscode, chatAgentTools/browser/
 * tools/commandLineAnalyzer/autoApprove/commandLineAutoApprover.ts): chat.tools.terminal.autoApprove
 * merged over its scopes (default, user, workspace, folder; `null` unsets a key), each key a
 * prefix (`^key\b`; with a `/` or `\` either separator and an optional leading `./`) or a
 * `/regex/flags`; a value `true`/`false` or `{approve, matchCommandLine}`. A sub-command is denied by
 * an env-variable prefix or a deny rule, then approved by a session rule, an allow rule (or, the
 * caller's business, a workspace npm script). PowerShell matches case-insensitively and may start
 * with `(`. Regexes that match the empty string (endless loops) and invalid ones never match.
 */
import { VSCODE_DEFAULT_AUTO_APPROVE } from './defaultRules';

export type RuleSource = 'default' | 'user' | 'workspace' | 'workspaceFolder' | 'session';

export interface Rule {
  readonly regex: RegExp;
  readonly regexCaseInsensitive: RegExp;
  /** The key as the user wrote it. */
  readonly sourceText: string;
  readonly source: RuleSource;
  /** Same key and value as VS Code's default. */
  readonly isDefaultRule: boolean;
}

export interface RuleSet {
  readonly deny: readonly Rule[];
  readonly allow: readonly Rule[];
  readonly denyLine: readonly Rule[];
  readonly allowLine: readonly Rule[];
}

export const EMPTY_RULES: RuleSet = { deny: [], allow: [], denyLine: [], allowLine: [] };

/** chat.tools.terminal.autoApprove per scope, as the editor reports it (inspect()). */
export interface AutoApproveLayers {
  readonly defaultValue?: unknown;
  readonly userValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
  /** The deprecated chat.agent.terminal.autoApprove, merged over the rest as VS Code still does. */
  readonly deprecatedValue?: unknown;
}

export type MatchResult = 'approved' | 'denied' | 'noMatch';

export interface Match {
  readonly result: MatchResult;
  readonly rule?: Rule;
}

type Entries = Record<string, unknown>;
const isEntries = (value: unknown): value is Entries => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rules in force: the scopes merged key by key (a later scope wins), as VS Code's configuration does. */
export function buildRules(layers: AutoApproveLayers, ignoreDefaultRules: boolean): RuleSet {
  const defaults = isEntries(layers.defaultValue) ? layers.defaultValue : VSCODE_DEFAULT_AUTO_APPROVE;
  const scopes: [RuleSource, unknown][] = [['user', layers.userValue], ['workspace', layers.workspaceValue], ['workspaceFolder', layers.workspaceFolderValue]];
  let merged: Entries = { ...defaults };
  for (const [, value] of scopes) if (isEntries(value)) merged = { ...merged, ...value };
  if (isEntries(layers.deprecatedValue)) merged = { ...merged, ...layers.deprecatedValue };
  const sets = mutableRules();
  for (const [key, value] of Object.entries(merged)) {
    const isDefaultRule = Object.hasOwn(defaults, key) && sameValue(defaults[key], value);
    const source = [...scopes].reverse().find(([, layer]) => isEntries(layer) && Object.hasOwn(layer, key) && sameValue(layer[key], value))?.[0] ?? 'default';
    if (ignoreDefaultRules && isDefaultRule && source === 'default') continue;
    addRule(sets, key, value, source, isDefaultRule);
  }
  return sets;
}

/** Rules from plain entries (a session's). */
export function rulesFrom(entries: Entries, source: RuleSource): RuleSet {
  const sets = mutableRules();
  for (const [key, value] of Object.entries(entries)) addRule(sets, key, value, source, false);
  return sets;
}

export function matchSubCommand(rules: RuleSet, session: RuleSet, command: string, powershell: boolean): Match {
  // An env-variable prefix can make the command run anything (VS Code: always denied).
  if (/^[A-Z_][A-Z0-9_]*=/i.test(command)) return { result: 'denied' };
  const hit = (list: readonly Rule[]): Rule | undefined => list.find((rule) => commandMatches(rule, command, powershell));
  const deny = hit(rules.deny) ?? hit(session.deny);
  if (deny) return { result: 'denied', rule: deny };
  const allow = hit(session.allow) ?? hit(rules.allow);
  return allow ? { result: 'approved', rule: allow } : { result: 'noMatch' };
}

/** Whether a deny rule (configured or of the session) matches: the stricter readings of a sub-command go through this only. */
export function denyingRule(rules: RuleSet, session: RuleSet, command: string, powershell: boolean): Rule | undefined {
  return [...rules.deny, ...session.deny].find((rule) => commandMatches(rule, command, powershell));
}

/** Rules with matchCommandLine: deny, then the session's allow, then allow (case-sensitive, as VS Code). */
export function matchCommandLine(rules: RuleSet, session: RuleSet, line: string): Match {
  const hit = (list: readonly Rule[]): Rule | undefined => list.find((rule) => rule.regex.test(line));
  const deny = hit(rules.denyLine) ?? hit(session.denyLine);
  if (deny) return { result: 'denied', rule: deny };
  const allow = hit(session.allowLine) ?? hit(rules.allowLine);
  return allow ? { result: 'approved', rule: allow } : { result: 'noMatch' };
}

/** How the question and the result name a rule, as VS Code's "Auto approved by rule `x` (default)". */
export function describeRule(rule: Rule): string {
  const where = rule.source === 'session' ? 'this session' : rule.source === 'workspaceFolder' ? 'workspace folder' : rule.source;
  return `\`${rule.sourceText}\` (${where})`;
}

function commandMatches(rule: Rule, command: string, powershell: boolean): boolean {
  if ((powershell ? rule.regexCaseInsensitive : rule.regex).test(command)) return true;
  // `(Get-Content x) …` operates on a command's output: the rule sees past the parenthesis.
  return powershell && command.startsWith('(') && rule.regexCaseInsensitive.test(command.slice(1));
}

function mutableRules(): { deny: Rule[]; allow: Rule[]; denyLine: Rule[]; allowLine: Rule[] } {
  return { deny: [], allow: [], denyLine: [], allowLine: [] };
}

function addRule(sets: ReturnType<typeof mutableRules>, key: string, value: unknown, source: RuleSource, isDefaultRule: boolean): void {
  // `null` (unset) and anything but a boolean or {approve: boolean} is ignored.
  let approve: boolean;
  let line = false;
  if (typeof value === 'boolean') {
    approve = value;
  } else if (isEntries(value) && typeof value.approve === 'boolean') {
    approve = value.approve;
    line = value.matchCommandLine === true;
  } else {
    return;
  }
  const regex = ruleRegex(key);
  const rule: Rule = { regex, regexCaseInsensitive: regex.flags.includes('i') ? regex : withFlags(regex, `${regex.flags}i`), sourceText: key, source, isDefaultRule };
  (line ? (approve ? sets.allowLine : sets.denyLine) : approve ? sets.allow : sets.deny).push(rule);
}

const NEVER = /(?!.*)/;

/** A key as VS Code turns it into a regular expression. */
export function ruleRegex(key: string): RegExp {
  const literal = /^\/(?<pattern>.+)\/(?<flags>[dgimsuvy]*)$/.exec(key);
  const pattern = literal?.groups?.pattern;
  if (pattern) {
    if (pattern === '.*') return /.*/;
    const regex = compile(pattern, (literal.groups?.flags ?? '').replaceAll('g', ''));
    return regex && !leadsToEndlessLoop(regex) ? regex : NEVER;
  }
  if (key === '') return NEVER;
  if (key.includes('/') || key.includes('\\')) {
    const path = escapeRegExp(key.replace(/[/\\]/g, '%%SEP%%')).replace(/%%SEP%%/g, '[/\\\\]');
    return new RegExp(`^(?:\\.[/\\\\])?${path}\\b`);
  }
  return new RegExp(`^${escapeRegExp(key)}\\b`);
}

export function escapeRegExp(value: string): string {
  return value.replace(/[\\{}*+?|^$.[\]()]/g, '\\$&');
}

/**
 * A RegExp, or undefined when invalid. VS Code's git rules use inline modifiers (`(?-i:C)`), which
 * V8 before 12.5 (Node 20) lacks: without the `i` flag such a group means the same as `(?:…)`, so
 * it is read that way there; with `i` it cannot be said otherwise and the rule never matches.
 */
function compile(pattern: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(pattern, flags);
  } catch {
    if (flags.includes('i') || !pattern.includes('(?-i:')) return undefined;
    return compile(pattern.replaceAll('(?-i:', '(?:'), flags);
  }
}

function withFlags(regex: RegExp, flags: string): RegExp {
  return compile(regex.source, flags) ?? NEVER;
}

/** VS Code's regExpLeadsToEndlessLoop: a pattern that matches the empty string (anchors alone excepted). */
function leadsToEndlessLoop(regex: RegExp): boolean {
  if (['^', '^$', '$', '^\\s*$'].includes(regex.source)) return false;
  const match = regex.exec('');
  return !!match && regex.lastIndex === 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
