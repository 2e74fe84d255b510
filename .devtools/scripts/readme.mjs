#!/usr/bin/env node
// `npm run readme`: rewrites the README's generated blocks (tools, statuses, settings) from the code
// they describe (readmeBlocks.ts). Run it after changing a tool's description, the tool guide or the
// settings table; test/unit/docs/readme.test.ts fails until the README matches.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The renderer is TypeScript (it imports the MCP server and the settings table); tsx, a devDependency, loads it.
const { tsImport } = await import('tsx/esm/api');
const { renderBlocks, withBlocks } = await tsImport(pathToFileURL(path.join(repoRoot, '.devtools', 'scripts', 'readmeBlocks.ts')).href, import.meta.url);

const file = path.join(repoRoot, 'README.md');
const before = readFileSync(file, 'utf8');
const after = withBlocks(before, await renderBlocks());
if (after === before) {
  console.log('README.md: the generated blocks already match the code');
} else {
  writeFileSync(file, after);
  console.log('README.md: generated blocks rewritten from the code; review with `git diff README.md`');
}
