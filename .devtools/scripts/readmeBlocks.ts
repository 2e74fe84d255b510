/**
 * The README's generated blocks, rendered from the code they describe, so the page cannot drift
 * from it (as playwright-mcp's update-readme.js does for its tools): the tools as an MCP client
 * lists them, the statuses from the tool guide, the settings from the settings table. Each block
 * sits between `<!-- BEGIN GENERATED: name -->` and `<!-- END GENERATED: name -->`.
 * `npm run readme` (readme.mjs) writes them; test/unit/docs/readme.test.ts fails when they differ.
 */
import { silentLogger } from '../../common/src/logger';
import { SETTINGS_SECTION, settingsTable, type SettingSpec } from '../../common/src/settings';
import { connectInProcess } from '../../mcp-server/src/inProcess';
import { ALL_RUN_STATUSES, runStatusGuide } from '../../mcp-server/src/tools/support/toolGuide';

export const BLOCK_NAMES = ['tools', 'statuses', 'settings'] as const;
type BlockName = (typeof BLOCK_NAMES)[number];
export type Blocks = Record<BlockName, string>;

const begin = (name: BlockName): string => `<!-- BEGIN GENERATED: ${name} -->`;
const end = (name: BlockName): string => `<!-- END GENERATED: ${name} -->`;

/** A table cell: no line breaks, and a pipe would end the cell. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** A description's first sentence: up to the first full stop before a word (not before a quote, as in `e.g. "npm run dev"`), or its first line. */
function firstSentence(description: string): string {
  const line = description.split('\n')[0]!.trim();
  return /^(.*?\.)\s+[A-Za-z]/.exec(line)?.[1] ?? line;
}

interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly properties?: Record<string, unknown>; readonly required?: string[] };
}

/** The tools as an MCP client lists them: createServer() over the SDK's in-memory transport, no window needed. */
async function listTools(): Promise<ListedTool[]> {
  const session = await connectInProcess({ version: 'readme', logger: silentLogger }, { name: 'readme', version: '0' });
  try {
    return (await session.client.listTools()).tools;
  } finally {
    await session.close();
  }
}

function renderTools(tools: readonly ListedTool[]): string {
  const rows = tools.map((tool) => {
    const required = new Set(tool.inputSchema.required ?? []);
    const params = Object.keys(tool.inputSchema.properties ?? {}).map((p) => (required.has(p) ? p : `${p}?`));
    return `| \`${tool.name}\` \`{${params.join(', ')}}\` | ${cell(firstSentence(tool.description ?? ''))} |`;
  });
  return ['| tool | what it does |', '|---|---|', ...rows].join('\n');
}

function renderStatuses(): string {
  const rows = ALL_RUN_STATUSES.map((status) => {
    const { means, next } = runStatusGuide[status];
    return `| \`${status}\` | ${cell(means)} | ${cell(next)} |`;
  });
  return ['| status | means | next call |', '|---|---|---|', ...rows].join('\n');
}

/** A setting's default as a person types it, with the range or values it may take. */
function renderDefault(spec: SettingSpec): string {
  const value = `\`${JSON.stringify(spec.default)}\``;
  return spec.type === 'number' ? `${value} (${spec.minimum}–${spec.maximum})` : value;
}

/** The description VS Code's Settings editor shows, in plain Markdown (`#key#` there is a link to another setting). */
function renderDescription(spec: SettingSpec): string {
  const text = spec.markdownDescription.replace(/`#([\w.]+)#`/g, '`$1`');
  if (!('enum' in spec)) return text;
  if (!spec.enumDescriptions) return `${text} Values: ${spec.enum.map((value) => `\`${value}\``).join(', ')}.`;
  // Each value's description is a sentence of its own.
  const values = spec.enum.map((value, i) => `\`${value}\`: ${sentence(spec.enumDescriptions?.[i] ?? '')}`);
  return `${text} Values: ${values.join(' ')}`;
}

/** Text that ends as a sentence does. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function renderSettings(): string {
  const rows = Object.entries(settingsTable).map(
    ([key, spec]: [string, SettingSpec]) => `| \`${SETTINGS_SECTION}.${key}\` | ${renderDefault(spec)} | ${cell(renderDescription(spec))} |`,
  );
  return ['| setting | default | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** Every block as the code says it now. */
export async function renderBlocks(): Promise<Blocks> {
  return { tools: renderTools(await listTools()), statuses: renderStatuses(), settings: renderSettings() };
}

/** Where a block's content starts and ends in the text; throws when its markers are missing or out of order. */
function span(text: string, name: BlockName): { readonly from: number; readonly to: number } {
  const open = text.indexOf(begin(name));
  const close = text.indexOf(end(name));
  if (open < 0 || close < open) throw new Error(`README.md has no "${begin(name)}" ... "${end(name)}" block`);
  return { from: open + begin(name).length, to: close };
}

/** The blocks as the text holds them now (trimmed). */
export function blocksIn(text: string): Blocks {
  const read = (name: BlockName): string => {
    const { from, to } = span(text, name);
    return text.slice(from, to).trim();
  };
  return { tools: read('tools'), statuses: read('statuses'), settings: read('settings') };
}

/** The text with each block's content replaced (a blank line on either side, as Markdown needs around a table). */
export function withBlocks(text: string, blocks: Blocks): string {
  let out = text;
  for (const name of BLOCK_NAMES) {
    const { from, to } = span(out, name);
    out = `${out.slice(0, from)}\n\n${blocks[name]}\n\n${out.slice(to)}`;
  }
  return out;
}
