/**
 * A tool result as the model may read it: every text a terminal printed (output, prompt, the
 * earlier run's tail, the message quoting it) and the command lines (which may carry a token the
 * model was given) go through the redactor, and the result says how many secrets it replaced.
 */
import type { TerminalRunResult } from '../../../../common/src/protocol';
import type { Redactor } from './redaction';

export function redactResult(result: TerminalRunResult, redactor: Pick<Redactor, 'redact'>): TerminalRunResult {
  let count = 0;
  const clean = (text: string): string => {
    const redacted = redactor.redact(text);
    count += redacted.count;
    return redacted.text;
  };
  const out: TerminalRunResult = { ...result, output: clean(result.output) };
  if (result.prompt !== undefined) out.prompt = clean(result.prompt);
  if (result.message !== undefined) out.message = clean(result.message);
  if (result.command !== undefined) out.command = clean(result.command);
  if (result.previous) out.previous = { ...result.previous, output: clean(result.previous.output), command: clean(result.previous.command) };
  if (result.server) out.server = { ...result.server, command: clean(result.server.command) };
  const total = count + (result.redacted ?? 0);
  if (total > 0) out.redacted = total;
  return out;
}
