/**
 * Command normalisation for the duplicate rule: two command lines that start the same server
 * get the same key. Spelling differences that cannot change what runs are removed (spacing,
 * `npm run-script` / `npm run`, `npm start` / `npm run start`, `yarn run dev` / `yarn dev`,
 * `pnpm run dev` / `pnpm dev`, `python` / `python3`, `./manage.py` / `python manage.py`, a
 * trailing `&` or `;`); anything that can (ports, flags, environment assignments) is kept.
 */

/** Splits on whitespace outside quotes; quotes are kept as written inside a word. */
function words(command: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const ch of command.trim()) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (/\s/.test(ch)) {
      if (current) out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current) out.push(current);
  return out;
}

/** The key two equivalent command lines share. */
export function commandKey(command: string): string {
  let w = words(command.replace(/[\s;&]+$/, ''));
  // Leading environment assignments change what runs; keep them, but compare the rest.
  const env: string[] = [];
  while (w.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]!)) env.push(w.shift()!);
  const [tool, sub, ...rest] = w;
  if (tool === 'npm' && (sub === 'run-script' || sub === 'rum' || sub === 'urn')) w = ['npm', 'run', ...rest];
  if (tool === 'npm' && (sub === 'start' || sub === 'test' || sub === 'stop' || sub === 'restart')) w = ['npm', 'run', sub, ...rest];
  if ((tool === 'yarn' || tool === 'pnpm') && sub === 'run' && rest.length > 0) w = [tool, ...rest];
  if (tool !== undefined && /^python(3(\.\d+)?)?$/.test(tool)) w = ['python', ...w.slice(1)];
  if (w[0] === './manage.py' || w[0] === 'manage.py') w = ['python', 'manage.py', ...w.slice(1)];
  if (w[0] === 'python' && w[1] === './manage.py') w = ['python', 'manage.py', ...w.slice(2)];
  return [...env.sort(), ...w].join(' ');
}
