/**
 * Puts Terminal Shepherd's entry into a client's configuration text and nothing else: other
 * servers, settings, comments and formatting stay as they were. The entry itself is ours and is
 * replaced whole. A file that cannot be read as its format is refused with a ConfigEditError
 * (the caller shows the entry to add by hand), never overwritten.
 *   - JSON and JSON with comments (jsonc-parser's edits, as VS Code edits settings.json);
 *   - TOML (Codex): our [table] and its sub-tables swapped as lines;
 *   - a YAML block file of our own (Continue), written whole.
 */
import { applyEdits, modify, parse, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';

export class ConfigEditError extends Error {
  override readonly name = 'ConfigEditError';
}

/** The indentation the file already uses (tabs, or the smallest run of leading spaces), 2 spaces when it has none. */
export function detectIndent(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (/^\t/m.test(text)) return { insertSpaces: false, tabSize: 1, eol };
  const sizes = [...text.matchAll(/^( +)\S/gm)].map((m) => m[1]!.length);
  return { insertSpaces: true, tabSize: sizes.length > 0 ? Math.min(...sizes) : 2, eol };
}

/** Sets `keyPath` to `value` in a JSON (or JSONC) text; an empty text starts a new object. */
export function setJsonValue(text: string, keyPath: readonly string[], value: unknown): string {
  const source = text.trim().length === 0 ? '{}' : text;
  const errors: ParseError[] = [];
  const root: unknown = parse(source, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = source.slice(0, first.offset).split('\n').length;
    throw new ConfigEditError(`it is not valid JSON (${printParseErrorCode(first.error)} on line ${line})`);
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new ConfigEditError('its top level is not a JSON object');
  }
  // Each parent on the way must be an object: replacing a string or an array there would lose it.
  let node: unknown = root;
  for (const key of keyPath.slice(0, -1)) {
    node = (node as Record<string, unknown>)[key];
    if (node === undefined) break;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      throw new ConfigEditError(`"${key}" in it is not an object`);
    }
  }
  const formattingOptions = detectIndent(source);
  const edited = applyEdits(source, modify(source, [...keyPath], value, { formattingOptions }));
  return edited.endsWith('\n') || text.trim().length > 0 ? edited : `${edited}\n`;
}

/** The value at `keyPath` of a JSON text, or undefined (also for unreadable text). */
export function getJsonValue(text: string, keyPath: readonly string[]): unknown {
  const errors: ParseError[] = [];
  let node: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return undefined;
  for (const key of keyPath) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// TOML

/** A TOML key path split at dots outside quotes, quotes removed ("a"."b.c" -> [a, b.c]). */
export function splitTomlKey(key: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"' && i + 1 < key.length) current += key[++i];
      else if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '.') {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

/** A TOML value from JSON-like data: strings, numbers, booleans, arrays of them, flat objects as inline tables. */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value); // a JSON string is a valid TOML basic string
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`).join(', ')} }`;
  }
  throw new ConfigEditError(`cannot write ${String(value)} as TOML`);
}

const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

const HEADER = /^\s*\[(?!\[)\s*([^\]]+?)\s*\]\s*(?:#.*)?$/;
const startsWith = (path: readonly string[], prefix: readonly string[]): boolean => prefix.every((p, i) => path[i] === p);

/**
 * Sets the table at `tablePath` (e.g. mcp_servers.terminal-shepherd) to `entries` in a TOML text:
 * the table and its sub-tables are replaced where they stood (appended when absent); an inline
 * or dotted definition of the same key is removed; every other line stays as it was.
 */
export function setTomlTable(text: string, tablePath: readonly string[], entries: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.length > 0 ? text.replace(/\r?\n$/, '').split(/\r?\n/) : [];
  const kept: string[] = [];
  let section: string[] = [];
  let ours = false;
  let insertAt: number | undefined;
  let removedAssignmentAt: number | undefined;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      section = splitTomlKey(header[1]!);
      ours = startsWith(section, tablePath);
      if (ours) {
        insertAt ??= kept.length;
        continue;
      }
    } else if (ours) {
      continue;
    } else {
      // `name = {...}` under [parent], or `parent.name... = ` in a section above it.
      const assignment = /^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=/.exec(line);
      if (assignment && startsWith([...section, ...splitTomlKey(assignment[1]!)], tablePath)) {
        // The table goes before the next header: lines after this one still belong to their section.
        removedAssignmentAt ??= kept.length;
        continue;
      }
    }
    kept.push(line);
  }
  if (insertAt === undefined && removedAssignmentAt !== undefined) {
    const next = kept.findIndex((line, i) => i >= removedAssignmentAt! && HEADER.test(line));
    if (next !== -1) insertAt = next;
  }
  // A table removed from the middle leaves its blank separator; the new one takes its place.
  const block = [`[${tablePath.map(tomlKey).join('.')}]`, ...Object.entries(entries).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)];
  if (insertAt === undefined || insertAt >= kept.length) {
    while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
    const out = kept.length > 0 ? [...kept, '', ...block] : block;
    return `${out.join(eol)}${eol}`;
  }
  // Where the old definition stood, before what followed it (a blank line keeps tables apart).
  const out = [...kept.slice(0, insertAt), ...block, ...(kept[insertAt]?.trim() === '' ? [] : ['']), ...kept.slice(insertAt)];
  return `${out.join(eol)}${eol}`;
}

// ---------------------------------------------------------------------------------------------
// YAML block file (Continue)

/** A YAML block file of one MCP server (Continue's `.continue/mcpServers/<name>.yaml`). JSON strings are valid YAML scalars. */
export function yamlServerBlock(title: string, version: string, server: { name: string; command: string; args: readonly string[] }): string {
  return [
    `# ${title}'s MCP server, written by its "Connect an MCP Client" command; run it again to update this file.`,
    `name: ${JSON.stringify(title)}`,
    `version: ${JSON.stringify(version)}`,
    'schema: v1',
    'mcpServers:',
    `  - name: ${JSON.stringify(server.name)}`,
    `    command: ${JSON.stringify(server.command)}`,
    `    args: [${server.args.map((a) => JSON.stringify(a)).join(', ')}]`,
    '',
  ].join('\n');
}
