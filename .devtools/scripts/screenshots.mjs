#!/usr/bin/env node
// `npm run screenshots`: retakes the pictures of the README and the docs (media/screenshots/*.png) and the Getting
// Started walkthrough's (media/walkthrough/*.png, shipped in the .vsix) on purpose, by running the
// end-to-end suites that take them with TS_UPDATE_SCREENSHOTS=1. `npm test` writes the same
// pictures to test-results/screenshots/ and leaves the tracked tree as it was.
//
//   npm run screenshots                  every picture
//   npm run screenshots -- --grep ui     extra arguments go to `npm test` (here: only suites matching "ui")
//
// Plain Node ESM for Node 20.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The suites that take those pictures (mocha --grep matches their titles). */
const SUITES = ['what a VS Code user sees', "Copilot's first ten minutes", 'without an agent', 'the question in the chat', 'deadline never kills a command'];
const extra = process.argv.slice(2);
const grep = extra.includes('--grep') ? [] : ['--grep', SUITES.join('|')];
const child = spawn(process.execPath, [path.join(repoRoot, '.devtools', 'scripts', 'test.mjs'), '--e2e', ...grep, ...extra], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, TS_UPDATE_SCREENSHOTS: '1' },
});
child.on('exit', (code, signal) => {
  if (code === 0) process.stderr.write(`\n[screenshots] media/screenshots/ updated: review with \`git diff --stat media/screenshots\`, then commit.\n`);
  process.exit(code ?? (signal ? 1 : 0));
});
