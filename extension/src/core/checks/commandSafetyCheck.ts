/**
 * The per-command safety check: every command line terminal_run types, and every line
 * terminal_input ends at a shell's prompt, is decided as VS Code's run_in_terminal decides it
 * (commandSafety/decide.ts), before anything happens. A line the rules approve passes; any other
 * asks the person, offering VS Code's choices; the floor always asks. The settings are read fresh
 * for every line; the rules are compiled again only when they changed.
 */
import type { Logger } from '../../../../common/src/logger';
import type { CommandSafety } from '../../../../common/src/protocol';
import type { ApprovalOffer, CheckVerdict, CommandCheck } from './commandCheck';
import { RUN_ONCE, choicesFor, grantFor, scopeOf, type Grant, type SessionApprovalStore } from './commandSafety/approvalChoices';
import { buildRules, type RuleSet } from './commandSafety/autoApproveRules';
import { decideLine, type SafetyDecision, type SafetySettings } from './commandSafety/decide';
import type { LineParser } from './commandSafety/lineParser';

export interface CommandSafetyDependencies {
  /** Parses each line within the bound, off the extension host's loop. */
  readonly parser: LineParser;
  readonly settings: () => SafetySettings;
  readonly sessions: SessionApprovalStore;
  /** Stores a workspace or user allow as VS Code does (chat.tools.terminal.autoApprove). */
  readonly keepRules: (grant: Grant & { readonly scope: 'workspace' | 'user' }) => Promise<void>;
  /** The user's home folder (the floor's ~). */
  readonly home: string;
  readonly logger: Logger;
}

export function commandSafetyCheck(deps: CommandSafetyDependencies): CommandCheck {
  let compiled: { key: string; rules: RuleSet } | undefined;
  const rulesFor = (settings: SafetySettings): RuleSet => {
    const key = JSON.stringify([settings.autoApprove, settings.ignoreDefaultAutoApproveRules]);
    if (compiled?.key !== key) compiled = { key, rules: buildRules(settings.autoApprove, settings.ignoreDefaultAutoApproveRules) };
    return compiled.rules;
  };
  return {
    id: 'commandSafety',
    async check(call, caller): Promise<CheckVerdict> {
      const line = call.kind === 'run' ? call.command : call.command?.line;
      const shell = call.kind === 'run' ? call.shell : call.command?.shell;
      if (line === undefined || shell === undefined) return { kind: 'pass' };
      let decision: SafetyDecision;
      try {
        const settings = deps.settings();
        decision = await decideLine(
          { line, powershell: shell.kind === 'pwsh', cwd: call.kind === 'run' ? call.cwd : undefined },
          { parser: deps.parser, settings, rules: rulesFor(settings), session: deps.sessions.approvals(caller.session), home: deps.home },
        );
      } catch (error) {
        // Fail closed: a line that cannot be read is asked about, whatever the settings.
        deps.logger.error(`command safety: could not read \`${line}\``, error);
        const reason = `the command line could not be read (${error instanceof Error ? error.message : String(error)})`;
        return ask(reason, { decision: 'asked', reason, rules: [], floor: true }, true, () => Promise.resolve());
      }
      const safety: CommandSafety = { decision: decision.approved ? 'approved' : 'asked', reason: decision.reason, rules: [...decision.rules], ...(decision.floor ? { floor: true } : {}) };
      if (decision.approved) return { kind: 'pass', safety };
      const offer = choicesFor(decision);
      return ask(decision.reason, safety, decision.floor !== undefined, async (choice) => {
        const grant = choice === RUN_ONCE ? undefined : grantFor(choice, decision, line);
        if (!grant) return;
        if (grant.scope === 'session') deps.sessions.grant(caller.session, grant);
        else await deps.keepRules(grant as Grant & { scope: 'workspace' | 'user' });
      }, offer);
    },
  };
}

function ask(reason: string, safety: CommandSafety, floor: boolean, approved: ApprovalOffer['approved'], choices: ApprovalOffer['choices'] = [{ id: RUN_ONCE, label: 'Run Once' }]): CheckVerdict {
  return { kind: 'ask', reason, offer: { choices, floor, safety, approved, scopeOf } };
}
