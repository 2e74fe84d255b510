/**
 * Shell-integration markers (OSC 633 and 133): what each one says, how a marker's body reads, and
 * the names shared by the code that makes a shell emit them (terminals/commandText.ts) and the code
 * that reads them out of the output (oscParser.ts, promptEchoFilter.ts).
 */

/** The OSC 633 property through which a command reports its real exit code (PowerShell: shell/pwshCommon.ps1). */
export const EXIT_CODE_PROPERTY = 'TshepExitCode';
/** The OSC 633 property saying where the exit code came from (shell, native, inferred: protocol/runResult.ts exitCodeSourceSchema). */
export const EXIT_SOURCE_PROPERTY = 'TshepExitSource';

/**
 * The OSC 633 property through which PowerShell reports the screen when a command starts:
 * `row,col,cols,rows`, the cursor 0-based (outputStart.ts parseScreenReport, shell/pwshCommon.ps1).
 */
export const SCREEN_PROPERTY = 'TshepScreen';

/** Which integration emitted a marker, by its OSC number: VS Code's own (633) or FinalTerm-compatible (133). */
export type ShellMarkerSource = '633' | '133';

export type ShellMarker =
  | { readonly kind: 'promptStart'; readonly source: ShellMarkerSource }
  /** B: the prompt ended, the user's command input starts. */
  | { readonly kind: 'commandStart'; readonly source: ShellMarkerSource }
  /** C: the command line was accepted and now runs; its output follows. */
  | { readonly kind: 'commandExecuted'; readonly source: ShellMarkerSource }
  /** D: the command finished; exitCode is absent when the shell reported none. */
  | { readonly kind: 'commandFinished'; readonly source: ShellMarkerSource; readonly exitCode?: number }
  /** 633 E: the command line as the shell saw it (unescaped), with VS Code's nonce if sent. */
  | { readonly kind: 'commandLine'; readonly source: '633'; readonly value: string; readonly nonce?: string }
  | { readonly kind: 'continuationStart' | 'continuationEnd' | 'rightPromptStart' | 'rightPromptEnd'; readonly source: '633' }
  /** 633 P: a property such as Cwd=/home/me or IsWindows=True (unescaped). */
  | { readonly kind: 'property'; readonly source: '633'; readonly key: string; readonly value: string }
  /** Any other 633/133 command (SetMark, EnvJson, 133;L ...), kept raw. */
  | { readonly kind: 'other'; readonly source: ShellMarkerSource; readonly code: string; readonly args: readonly string[] };

/** A marker plus its position in the `data` of the parse call that returned it. */
export type PositionedShellMarker = ShellMarker & { readonly offset: number };

/** Parses the body of a 633/133 OSC ("633;D;0"); undefined for a body without a command. */
export function parseMarkerBody(body: string): ShellMarker | undefined {
  const source: ShellMarkerSource | undefined = body.startsWith('633;')
    ? '633'
    : body.startsWith('133;')
      ? '133'
      : undefined;
  if (!source) {
    return undefined;
  }
  const parts = body.slice(4).split(';');
  const code = parts[0] ?? '';
  const args = parts.slice(1);
  if (code === '') {
    return undefined;
  }
  switch (code) {
    case 'A':
      return { kind: 'promptStart', source };
    case 'B':
      return { kind: 'commandStart', source };
    case 'C':
      return { kind: 'commandExecuted', source };
    case 'D': {
      const exitCode = parseExitCode(args[0]);
      return exitCode === undefined ? { kind: 'commandFinished', source } : { kind: 'commandFinished', source, exitCode };
    }
    default:
      break;
  }
  if (source === '633') {
    switch (code) {
      case 'E': {
        const value = unescapeOscValue(args[0] ?? '');
        const nonce = args[1];
        return nonce === undefined
          ? { kind: 'commandLine', source, value }
          : { kind: 'commandLine', source, value, nonce };
      }
      case 'F':
        return { kind: 'continuationStart', source };
      case 'G':
        return { kind: 'continuationEnd', source };
      case 'H':
        return { kind: 'rightPromptStart', source };
      case 'I':
        return { kind: 'rightPromptEnd', source };
      case 'P': {
        const assignment = unescapeOscValue(args[0] ?? '');
        const eq = assignment.indexOf('=');
        return eq < 0
          ? { kind: 'property', source, key: assignment, value: '' }
          : { kind: 'property', source, key: assignment.slice(0, eq), value: assignment.slice(eq + 1) };
      }
      default:
        break;
    }
  }
  return { kind: 'other', source, code, args };
}

function parseExitCode(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d{1,10}$/.test(text)) {
    return undefined;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reverses VS Code's OSC 633 value escaping: `\\` is a backslash and `\xAB` the byte 0xAB (the
 * scripts escape `;`, `\` and control characters this way). Runs of escaped bytes that form valid
 * UTF-8 are decoded as UTF-8 (some scripts escape non-ASCII bytes too); otherwise each byte is
 * taken as a Latin-1 character, as VS Code does. Anything else, including a malformed escape,
 * stays literal.
 */
export function unescapeOscValue(value: string): string {
  if (!value.includes('\\')) {
    return value;
  }
  let result = '';
  let i = 0;
  const n = value.length;
  while (i < n) {
    const slash = value.indexOf('\\', i);
    if (slash < 0) {
      result += value.slice(i);
      break;
    }
    result += value.slice(i, slash);
    i = slash;
    // Collect a run of consecutive \xHH escapes so multi-byte UTF-8 sequences decode together.
    const bytes: number[] = [];
    while (i + 3 < n && value[i] === '\\' && (value[i + 1] === 'x' || value[i + 1] === 'X')) {
      const hex = value.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
        break;
      }
      bytes.push(parseInt(hex, 16));
      i += 4;
    }
    if (bytes.length > 0) {
      result += decodeBytes(bytes);
      continue;
    }
    if (value[i + 1] === '\\') {
      result += '\\';
      i += 2;
    } else {
      result += '\\';
      i += 1;
    }
  }
  return result;
}

function decodeBytes(bytes: number[]): string {
  if (bytes.every((b) => b < 0x80)) {
    return String.fromCharCode(...bytes);
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return String.fromCharCode(...bytes);
  }
}
