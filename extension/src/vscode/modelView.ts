/**
 * A tool result as a model gets it, for a person to read ("Run a Command…"): the call, the
 * structured content (what VS Code's invokeTool and Claude Code hand the model) and the text
 * content (what a client that reads only text blocks hands it), each verbatim in its own block.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A fence longer than any run of backticks in the text, so the block cannot end early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

function block(language: string, text: string): string {
  const f = fence(text);
  return `${f}${language}\n${text}\n${f}`;
}

/** The first line of the text content: status, exit code, duration (or the error's name). */
export function resultHeadline(result: CallToolResult): string {
  const first = result.content.find((c) => c.type === 'text');
  return first?.type === 'text' ? (first.text.split('\n', 1)[0] ?? '') : result.isError ? 'failed' : '';
}

export function renderModelView(tool: string, args: Record<string, unknown>, result: CallToolResult, preface?: string): string {
  const texts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [`(${c.type} content)`]));
  const parts = [
    `# ${tool} ${JSON.stringify(args)}`,
    '',
    ...(preface ? [preface, ''] : []),
    'What a model gets for this call: the tool result exactly as the Terminal Shepherd MCP server returned it.',
    '',
  ];
  if (result.isError) parts.push('The call failed (`isError: true`): the model reads the text below.', '');
  if (result.structuredContent !== undefined) {
    parts.push('## Structured content', '', 'VS Code (Copilot agent mode) and Claude Code hand the model this JSON.', '', block('json', JSON.stringify(result.structuredContent, null, 2)), '');
  }
  parts.push('## Text content', '', result.structuredContent !== undefined ? 'Clients that read only text blocks hand the model this.' : 'The model reads this.', '', block('text', texts.join('\n')), '');
  return parts.join('\n');
}
