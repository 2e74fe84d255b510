/**
 * Runs the checks over a planned call, in order: a refusal or an answer ends the call there; a
 * rewrite plans the call again before the next check sees it; every "ask" is collected into one
 * question to the person once all checks have spoken. Nothing here has a side effect on a
 * terminal: the call runs only after checkCall returned `proceed`.
 */
import type { Logger } from '../../../../common/src/logger';
import type { TerminalRunResult } from '../../../../common/src/protocol';
import { cancelledBeforeStartError, notApprovedError } from '../errors';
import { shellLabel } from '../terminals/shellKind';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion, CheckedCall, CommandCheck } from './commandCheck';

export interface CheckEnvironment<C extends CheckedCall> {
  readonly checks: readonly CommandCheck[];
  /** Who is asked; without one, a question counts as unanswered (nothing runs). */
  readonly approver: ApprovalPort | undefined;
  readonly logger: Logger;
  /** The call planned again with a rewritten command. */
  readonly replan: (call: C, command: string) => Promise<C>;
  /** The caller gave up: a pending question is no longer waited for. */
  readonly signal?: AbortSignal;
}

export type CheckOutcome<C extends CheckedCall> = { readonly kind: 'proceed'; readonly call: C } | { readonly kind: 'answer'; readonly result: TerminalRunResult };

export async function checkCall<C extends CheckedCall>(planned: C, env: CheckEnvironment<C>): Promise<CheckOutcome<C>> {
  let call = planned;
  const reasons: string[] = [];
  for (const check of env.checks) {
    const verdict = await check.check(call);
    switch (verdict.kind) {
      case 'pass':
        break;
      case 'refuse':
        env.logger.info(`check ${check.id} refused \`${commandOf(call)}\` in terminal "${call.terminal}": ${verdict.error.message}`);
        throw verdict.error;
      case 'answer':
        env.logger.info(`check ${check.id} answered \`${commandOf(call)}\` in terminal "${call.terminal}" without running it (${verdict.result.status})`);
        return { kind: 'answer', result: verdict.result };
      case 'rewrite':
        env.logger.info(`check ${check.id} rewrote \`${commandOf(call)}\` to \`${verdict.command}\`: ${verdict.reason}`);
        call = await env.replan(call, verdict.command);
        break;
      case 'ask':
        reasons.push(verdict.reason);
        break;
    }
  }
  if (reasons.length > 0) {
    const question = questionFor(call, reasons);
    const answer = await ask(env, question);
    env.logger.info(`asked whether to run \`${question.command}\` in terminal "${call.terminal}" (${reasons.join('; ')}): ${answer}`);
    if (answer !== 'approved') throw notApprovedError(question.command, answer);
  }
  env.logger.debug(`checks passed (${env.checks.map((c) => c.id).join(', ')}): \`${commandOf(call)}\` in terminal "${call.terminal}"`);
  return { kind: 'proceed', call };
}

/** The command a call would type. */
function commandOf(call: CheckedCall): string {
  return call.kind === 'run' ? call.command : (call.command?.line ?? call.text);
}

function questionFor(call: CheckedCall, reasons: readonly string[]): ApprovalQuestion {
  const shell = call.kind === 'run' ? call.shell : call.command?.shell;
  return {
    command: commandOf(call),
    terminal: call.terminal,
    shell: shell ? shellLabel(shell) : 'the program waiting for input',
    cwd: call.kind === 'run' ? call.cwd : undefined,
    reasons,
  };
}

/** The person's answer, or cancelled when the caller gives up first (the question is then moot). */
async function ask<C extends CheckedCall>(env: CheckEnvironment<C>, question: ApprovalQuestion): Promise<ApprovalAnswer> {
  if (!env.approver) return 'unanswered';
  const { signal } = env;
  if (signal?.aborted) throw cancelledBeforeStartError();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelledBeforeStartError());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([env.approver.ask(question, signal), aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
