/**
 * The decision for one command line, as VS Code's run_in_terminal makes it (microsoft/vscode,
 * chatAgentTools/browser/tools/commandLineAnalyzer/commandLineAutoApproveAnalyzer.ts and the file
 * write analyzer beside it), with the floor first and the stricter readings after:
 *   floor → per-command check off / global auto-approve / enableAutoApprove off / all allowed for
 *   the session → every sub-command: any denied asks; all approved (or a matchCommandLine rule)
 *   runs → unanalyzable syntax and blocked file writes ask.
 * Stricter than VS Code (each named in the reason): deny rules also see the program by name, the
 * words unquoted and what wrappers run; a bash parse error, a line continuation, a program chosen
 * by an expansion, a heredoc or -c/-e string handed to an interpreter, a sed script that runs or
 * writes, code through an approved command (codeThrough.ts) never run unasked. A line with a
 * control character is on the floor; one too long or deep to read within the bound asks unread.
 * A whole-line approval the person wrote (a matchCommandLine rule, or a rule like `/.*\/` that
 * matches all of the line) is their word: the stricter readings give way to it, the floor does not.
 */
import { describeRule, denyingRule, matchCommandLine, matchSubCommand, type AutoApproveLayers, type Match, type RuleSet } from './autoApproveRules';
import { argvOf, normalizedText, wrappedCommands } from './commandWords';
import { codeThroughReasons } from './codeThrough';
import { checkFileWrites, lineWrites, type BlockFileWrites } from './fileWrites';
import { floorReason } from './floor';
import { terminalControlReason, unboundedReason } from './lineBounds';
import { readSed } from './sedScript';
import { npmScriptName, workspaceScripts } from './npmScripts';
import type { LineParser } from './lineParser';
import { SHELLS, programName, type ParsedLine, type ShellCommand } from './shellSyntax';

/** The settings the decision reads (VS Code's chat.tools.* and ours), fresh for every line. */
export interface SafetySettings {
  /** terminalShepherd.safety.perCommandCheck: off runs every line unasked but the floor's. */
  readonly perCommandCheck: boolean;
  readonly enableAutoApprove: boolean;
  /** chat.tools.global.autoApprove (/yolo): every tool call runs unasked. */
  readonly globalAutoApprove: boolean;
  readonly autoApprove: AutoApproveLayers;
  readonly ignoreDefaultAutoApproveRules: boolean;
  readonly autoApproveWorkspaceNpmScripts: boolean;
  readonly blockDetectedFileWrites: BlockFileWrites;
  readonly workspaceFolders: readonly string[];
}

/** What a session (one MCP client's connection) was allowed by the person's answers. */
export interface SessionApprovals {
  readonly rules: RuleSet;
  readonly allowAll: boolean;
}

export interface LineToDecide {
  readonly line: string;
  readonly powershell: boolean;
  readonly cwd: string | undefined;
}

export interface DecisionContext {
  /** Parses the line within the bound (in the extension, in a worker thread). */
  readonly parser: LineParser;
  readonly settings: SafetySettings;
  readonly rules: RuleSet;
  readonly session: SessionApprovals;
  readonly home: string;
}

/** What the person may allow from here on, as VS Code offers it (runInTerminalHelpers.ts generateAutoApproveActions). */
export interface ApprovalOffers {
  /** Rule keys for "Allow `x …`" (sub-commands with their sub-command, never a shell, an interpreter, eval, sudo, curl, wget, …). */
  readonly subCommands: readonly string[];
  /** "Allow Exact Command Line" is offered. */
  readonly exactLine: boolean;
  /** "Allow All Commands in this Session" is offered. */
  readonly allowAll: boolean;
}

export interface SafetyDecision {
  /** Runs with no question. */
  readonly approved: boolean;
  /** Set when the floor asks: why (no answer but "run once" exists then). */
  readonly floor: string | undefined;
  /** Why it runs or asks, in a sentence. */
  readonly reason: string;
  /** The rules that decided, as VS Code names them (`rm` (default)). */
  readonly rules: readonly string[];
  readonly subCommands: readonly string[];
  readonly offers: ApprovalOffers;
}

const NO_OFFERS: ApprovalOffers = { subCommands: [], exactLine: false, allowAll: false };
/** How a line that could not be read (so neither the floor nor the rules) starts its reason: nothing may approve it unasked. */
export const UNREAD = 'asks unread, whatever the settings';
const INTERPRETERS = new Set([...SHELLS, 'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'osascript', 'awk', 'gawk', 'cmd']);
const NEVER_SUGGESTED = new Set([...SHELLS, 'powershell.exe', 'cmd', 'cmd.exe', 'python', 'python3', 'node', 'ruby', 'perl', 'php', 'lua', 'eval', 'exec', 'source', 'sudo', 'su', 'doas', 'curl', 'wget', 'invoke-restmethod', 'invoke-webrequest', 'irm', 'iwr']);
const WITH_SUBCOMMAND = new Set(['git', 'npm', 'npx', 'yarn', 'docker', 'kubectl', 'cargo', 'dotnet', 'mvn', 'gradle']);
const WITH_SUBSUBCOMMAND = new Set(['npm run', 'yarn run']);

export async function decideLine(input: LineToDecide, context: DecisionContext): Promise<SafetyDecision> {
  const { settings } = context;
  // The length first (a megabyte line is not even scanned), then the bytes the terminal acts on.
  const unbounded = unboundedReason(input.line);
  if (unbounded) return { subCommands: [], rules: [], offers: NO_OFFERS, approved: false, floor: undefined, reason: `${UNREAD}: ${unbounded}` };
  const control = terminalControlReason(input.line);
  if (control) return { subCommands: [], rules: [], offers: NO_OFFERS, approved: false, floor: control, reason: `always asks: ${control}` };
  const line = input.line.trimStart();
  let parsed: ParsedLine;
  try {
    parsed = await context.parser.parse(input.powershell ? 'powershell' : 'bash', line);
  } catch (error) {
    // Fail closed: what cannot be read within the bound asks, whatever the settings.
    const why = error instanceof Error ? error.message : String(error);
    return { subCommands: [], rules: [], offers: NO_OFFERS, approved: false, floor: undefined, reason: `${UNREAD}: ${why}` };
  }
  const subCommands = parsed.commands.filter((c) => !c.nested).map((c) => c.text);
  const base = { subCommands, rules: [] as string[], offers: NO_OFFERS };
  const floor = floorReason(parsed, { cwd: input.cwd, workspaceFolders: settings.workspaceFolders, home: context.home });
  if (floor) return { ...base, approved: false, floor, reason: `always asks: ${floor}` };
  const approved = (reason: string, rules: string[] = []): SafetyDecision => ({ ...base, approved: true, floor: undefined, reason, rules });
  const asks = (reason: string, rules: string[] = [], offers = NO_OFFERS): SafetyDecision => ({ ...base, approved: false, floor: undefined, reason, rules, offers });
  if (!settings.perCommandCheck) return approved('the per-command check is off (terminalShepherd.safety.perCommandCheck)');
  if (settings.globalAutoApprove) return approved('chat.tools.global.autoApprove approves every tool call');
  if (!settings.enableAutoApprove) return asks('chat.tools.terminal.enableAutoApprove is off, so every command is confirmed');
  if (context.session.allowAll) return approved('all commands are allowed in this session');
  if (subCommands.length === 0) return line.length === 0 ? approved('the line is empty') : asks('no command could be read in it');

  const results = await Promise.all(subCommands.map((command) => matchWithScripts(command, input, context)));
  const lineResult = matchCommandLine(context.rules, context.session.rules, line);
  const named = (m: Match): string[] => (m.rule ? [describeRule(m.rule)] : m.result === 'denied' ? ['an environment-variable prefix'] : []);
  const denied = results.map((m, i) => [m, subCommands[i]!] as const).filter(([m]) => m.result === 'denied');
  // The person's own whole-line approval: the stricter readings give way (VS Code's own checks do not).
  const personsWord = denied.length === 0 && lineResult.result !== 'denied' && personApprovesLine(line, context, lineResult);
  const stricterDenials = personsWord ? [] : stricterDeny(parsed, context, input.powershell).filter(([, text]) => !denied.some(([, d]) => d === text));
  const unanalyzable = parsed.unanalyzable;
  const unreadable = personsWord ? [] : [...stricterUnanalyzable(parsed, input.line), ...sedDangers(parsed), ...codeThroughReasons(parsed, line, lineWrites(parsed, true), { cwd: input.cwd, workspaceFolders: settings.workspaceFolders })];
  const writes = checkFileWrites(parsed, { setting: settings.blockDetectedFileWrites, cwd: input.cwd, workspaceFolders: settings.workspaceFolders, sessionAllowsAll: context.session.allowAll, shellReading: !personsWord });

  const reasons: string[] = [];
  const rules: string[] = [];
  let vscodeApproves = false;
  if (denied.length > 0 || lineResult.result === 'denied') {
    for (const [m, text] of denied) {
      reasons.push(`\`${text}\` is denied by ${named(m).join('') || 'a rule'}`);
      rules.push(...named(m));
    }
    if (lineResult.result === 'denied') {
      reasons.push(`the line is denied by ${named(lineResult).join('')}`);
      rules.push(...named(lineResult));
    }
  } else if (results.every((m) => m.result === 'approved')) {
    vscodeApproves = true;
    rules.push(...new Set(results.flatMap(named)));
  } else if (lineResult.result === 'approved') {
    vscodeApproves = true;
    rules.push(...named(lineResult));
  } else {
    reasons.push(...results.map((m, i) => [m, subCommands[i]!] as const).filter(([m]) => m.result === 'noMatch').map(([, text]) => `no rule approves \`${text}\``));
  }
  for (const [rule, text, reading] of stricterDenials) {
    reasons.push(`\`${text}\` is denied by ${rule} (read as \`${reading}\`)`);
    rules.push(rule);
  }
  if (unanalyzable.length > 0) reasons.push(`it holds ${unanalyzable.join(', ')}, which VS Code never approves unasked`);
  reasons.push(...unreadable);
  if (writes.blocked) reasons.push(writes.blocked);
  if (vscodeApproves && reasons.length === 0) return approved(`approved by ${rules.join(', ')}`, rules);

  // VS Code offers new rules only where they could help: nothing denied, the syntax analyzable, no blocked write.
  const deniedAny = denied.length > 0 || lineResult.result === 'denied' || stricterDenials.length > 0;
  const canOfferRules = !deniedAny && unanalyzable.length === 0 && unreadable.length === 0 && !writes.blocked;
  const offers: ApprovalOffers = writes.blocked || unanalyzable.length > 0 ? NO_OFFERS : canOfferRules ? ruleOffers(line, subCommands, results) : { ...NO_OFFERS, allowAll: true };
  return asks(reasons.join('; '), [...new Set(rules)], offers);
}

async function matchWithScripts(command: string, input: LineToDecide, context: DecisionContext): Promise<Match> {
  const match = matchSubCommand(context.rules, context.session.rules, command, input.powershell);
  if (match.result !== 'noMatch' || !context.settings.autoApproveWorkspaceNpmScripts) return match;
  const script = npmScriptName(command);
  if (script === undefined || !(await workspaceScripts(input.cwd, context.settings.workspaceFolders)).has(script)) return match;
  return { result: 'approved', rule: { regex: /(?!)/, regexCaseInsensitive: /(?!)/, sourceText: `npm script ${script}`, source: 'workspace', isDefaultRule: false } };
}

/** Deny rules against the program by name, the words unquoted and the commands wrappers run: [rule, sub-command, reading]. */
function stricterDeny(parsed: ParsedLine, context: DecisionContext, powershell: boolean): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const command of parsed.commands) {
    const argv = argvOf(command);
    const readings = [normalizedText(argv), ...wrappedCommands(argv).flatMap((inner) => [inner.join(' '), normalizedText(inner)])];
    for (const reading of readings) {
      const rule = denyingRule(context.rules, context.session.rules, reading, powershell);
      if (rule && (reading !== command.text || command.nested)) {
        found.push([describeRule(rule), command.text.trim(), reading]);
        break;
      }
    }
  }
  return found;
}

/**
 * A whole line the person approved themselves: a matchCommandLine rule of theirs, or an allow rule
 * of theirs (not one of VS Code's defaults; a session's too) that matches all of the line (`/.*\/`).
 */
function personApprovesLine(line: string, context: DecisionContext, lineResult: Match): boolean {
  if (lineResult.result === 'approved' && lineResult.rule && !lineResult.rule.isDefaultRule) return true;
  return [...context.session.rules.allow, ...context.rules.allow].some((rule) => !rule.isDefaultRule && rule.regex.exec(line)?.[0] === line);
}

/** sed scripts that run a program or read or write a file, however spelled (sedScript.ts). */
function sedDangers(parsed: ParsedLine): string[] {
  return parsed.commands.flatMap((c) => {
    const danger = /^sed(\.exe)?$/i.test(programName(c.words[0]?.value) ?? '') ? readSed(c.words.slice(1)).danger : undefined;
    return danger ? [`\`${c.text.trim()}\`: ${danger}`] : [];
  });
}

/** What this reading cannot vouch for, though VS Code would (each a reason). */
function stricterUnanalyzable(parsed: ParsedLine, line: string): string[] {
  const reasons: string[] = [];
  if (parsed.hasError && parsed.grammar === 'bash') reasons.push('the bash grammar found a syntax error in it');
  if (/\\\r?\n/.test(line)) reasons.push('it continues over a line break (`\\` at the end of a line)');
  for (const command of parsed.commands) {
    const program = command.words[0];
    if (!program || program.value === undefined) {
      reasons.push(`\`${command.text.trim()}\` runs a program an expansion chooses`);
      continue;
    }
    const name = (programName(program.value) ?? '').toLowerCase();
    if (!INTERPRETERS.has(name)) continue;
    if (command.stdin !== undefined) reasons.push(`\`${command.text.trim()}\` hands ${name} a script through a heredoc or here-string`);
    if (handsScript(command)) reasons.push(`\`${command.text.trim()}\` hands ${name} a script to run`);
  }
  return [...new Set(reasons)];
}

function handsScript(command: ShellCommand): boolean {
  return command.words.slice(1).some((w) => /^-[a-zA-Z]*[ceE]$|^--(eval|command|exec)$|^-command$/i.test(w.value ?? w.raw));
}

/** VS Code's suggestions for the sub-commands no rule approved. */
function ruleOffers(line: string, subCommands: readonly string[], results: readonly Match[]): ApprovalOffers {
  const unapproved = subCommands.filter((_, i) => results[i]!.result !== 'approved');
  const suggestions = new Set<string>();
  for (const command of unapproved) {
    const parts = command.trim().split(/\s+/);
    const base = parts[0]!.toLowerCase();
    if (NEVER_SUGGESTED.has(base)) continue;
    if (!WITH_SUBCOMMAND.has(base)) {
      suggestions.add(parts[0]!);
      continue;
    }
    const sub = nextOperand(parts, 1);
    if (sub === undefined) continue;
    if (WITH_SUBSUBCOMMAND.has(`${parts[0]} ${parts[sub]}`.toLowerCase())) {
      const subSub = nextOperand(parts, sub + 1);
      if (subSub !== undefined) suggestions.add(parts.slice(0, subSub + 1).join(' '));
    } else {
      suggestions.add(parts.slice(0, sub + 1).join(' '));
    }
  }
  const firstWord = unapproved[0]?.split(' ')[0] ?? '';
  return { subCommands: [...suggestions], exactLine: firstWord !== line && !WITH_SUBCOMMAND.has(line) && !WITH_SUBSUBCOMMAND.has(line), allowAll: true };
}

function nextOperand(parts: readonly string[], from: number): number | undefined {
  for (let i = from; i < parts.length; i++) if (!parts[i]!.startsWith('-')) return i;
  return undefined;
}
