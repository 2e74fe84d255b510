// Shared by `npm run bench` and `npm run soak`: installs what is missing (npm dependencies, the
// build; the real VS Code is installed by the entry on first use), then runs a TypeScript entry
// with the command line's extra arguments.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function run(command, args) {
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: repoRoot });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

export function buildAndRun(entry) {
  if (!existsSync(path.join(repoRoot, 'node_modules', '.package-lock.json'))) run('npm', ['ci']);
  run(process.execPath, ['esbuild.mjs']);
  run(process.execPath, ['--import', 'tsx', entry, ...process.argv.slice(2)]);
}
