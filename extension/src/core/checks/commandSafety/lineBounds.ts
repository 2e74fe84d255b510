/**
 * What is looked at before a line is parsed. A terminal acts on control characters before the
 * shell reads the line (a carriage return ends it early, Ctrl-U erases it, a NUL vanishes so
 * `tr\0uncate` runs `truncate`): the decision would not cover what runs, so such a line always asks.
 * A line too long or too deeply nested to parse within the bound asks unread (fail closed), so no
 * line keeps the extension host busy: these scans are linear and cheap.
 */

/** Lines over 10,000 characters are not parsed (a megabyte line would hold the loop for seconds). */
const MAX_LINE_CHARS = 10_000;
/** Brackets nested deeper than this are not parsed (10,000 nested parentheses overflow the parser's stack). */
export const MAX_NESTING = 100;
/** More sub-commands than this are not matched one by one (each is read against every rule). */
export const MAX_COMMANDS = 64;
/** How long one decision may parse before it gives up and asks (ms). */
export const PARSE_BOUND_MS = 25;

/** C0 controls but tab and newline, DEL and C1 controls: the bytes a terminal or line editor acts on. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

const NAMES: Readonly<Record<number, string>> = { 0: 'NUL', 3: 'Ctrl-C', 4: 'Ctrl-D', 13: 'carriage return', 21: 'Ctrl-U', 27: 'escape', 127: 'DEL' };

/** Why the terminal would run something other than this line (a floor reason), or undefined. */
export function terminalControlReason(line: string): string | undefined {
  const found = CONTROL.exec(line);
  if (!found) return undefined;
  const code = found[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `it holds the control character ${hex}${NAMES[code] ? ` (${NAMES[code]})` : ''}, which the terminal acts on before the shell reads the line, so what runs is not what was checked`;
}

/** Why the line is not parsed at all (it asks unread), or undefined. */
export function unboundedReason(line: string): string | undefined {
  // (No toLocaleString: its first call loads ICU data, tens of milliseconds on the loop.)
  if (line.length > MAX_LINE_CHARS) return 'the line is over 10,000 characters, too long to read within the bound';
  let depth = 0;
  let deepest = 0;
  let separators = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 40 || c === 123 || c === 91) deepest = Math.max(deepest, ++depth); // ( { [
    else if ((c === 41 || c === 125 || c === 93) && depth > 0) depth--;
    else if (c === 59 || c === 124 || c === 38 || c === 10) separators++; // ; | & newline
  }
  if (deepest > MAX_NESTING) return `it nests brackets ${deepest} deep, too deep to read within the bound`;
  return separators > 2 * MAX_COMMANDS ? `it chains more than ${MAX_COMMANDS} commands, too many to read within the bound` : undefined;
}
