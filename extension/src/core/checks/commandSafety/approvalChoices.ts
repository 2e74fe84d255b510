/**
 * The answers a person is offered, mirroring VS Code's confirmation for run_in_terminal
 * (runInTerminalHelpers.ts generateAutoApproveActions): run once; allow the sub-command (`npm
 * test …`) or the exact line in this session, this workspace or always; allow all commands in this
 * session; or do not run (declining). What an answer allows from then on is stored as VS Code
 * stores it: workspace and always as chat.tools.terminal.autoApprove entries (exact lines as
 * `/^…$/` with matchCommandLine), the session's in memory.
 */
import { escapeRegExp, rulesFrom, type RuleSet } from './autoApproveRules';
import type { SafetyDecision, SessionApprovals } from './decide';

export interface ApprovalChoice {
  readonly id: string;
  readonly label: string;
}

export type AllowScope = 'once' | 'session' | 'workspace' | 'user';

/** What an answer allows from now on. */
export type Grant =
  | { readonly scope: 'session' | 'workspace' | 'user'; readonly entries: Readonly<Record<string, RuleValue>> }
  | { readonly scope: 'session'; readonly allowAll: true };

export type RuleValue = true | { readonly approve: true; readonly matchCommandLine: true };

export const RUN_ONCE = 'once';
const SCOPES = [
  ['session', (what: string) => `Allow ${what} in this Session`],
  ['workspace', (what: string) => `Allow ${what} in this Workspace`],
  ['user', (what: string) => `Always Allow ${what}`],
] as const;

export function choicesFor(decision: SafetyDecision): ApprovalChoice[] {
  const choices: ApprovalChoice[] = [{ id: RUN_ONCE, label: 'Run Once' }];
  const { offers } = decision;
  if (offers.subCommands.length > 0) {
    const what = offers.subCommands.length === 1 ? `\`${offers.subCommands[0]} …\`` : `Commands ${offers.subCommands.map((s) => `\`${s} …\``).join(', ')}`;
    for (const [scope, label] of SCOPES) choices.push({ id: `subCommand:${scope}`, label: label(what) });
  }
  if (offers.exactLine) {
    for (const [scope, label] of SCOPES) choices.push({ id: `line:${scope}`, label: label('Exact Command Line') });
  }
  if (offers.allowAll) choices.push({ id: 'all:session', label: 'Allow All Commands in this Session' });
  return choices;
}

/** How long a choice's allow lasts. */
export function scopeOf(choice: string): AllowScope {
  const scope = choice.split(':')[1];
  return scope === 'session' || scope === 'workspace' || scope === 'user' ? scope : 'once';
}

/** The rules a choice adds (undefined for "run once" or a choice not offered). */
export function grantFor(choice: string, decision: SafetyDecision, line: string): Grant | undefined {
  const [what, scope] = choice.split(':') as [string, string | undefined];
  if (scope !== 'session' && scope !== 'workspace' && scope !== 'user') return undefined;
  if (what === 'all' && scope === 'session' && decision.offers.allowAll) return { scope, allowAll: true };
  if (what === 'subCommand' && decision.offers.subCommands.length > 0) {
    return { scope, entries: Object.fromEntries(decision.offers.subCommands.map((key) => [key, true as const])) };
  }
  if (what === 'line' && decision.offers.exactLine) {
    return { scope, entries: { [`/^${escapeRegExp(line.trimStart())}$/`]: { approve: true, matchCommandLine: true } } };
  }
  return undefined;
}

/** The allows each session (an MCP client's connection) was given, until it ends. */
export class SessionApprovalStore {
  private readonly sessions = new Map<string, { entries: Record<string, RuleValue>; allowAll: boolean; rules: RuleSet }>();

  approvals(session: string): SessionApprovals {
    const state = this.sessions.get(session);
    return state ? { rules: state.rules, allowAll: state.allowAll } : { rules: rulesFrom({}, 'session'), allowAll: false };
  }

  grant(session: string, grant: Grant): void {
    const state = this.sessions.get(session) ?? { entries: {}, allowAll: false, rules: rulesFrom({}, 'session') };
    if ('allowAll' in grant) {
      state.allowAll = true;
    } else {
      state.entries = { ...state.entries, ...grant.entries };
      state.rules = rulesFrom(state.entries, 'session');
    }
    this.sessions.set(session, state);
  }

  end(session: string): void {
    this.sessions.delete(session);
  }
}
