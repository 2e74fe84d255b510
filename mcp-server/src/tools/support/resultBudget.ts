/**
 * A run result's size as a harness that reads both forms counts it, and the cut that keeps a long
 * output's result within its client's byte budget (bridge/clientResultBudgets.ts).
 *
 * GitHub Copilot's runtime (VS Code's agent host harness at 8 KiB, the Copilot CLI at 20 KiB)
 * moves a tool result past its limit, the text then the structured content as JSON, UTF-8, into a
 * file, and the model gets a 500-character preview (docs/clients.md, "Results over 8 KB"). The
 * client's output limit keeps an ASCII output's result well under that; an output of two- or
 * three-byte characters can still pass it, so a result whose output the window already cut (its
 * head and tail, the whole in the log file) at no more than the client's limit is cut further, in
 * bytes. An output cut at a larger limit the person set is left as it is, and so is one that was
 * not cut.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../../../common/src/protocol';
import type { ResultBudget } from '../../bridge/clientResultBudgets';

/** The result as the agent host's harness forwards and measures it: the text, a blank line, the structured content. */
export function forwardedBytes(result: CallToolResult): number {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const structured = result.structuredContent === undefined ? '' : `\n\n${JSON.stringify(result.structuredContent)}`;
  return Buffer.byteLength(text, 'utf8') + Buffer.byteLength(structured, 'utf8');
}

/**
 * The window's marker between a cut output's head and tail (extension/src/core/output/truncatedText.ts):
 * `[... 1,234 characters (56 lines) omitted; full output in <file> ...]`.
 */
const MARKER = /\[\.\.\. ([\d,]+) characters \(([\d,]+) lines\) omitted(.*) \.\.\.\]\n/;

/** What one character adds to the result: its UTF-8 bytes in the text, and again escaped in the JSON. */
const cost = (ch: string): number => Buffer.byteLength(ch, 'utf8') + Buffer.byteLength(JSON.stringify(ch), 'utf8') - 2;
const count = (n: number): string => n.toLocaleString('en-US');
const newlines = (text: string): number => text.split('\n').length - 1;
const number = (counted: string): number => Number(counted.replace(/,/g, ''));

/**
 * `result` with `excessBytes` fewer bytes of output (a few more: the marker's counts grow), taken
 * from the end of its head and the start of its tail, at line breaks where one is near; the
 * marker says what was left out. Unchanged when the output was not cut, was cut at a limit above
 * the client's, or has no marker to count on.
 */
export function fitRunResult(result: TerminalRunResult, excessBytes: number, budget: Pick<ResultBudget, 'outputLimitChars'>): TerminalRunResult {
  if (excessBytes <= 0 || result.truncated !== true || result.output.length > budget.outputLimitChars) return result;
  const marker = MARKER.exec(result.output);
  if (!marker) return result;
  // Code points, so a cut never splits a surrogate pair. The line break before the marker may be
  // the window's (added when its head ended within a line): not counted as the head's.
  const head = Array.from(result.output.slice(0, Math.max(0, marker.index - 1)));
  const tail = Array.from(result.output.slice(marker.index + marker[0].length));
  // Room for the counts growing by a few digits.
  let left = excessBytes + 16;
  let fromHead = 0;
  let fromTail = 0;
  while (left > 0 && fromHead + fromTail < head.length + tail.length) {
    // Alternate, so head and tail shrink alike.
    const takeHead = (fromHead <= fromTail && fromHead < head.length) || fromTail >= tail.length;
    left -= cost(takeHead ? head[head.length - 1 - fromHead++]! : tail[fromTail++]!);
  }
  // Ending at a line break is worth a little more of the cut (lines can be long: not much).
  const slack = 80;
  const headEnd = head.length - fromHead;
  const lastBreak = fromHead > 0 && headEnd > 0 ? head.lastIndexOf('\n', headEnd - 1) : -1;
  const keptHead = head.slice(0, lastBreak >= 0 && headEnd - lastBreak <= slack ? lastBreak + 1 : headEnd).join('');
  const nextBreak = fromTail > 0 ? tail.indexOf('\n', fromTail - 1) : -1;
  const keptTail = tail.slice(nextBreak >= 0 && nextBreak + 1 - fromTail <= slack ? nextBreak + 1 : fromTail).join('');
  // The counts as the window makes them (truncatedText.ts): characters not shown, and line breaks
  // not shown less the head's last line when only part of it is.
  const [wasHead, wasTail] = [head.join(''), tail.join('')];
  const chars = number(marker[1]!) + wasHead.length + wasTail.length - keptHead.length - keptTail.length;
  const breaks = number(marker[2]!) + 1 + newlines(wasHead) + newlines(wasTail) - newlines(keptHead) - newlines(keptTail);
  const lines = breaks - (keptHead.length > 0 && !keptHead.endsWith('\n') && breaks > 0 ? 1 : 0);
  const separator = keptHead.length === 0 || keptHead.endsWith('\n') ? '' : '\n';
  const output = `${keptHead}${separator}[... ${count(chars)} characters (${count(lines)} lines) omitted${marker[3]} ...]\n${keptTail}`;
  return { ...result, output };
}
