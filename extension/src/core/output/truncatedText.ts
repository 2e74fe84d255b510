/**
 * The text of an output over the limit: its head and its tail, cut at a line break where one is
 * near, around one marker line that says how much was left out and where the whole output is.
 * The result never exceeds the limit.
 */
import { countNewlines, type BoundedOutput } from './boundedOutput';

/** Where the whole output was saved, or why it could not be. */
export interface SavedOutput {
  readonly file: string | undefined;
  readonly error: string | undefined;
}

export function truncatedText(output: BoundedOutput, screen: string, saved: SavedOutput): string {
  const total = output.length(screen);
  const marker = (chars: number, lines: number): string => {
    const where = saved.file
      ? `; full output in ${saved.file}`
      : saved.error !== undefined
        ? `; full output could not be saved (${saved.error})`
        : '';
    return `[... ${formatCount(chars)} characters (${formatCount(lines)} lines) omitted${where} ...]`;
  };
  // Budget with the widest the marker can get, so the result never exceeds the limit.
  const budget = Math.max(0, output.limit - marker(total, output.lines(screen)).length - 2);
  const headBudget = Math.floor(budget / 2);
  const tailBudget = budget - headBudget;

  // Ending at a line break is worth a little room, not much (lines can be very long).
  const slack = Math.max(80, Math.floor(budget * 0.05));

  // Head: the first characters of stream + screen (one more to see what follows).
  let headSource = output.head.slice(0, headBudget + 1);
  if (output.finishedChars < headBudget + 1 && screen.length > 0) {
    headSource += screen.slice(0, headBudget + 1 - output.finishedChars);
  }
  let head = headSource.slice(0, headBudget);
  if (!head.endsWith('\n') && headSource.charCodeAt(headBudget) !== 0x0a) {
    const lastBreak = head.lastIndexOf('\n');
    if (lastBreak >= 0 && lastBreak >= head.length - 1 - slack) {
      head = head.slice(0, lastBreak + 1);
    }
  }

  // Tail: the last characters, moved to the next line start if one is near.
  const tailSource = output.tailEnd(screen) + screen;
  let tailStart = Math.max(0, tailSource.length - tailBudget);
  if (tailStart > 0 && tailSource.charCodeAt(tailStart - 1) !== 0x0a) {
    const nextBreak = tailSource.indexOf('\n', tailStart);
    if (nextBreak >= 0 && nextBreak - tailStart <= slack) {
      tailStart = nextBreak + 1;
    }
  }
  const tail = tailSource.slice(tailStart);

  // Omitted lines are those not shown at all: a line cut at the end of the head is partly shown.
  const omittedChars = Math.max(0, total - head.length - tail.length);
  const omittedBreaks = output.newlines(screen) - countNewlines(head) - countNewlines(tail);
  const partialHeadLine = head.length > 0 && !head.endsWith('\n') && omittedBreaks > 0 ? 1 : 0;
  const omittedLines = Math.max(0, omittedBreaks - partialHeadLine);
  return `${head}${head.length === 0 || head.endsWith('\n') ? '' : '\n'}${marker(omittedChars, omittedLines)}\n${tail}`;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
