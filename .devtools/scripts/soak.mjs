#!/usr/bin/env node
// `npm run soak`: installs what is missing (npm dependencies, the build, the real VS Code), then
// runs the reliability suite at full size and prints its table (test/soak/run.ts has the options).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (command, args) => {
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: repoRoot });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync(path.join(repoRoot, 'node_modules', '.package-lock.json'))) run('npm', ['ci']);
run(process.execPath, ['esbuild.mjs']);
run(process.execPath, ['--import', 'tsx', 'test/soak/run.ts', ...process.argv.slice(2)]);
