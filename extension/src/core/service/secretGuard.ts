/**
 * The service's part in keeping secrets from the model: every result and progress line redacted
 * under the call's settings, and a prompt for a secret handed to the person (secretQuestion.ts:
 * the client's elicitation or the window's notification) or, under VS Code's global auto-approve where nobody would see it,
 * cancelled with Ctrl+C as VS Code's own terminal tool does.
 */
import type { TerminalRunResult } from '../../../../common/src/protocol';
import { ShepherdError } from '../errors';
import type { CommandRun, RunProgress } from '../run/commandRun';
import type { Redactor } from '../secrets/redaction';
import { redactResult } from '../secrets/resultRedaction';
import { terminalReadsSecret } from '../secrets/ttyEcho';
import type { ShepherdSettings } from '../settings';
import type { CallOptions } from './callContext';
import { runResult } from './runResult';
import { sensitiveCancelledMessage, sensitivePromptMessage } from './runMessages';
import type { TerminalSession } from '../terminals/terminalSession';
import type { SecretPrompt } from './secretQuestion';

/** Bound on the wait for the shell to report the end after the Ctrl+C of an auto-cancel. */
const CANCEL_WAIT_MS = 3000;

/** What a call returns as the model may read it: its result redacted (with its terminal's redactor), and an expected failure's message too (it quotes the command). */
export async function redactedCall(call: Promise<TerminalRunResult>, redactorOf: (terminal: string | undefined) => Redactor): Promise<TerminalRunResult> {
  try {
    const result = await call;
    return redactResult(result, redactorOf(result.name));
  } catch (error) {
    if (!(error instanceof ShepherdError)) throw error;
    const { text, count } = redactorOf(undefined).redact(error.message);
    throw count > 0 ? new ShepherdError(error.code, text) : error;
  }
}

/** The call's options with its progress lines redacted (by the redactor of the terminal the call names). */
export function redactedProgress(options: CallOptions, redactor: Redactor): CallOptions {
  const { onProgress } = options;
  if (!onProgress) return options;
  return { ...options, onProgress: (progress: RunProgress) => onProgress({ ...progress, lastLine: redactor.redact(progress.lastLine).text }) };
}

/** Waits at prompts found secret by the terminal's echo (their wording named nothing): terminal_input refuses them too. */
const echoOffWaits = new WeakSet<object>();

/** Whether the run's present wait was found to read a secret with the terminal's echo off (ttyEcho.ts). */
export function isEchoOffWait(run: Pick<CommandRun, 'state'>): boolean {
  return echoOffWaits.has(run.state);
}

/**
 * A result at a prompt for a secret (by its wording, or by the terminal's echo being off while a
 * line is read): under global auto-approve the command is cancelled (Ctrl+C, a bounded wait for
 * its end) and the result says why; otherwise `tell` hands it to the person.
 */
export async function guardSecretPrompt(
  found: TerminalRunResult,
  { session, run }: { readonly session: TerminalSession; readonly run: CommandRun },
  settings: ShepherdSettings,
  tell: (prompt: SecretPrompt) => void,
  readsSecret: (shellPid: number | undefined) => Promise<boolean> = terminalReadsSecret,
): Promise<TerminalRunResult> {
  let result = found;
  if (!result.sensitive && result.status === 'waiting_for_input' && run.active && (await readsSecret(session.shellPid))) {
    echoOffWaits.add(run.state);
    result = { ...result, sensitive: true, message: sensitivePromptMessage(session.name) };
  }
  if (!result.sensitive || !run.active) return result;
  if (!settings.globalAutoApprove) {
    tell({ runId: run.id, terminal: session.name, command: run.command, prompt: result.prompt ?? '' });
    return result;
  }
  if (!session.closed) {
    session.interrupt();
    await run.wait({ timeoutMs: CANCEL_WAIT_MS, stopAtInput: false });
  }
  return runResult(run, 'cancelled', { note: sensitiveCancelledMessage(session.name) });
}
