/**
 * A test project whose npm dependencies (real tools, such as vitest and jest) come from the npm
 * registry: installed once into a cache under .vscode-test/ (as code-server is, under the same kind
 * of lock, keyed by the fixture's package.json so a version bump installs again), never committed.
 * Each test copies the project's own files into its workspace and links node_modules to the cache.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findRepoRoot, withLock } from '../../.devtools/scripts/installSteps';

const INSTALL_TIMEOUT_MS = 10 * 60_000;

export interface NpmFixture {
  /** Where its node_modules live. */
  readonly cacheDir: string;
  /** Copies the project into `dest` (created) with node_modules linked to the cache. */
  copyInto(dest: string): void;
}

export async function npmFixture(name: string, log: (m: string) => void = (m) => process.stderr.write(`[npm-fixture] ${m}\n`)): Promise<NpmFixture> {
  const repoRoot = findRepoRoot();
  const source = path.join(repoRoot, 'test', 'fixtures', name);
  const manifest = fs.readFileSync(path.join(source, 'package.json'), 'utf8');
  const key = createHash('sha256').update(manifest).digest('hex').slice(0, 12);
  const cacheDir = path.join(repoRoot, '.vscode-test', 'npm-fixtures', `${name}-${key}`);
  const marker = path.join(cacheDir, '.installed');
  if (!fs.existsSync(marker)) {
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
    await withLock(`${cacheDir}.lock`, INSTALL_TIMEOUT_MS, log, async () => {
      if (fs.existsSync(marker)) return; // another run finished it meanwhile
      fs.rmSync(cacheDir, { recursive: true, force: true });
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(path.join(cacheDir, 'package.json'), manifest);
      log(`installing ${name}'s dependencies from the npm registry into ${cacheDir}`);
      const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: cacheDir,
        encoding: 'utf8',
        timeout: INSTALL_TIMEOUT_MS,
      });
      if (npm.status !== 0) throw new Error(`npm install for the ${name} fixture failed (exit ${npm.status ?? npm.signal}):\n${npm.stderr}`);
      fs.writeFileSync(marker, new Date().toISOString());
    });
  }
  return {
    cacheDir,
    copyInto(dest) {
      fs.cpSync(source, dest, { recursive: true });
      fs.symlinkSync(path.join(cacheDir, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
    },
  };
}
