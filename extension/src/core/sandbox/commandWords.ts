/**
 * The programs a command line calls, by name, for the sandbox's per-tool allow-lists: the first
 * word of every simple command (after `;`, `&&`, `||`, `|`, `&`, `(`, `$(`, a backtick, `then`,
 * `do`, ...), past variable assignments, `sudo`/`env`/`exec`-style prefixes and paths. A word
 * misread here only opens or keeps closed a tool cache; the sandbox itself does not read the line.
 */

const SEPARATORS = /&&|\|\||[;|&()\n`]|\$\(/;
const PREFIXES = new Set(['sudo', 'env', 'exec', 'command', 'time', 'nice', 'nohup', 'then', 'do', 'else', 'if', 'while', 'until', '!', '{']);

export function commandWords(line: string): string[] {
  const words = new Set<string>();
  for (const part of line.split(SEPARATORS)) {
    const tokens = part.trim().split(/\s+/).filter((t) => t.length > 0);
    const first = tokens.find((token) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(token) && !PREFIXES.has(token) && !token.startsWith('-'));
    if (!first) continue;
    const name = first.replace(/^["']|["']$/g, '').split('/').pop() ?? '';
    if (/^[A-Za-z0-9._+-]+$/.test(name)) words.add(name);
  }
  return [...words];
}
