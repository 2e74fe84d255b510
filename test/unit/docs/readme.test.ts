/**
 * The README and the pages beside it: the README's tools, statuses and settings blocks are what
 * the code says now (`npm run readme` rewrites them, .devtools/scripts/readmeBlocks.ts renders
 * them), every relative link leads to a file that exists and its #anchor to a heading there, what
 * the README links to ships in the .vsix, and a newcomer finds the two commands that matter.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BLOCK_NAMES, blocksIn, renderBlocks, type Blocks } from '../../../.devtools/scripts/readmeBlocks';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const PAGES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

interface Link {
  readonly target: string;
  readonly image: boolean;
}

/** Relative links and images of a page (Markdown and HTML), without the external ones. */
function relativeLinks(markdown: string): Link[] {
  const text = prose(markdown);
  const links = [
    ...[...text.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ target: m[2]!, image: m[1] === '!' })),
    ...[...text.matchAll(/<(a|img)\s[^>]*(?:href|src)="([^"]+)"/g)].map((m) => ({ target: m[2]!, image: m[1] === 'img' })),
  ];
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

/** The anchors GitHub gives a page's headings: their text (code and link text kept) in lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Whether .vscodeignore's allowlist (`**` first, then `!pattern` lines) lets a file into the .vsix. */
function ships(file: string): boolean {
  const patterns = read('.vscodeignore').split('\n').filter((line) => line.startsWith('!')).map((line) => line.slice(1).trim());
  const toRegExp = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);
  return patterns.some((glob) => toRegExp(glob).test(file));
}

describe('README.md and the pages beside it', () => {
  let rendered: Blocks;
  before(async function () {
    this.timeout(20_000);
    rendered = await renderBlocks();
  });

  for (const name of BLOCK_NAMES) {
    it(`the README's ${name} block is what the code says (npm run readme rewrites it)`, () => {
      assert.equal(blocksIn(read('README.md'))[name], rendered[name], `README.md's ${name} block drifted from the code: run \`npm run readme\``);
    });
  }

  it('every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md leads to a file that exists, and its #anchor to a heading there', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const { target } of relativeLinks(read(page))) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${page}: ${target} (no file ${resolved})`);
        } else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) {
          broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('what the README links to ships in the .vsix, and so does what those pages link to (pictures aside: the details page shows none from the package)', () => {
    const missing: string[] = [];
    const queue = ['README.md'];
    for (const seen = new Set(queue); queue.length > 0; ) {
      const page = queue.shift()!;
      for (const { target, image } of relativeLinks(read(page))) {
        const file = target.split('#')[0]!;
        if (image || file === '') continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
        if (!ships(resolved)) missing.push(`${page} links ${resolved}, which .vscodeignore leaves out`);
        if (resolved.endsWith('.md') && !seen.has(resolved) && existsSync(path.join(root, resolved))) {
          seen.add(resolved);
          queue.push(resolved);
        }
      }
    }
    assert.deepEqual(missing, []);
  });

  it('tells a developer the two commands (npm start, npm test) and where the rest is (CONTRIBUTING.md), in a page of about 200 lines', () => {
    const readme = read('README.md');
    const develop = /^## Develop\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
    assert.match(develop, /\bnpm start\b/, 'the Develop section names npm start');
    assert.match(develop, /\bnpm test\b/, 'the Develop section names npm test');
    assert.ok(relativeLinks(readme).some((l) => l.target.split('#')[0] === 'CONTRIBUTING.md'), 'the README links CONTRIBUTING.md');
    const lines = readme.split('\n').length;
    assert.ok(lines <= 220, `README.md has ${lines} lines: it is a user's page; the rest belongs in docs/ or CONTRIBUTING.md`);
  });
});
