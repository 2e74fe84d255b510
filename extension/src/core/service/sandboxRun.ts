/**
 * terminal_run in the sandbox: whether the call's command runs in it (and can: a refusal is the
 * call's error, nothing typed), what it was denied, and, after a denial, the question VS Code asks
 * ("Run `…` command outside the sandbox?", or in it with the network) through the same question
 * flow as the checks, only where VS Code's settings allow the question at all. And, as VS Code's
 * chat.agent.sandbox.allowAutoApprove does, no question for a command that runs in its sandbox.
 */
import type { CommandSafety, SandboxReport, TerminalRunResult } from '../../../../common/src/protocol';
import type { CheckVerdict, CommandCheck } from '../checks/commandCheck';
import { UNREAD } from '../checks/commandSafety/decide';
import { sandboxMode, VSCODE_SANDBOX_SETTING, type CommandSandbox, type PreparedSandbox } from '../sandbox/commandSandbox';
import { sandboxDenials } from '../sandbox/sandboxDenials';
import type { ShepherdSettings } from '../settings';

/** The command's sandbox, undefined when it runs as typed; throws (nothing typed) when it should run in one that cannot run here. */
export async function sandboxFor(sandbox: CommandSandbox | undefined, command: string, settings: ShepherdSettings, safety: CommandSafety | undefined, platform: NodeJS.Platform): Promise<PreparedSandbox | undefined> {
  const mode = sandboxMode(settings, platform, safety);
  if (!mode) return undefined;
  if (!sandbox) throw new Error('the sandbox is on but this window has none');
  return sandbox.prepare(command, mode, settings.vscodeSandbox);
}

const SANDBOX_AUTO_APPROVE_SETTING = 'chat.agent.sandbox.allowAutoApprove';

/**
 * The checks a terminal_run line goes through. VS Code 1.139's run_in_terminal confirms nothing
 * when its sandbox is on, the line is wrapped in it, no network retry is to be confirmed and
 * chat.agent.sandbox.allowAutoApprove is true: its rules' question falls away. So here, once the
 * sandbox is known to run here (else the call fails before any question, as VS Code checks first):
 * the safety check's question becomes an approval that names the setting. The floor, and a line
 * too long or slow to read, still ask (stricter than VS Code, never looser); so does every other check.
 */
export async function sandboxChecks(sandbox: CommandSandbox | undefined, command: string, settings: ShepherdSettings, platform: NodeJS.Platform, checks: readonly CommandCheck[]): Promise<readonly CommandCheck[]> {
  if (sandboxMode(settings, platform, undefined) !== 'vscode' || !settings.vscodeSandbox.allowAutoApprove) return checks;
  await sandboxFor(sandbox, command, settings, undefined, platform);
  return checks.map((check) => ({ id: check.id, check: async (call, caller) => approvedInSandbox(await check.check(call, caller)) }));
}

function approvedInSandbox(verdict: CheckVerdict): CheckVerdict {
  const offer = verdict.kind === 'ask' ? verdict.offer : undefined;
  // A line never read was never checked against the floor: it asks, as it does with every other setting.
  if (!offer || offer.floor || offer.safety.reason.startsWith(UNREAD)) return verdict;
  const { safety } = offer;
  const reason = `it runs in VS Code's terminal sandbox, and ${SANDBOX_AUTO_APPROVE_SETTING} approves sandboxed commands (the rules alone would have asked: ${safety.reason})`;
  return { kind: 'pass', safety: { ...safety, decision: 'approved', reason, rules: [...safety.rules, SANDBOX_AUTO_APPROVE_SETTING] } };
}

/** What the result says of the sandbox: its mode and network, and what the output shows it denied. */
export function sandboxReport(result: TerminalRunResult, prepared: PreparedSandbox): SandboxReport {
  const denied = sandboxDenials(result.output, !prepared.network);
  return { mode: prepared.mode, network: prepared.network, ...(denied ? { denied: { paths: [...denied.paths], network: denied.network, hosts: [...denied.hosts] } } : {}) };
}

/** The retry a denial may be offered, or why none is. */
export type LeaveOffer = { readonly kind: 'ask'; readonly as: 'outside' | 'network'; readonly check: CommandCheck } | { readonly kind: 'none'; readonly note: string | undefined };

export function leaveOffer(command: string, report: SandboxReport, settings: ShepherdSettings): LeaveOffer {
  const denied = report.denied;
  if (!denied) return { kind: 'none', note: undefined };
  const vscode = settings.vscodeSandbox;
  const what = [...denied.paths, ...(denied.network ? [denied.hosts.length > 0 ? `the network (${denied.hosts.join(', ')})` : 'the network'] : [])].join(', ');
  const origin = report.mode === 'vscode' ? `VS Code's terminal sandbox (${VSCODE_SANDBOX_SETTING})` : 'the sandbox Terminal Shepherd runs auto-approved lines in';
  // Only the network was denied: the file-system rules can stay, as VS Code retries.
  if (denied.paths.length === 0 && denied.network && vscode.retryWithAllowNetworkRequests) {
    const reason = `${origin} denied it ${what}: Retry \`${command}\` command in the sandbox by allowing network access?`;
    return { kind: 'ask', as: 'network', check: askOnce('sandboxNetwork', reason) };
  }
  // Our own confinement always lets the person decide; VS Code's only where its setting allows.
  if (report.mode === 'confined' || vscode.allowUnsandboxedCommands) {
    const reason = `${origin} denied it ${what}: Run \`${command}\` command outside the sandbox?`;
    return { kind: 'ask', as: 'outside', check: askOnce('sandboxOutside', reason) };
  }
  return {
    kind: 'none',
    note: `The sandbox denied it ${what}. Running commands outside the sandbox is disabled by chat.agent.sandbox.allowUnsandboxedCommands: change the command so it stays in the workspace, or ask the user.`,
  };
}

/** The note a result carries about its denial and the answer to the question. */
export function deniedNote(report: SandboxReport): string | undefined {
  if (!report.denied) return undefined;
  const retry = report.retry;
  if (retry?.answer === 'approved') return retry.as === 'outside' ? 'It was denied in the sandbox; the user approved running it outside the sandbox, and this is that run.' : 'It was denied the network in the sandbox; the user approved running it again with network access, and this is that run.';
  const declined = retry ? ` The user ${retry.answer === 'declined' ? 'declined' : 'did not answer'} running it ${retry.as === 'outside' ? 'outside the sandbox' : 'with network access'}; nothing else ran. Do not retry it outside the sandbox: change the command, or ask the user.` : '';
  return `The sandbox denied it (see sandbox.denied).${declined}`;
}

function askOnce(id: string, reason: string): CommandCheck {
  return { id, check: () => ({ kind: 'ask', reason }) };
}
