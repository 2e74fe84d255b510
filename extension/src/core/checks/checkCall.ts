/**
 * Runs the checks over a planned call, in order: a refusal or an answer ends the call there; a
 * rewrite plans the call again before the next check sees it; every "ask" is collected into one
 * question to the person once all checks have spoken, waited for within a bound. Declined,
 * dismissed or unanswered, the call is answered `not_approved` and nothing is typed. Nothing here
 * has a side effect on a terminal: the call runs only after checkCall returned `proceed`.
 */
import { formatDuration } from '../../../../common/src/format';
import type { Logger } from '../../../../common/src/logger';
import type { AgentSession, CommandSafety, TerminalRunResult } from '../../../../common/src/protocol';
import { cancelledBeforeStartError } from '../errors';
import { shellLabel } from '../terminals/shellKind';
import type { ApprovalAnswer, ApprovalOffer, ApprovalPort, ApprovalQuestion, Caller, CheckedCall, CommandCheck } from './commandCheck';

/** What the checks read of a call's context (service/callContext.ts builds it once per call). */
export interface CheckContext {
  readonly checks: readonly CommandCheck[];
  /** Who is asked; without one, a question counts as unanswered (nothing runs). */
  readonly approver: ApprovalPort | undefined;
  readonly logger: Logger;
  /** The caller gave up: a pending question is no longer waited for. */
  readonly signal: AbortSignal | undefined;
  readonly caller: Caller;
  /** How long a question waits for an answer. */
  readonly answerTimeoutMs: number;
  /** Every decision the safety check made, for the process log. */
  readonly audit: ((record: DecisionRecord) => void) | undefined;
}

/** The call planned again with a rewritten command. */
export type Replan<C extends CheckedCall> = (call: C, command: string) => Promise<C>;

/** One decision as the process log keeps it. */
export interface DecisionRecord {
  readonly terminal: string;
  readonly command: string;
  readonly shell: string;
  readonly cwd: string | undefined;
  readonly safety: CommandSafety;
  /** The agent session whose call it was (added by the call's context). */
  readonly agentSession?: AgentSession;
}

export type CheckOutcome<C extends CheckedCall> =
  | { readonly kind: 'proceed'; readonly call: C; readonly safety?: CommandSafety }
  | { readonly kind: 'answer'; readonly result: TerminalRunResult };

/** How long a question waits for the person's answer, unless the window says otherwise. */
export const ANSWER_TIMEOUT_MS = 5 * 60_000;

export async function checkCall<C extends CheckedCall>(planned: C, env: CheckContext, replan: Replan<C>): Promise<CheckOutcome<C>> {
  let call = planned;
  const reasons: string[] = [];
  const offers: ApprovalOffer[] = [];
  let safety: CommandSafety | undefined;
  for (const check of env.checks) {
    const verdict = await check.check(call, env.caller);
    switch (verdict.kind) {
      case 'pass':
        safety = verdict.safety ?? safety;
        break;
      case 'refuse':
        env.logger.info(`check ${check.id} refused \`${commandOf(call)}\` in terminal "${call.terminal}": ${verdict.error.message}`);
        throw verdict.error;
      case 'answer':
        env.logger.info(`check ${check.id} answered \`${commandOf(call)}\` in terminal "${call.terminal}" without running it (${verdict.result.status})`);
        return { kind: 'answer', result: verdict.result };
      case 'rewrite':
        env.logger.info(`check ${check.id} rewrote \`${commandOf(call)}\` to \`${verdict.command}\`: ${verdict.reason}`);
        call = await replan(call, verdict.command);
        break;
      case 'ask':
        reasons.push(verdict.reason);
        if (verdict.offer) offers.push(verdict.offer);
        break;
    }
  }
  if (reasons.length === 0) {
    if (safety) record(env, call, safety, `${safety.reason}`);
    env.logger.debug(`checks passed (${env.checks.map((c) => c.id).join(', ')}): \`${commandOf(call)}\` in terminal "${call.terminal}"`);
    return { kind: 'proceed', call, ...(safety ? { safety } : {}) };
  }
  const question = questionFor(call, reasons, offers);
  const answer = await ask(env, question);
  const offer = offers[0];
  const answered: CommandSafety | undefined = offer && {
    ...offer.safety,
    answer: answer.kind === 'approved' ? answer.choice : answer.kind,
    ...(answer.kind === 'approved' ? { scope: offer.scopeOf(answer.choice) } : {}),
    ...(env.approver ? { via: env.approver.via } : {}),
  };
  const summary = `asked whether to run \`${question.command}\` in terminal "${call.terminal}" (${reasons.join('; ')}): ${answer.kind === 'approved' ? `approved (${answer.choice})` : answer.kind}`;
  if (answered) record(env, call, answered, summary);
  else env.logger.info(summary);
  if (answer.kind !== 'approved') return { kind: 'answer', result: notApprovedResult(call, question, answer.kind, env.answerTimeoutMs, answered) };
  for (const offer of offers) {
    await offer.approved(answer.choice).catch((error: unknown) => env.logger.warn(`could not keep the allow "${answer.choice}" for later commands`, error));
  }
  return { kind: 'proceed', call, ...(answered ? { safety: answered } : {}) };
}

/** The command a call would type. */
function commandOf(call: CheckedCall): string {
  return call.kind === 'run' ? call.command : (call.command?.line ?? call.text);
}

function shellOf(call: CheckedCall): string {
  const shell = call.kind === 'run' ? call.shell : call.command?.shell;
  return shell ? shellLabel(shell) : 'the program waiting for input';
}

function record(env: CheckContext, call: CheckedCall, safety: CommandSafety, summary: string): void {
  env.logger.info(`command safety: \`${commandOf(call)}\` in terminal "${call.terminal}": ${safety.decision === 'approved' ? `runs, ${summary}` : summary}`);
  env.audit?.({ terminal: call.terminal, command: commandOf(call), shell: shellOf(call), cwd: call.kind === 'run' ? call.cwd : undefined, safety });
}

function questionFor(call: CheckedCall, reasons: readonly string[], offers: readonly ApprovalOffer[]): ApprovalQuestion {
  const floor = offers.some((o) => o.floor);
  return {
    command: commandOf(call),
    terminal: call.terminal,
    shell: shellOf(call),
    cwd: call.kind === 'run' ? call.cwd : undefined,
    reasons,
    choices: floor ? [{ id: 'once', label: 'Run Once' }] : (offers.find((o) => o.choices.length > 0)?.choices ?? [{ id: 'once', label: 'Run Once' }]),
    floor,
  };
}

/** The call's result when the person did not approve: nothing was typed, and the model is told not to retry. */
function notApprovedResult(call: CheckedCall, question: ApprovalQuestion, answer: 'declined' | 'unanswered', timeoutMs: number, safety: CommandSafety | undefined): TerminalRunResult {
  const what = answer === 'declined' ? 'The user declined to run' : `The user did not answer within ${formatDuration(timeoutMs)} whether to run`;
  return {
    status: 'not_approved',
    output: '',
    name: call.terminal,
    command: question.command,
    durationMs: 0,
    strategy: call.strategy,
    message: `${what} \`${question.command}\` (asked because ${question.reasons.join('; ')}); nothing was typed. Do not retry it: ask the user what to do instead, or choose another command.`,
    ...(safety ? { safety } : {}),
  };
}

/** The person's answer within the bound; cancelled when the caller gives up first (the question is then moot). */
async function ask(env: CheckContext, question: ApprovalQuestion): Promise<ApprovalAnswer> {
  if (!env.approver) return { kind: 'unanswered' };
  const { signal } = env;
  if (signal?.aborted) throw cancelledBeforeStartError();
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), env.answerTimeoutMs);
  const onCallerGone = (): void => stop.abort();
  signal?.addEventListener('abort', onCallerGone, { once: true });
  const stopped = new Promise<ApprovalAnswer>((resolve) => stop.signal.addEventListener('abort', () => resolve({ kind: 'unanswered' }), { once: true }));
  try {
    const asked = env.approver.ask(question, stop.signal).catch((error: unknown): ApprovalAnswer => {
      env.logger.warn('the question could not be asked; nothing runs', error);
      return { kind: 'unanswered' };
    });
    const answer = await Promise.race([asked, stopped]);
    if (signal?.aborted) throw cancelledBeforeStartError();
    return answer;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerGone);
    // An approver still showing the question takes it down.
    stop.abort();
  }
}
