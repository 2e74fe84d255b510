/**
 * Stack detection on fixture workspaces (test/fixtures/stacks/, one folder per stack of the
 * table, a pnpm monorepo and a Django project among them), copied to a temp dir so the folders the
 * scan must skip (node_modules, .git, dist) can be added without committing them; plus the scan's
 * bounds and the cached analysis with its invalidation.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceAnalysis } from '../../../common/src/protocol';
import { analyzeWorkspace, defaultDetectOptions, isInIgnoredFolder, runScript, type DetectOptions } from '../../../extension/src/core/stacks/detectStacks';
import { DETECTION_FILE_NAMES, isDevScript, STACKS } from '../../../extension/src/core/stacks/stackTable';
import { describeAnalysis, WorkspaceStacks } from '../../../extension/src/core/stacks/workspaceStacks';
import { collectingLogger } from '../../support/collectingLogger';
import { TempDirs } from '../../support/tempDirs';
import { waitFor } from '../processes/helpers';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'stacks');
const linux: DetectOptions = { ...defaultDetectOptions, platform: 'linux' };

/** Projects as `path: stacks (manager) [commands]` lines, easy to compare whole. */
function summary(a: WorkspaceAnalysis): string[] {
  return a.projects.map((p) => `${p.path}: ${p.stacks.join(', ')}${p.packageManager ? ` (${p.packageManager})` : ''} [${p.devCommands.map((c) => c.command).join('; ')}]`);
}

describe('stack detection (blueprint Phase 4)', () => {
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  function copyFixture(name: string): string {
    const dir = path.join(dirs.make('stacks-'), name);
    cpSync(path.join(FIXTURES, name), dir, { recursive: true });
    return dir;
  }

  it('finds every stack of the table in its fixture, with the dev-server commands each defines', async () => {
    const a = await analyzeWorkspace([FIXTURES], linux);
    assert.deepEqual(a.detectedStacks, STACKS.map((s) => s.name), 'every stack of the table is covered by a fixture');
    assert.deepEqual(summary(a), [
      'bun-app: Node.js, Bun (bun) [bun run dev]',
      'compose-stack: Docker Compose [docker compose up]',
      'declared-pnpm: Node.js, pnpm (pnpm) [pnpm serve]',
      'deno-app: Deno [deno task dev]',
      'django-site: Python, Django [python3 manage.py runserver]',
      'go-svc: Go []',
      'node-npm: Node.js, npm, TypeScript (npm) [npm run dev; npm start]',
      'pnpm-monorepo: Node.js, pnpm (pnpm) []',
      'pnpm-monorepo/apps/docs: Node.js, pnpm (pnpm) [pnpm docs]',
      'pnpm-monorepo/packages/api: Node.js, pnpm, TypeScript (pnpm) [pnpm start:api; pnpm watch]',
      'pnpm-monorepo/packages/web: Node.js, pnpm (pnpm) [pnpm dev; pnpm preview]',
      'python-lib: Python []',
      'rails-app: Ruby, Rails [bin/rails server]',
      'rust-app: Rust []',
      'yarn-next: Node.js, Yarn (yarn) [yarn dev; yarn start]',
    ]);
    assert.equal(a.truncated, false);
    assert.ok(a.expectedProcesses.includes('pnpm') && a.expectedProcesses.includes('cargo') && a.expectedProcesses.includes('python'));
  });

  it('a pnpm monorepo: the packages inherit pnpm from the root lockfile; commands run in their package', async () => {
    const root = copyFixture('pnpm-monorepo');
    const a = await analyzeWorkspace([root], linux);
    assert.equal(a.projectRoot, root);
    assert.deepEqual(a.detectedStacks, ['Node.js', 'pnpm', 'TypeScript']);
    assert.deepEqual(
      a.devCommands.find((c) => c.command === 'pnpm dev'),
      { command: 'pnpm dev', cwd: 'packages/web', source: 'package.json script "dev": vite --port 5173' },
    );
    assert.ok(!a.devCommands.some((c) => /build|compile|check|lint/.test(c.command)), 'builds are not dev servers');
  });

  it('a Python project with manage.py is Django, run with python3 (python on Windows)', async () => {
    const root = copyFixture('django-site');
    const a = await analyzeWorkspace([root], linux);
    assert.deepEqual(summary(a), ['.: Python, Django [python3 manage.py runserver]']);
    assert.deepEqual(a.devCommands[0], { command: 'python3 manage.py runserver', cwd: '.', source: 'manage.py (Django)' });
    const windows = await analyzeWorkspace([root], { ...linux, platform: 'win32' });
    assert.equal(windows.devCommands[0]!.command, 'python manage.py runserver');
  });

  it('skips node_modules, .git, build output and virtual environments', async () => {
    const root = copyFixture('node-npm');
    for (const skipped of ['node_modules/vite', '.git/modules/x', 'dist/server', 'build', '.venv/lib', '__pycache__', 'target/debug', 'coverage']) {
      mkdirSync(path.join(root, skipped), { recursive: true });
      writeFileSync(path.join(root, skipped, 'package.json'), JSON.stringify({ scripts: { dev: 'vite' } }));
      writeFileSync(path.join(root, skipped, 'Cargo.toml'), '[package]\n');
    }
    const a = await analyzeWorkspace([root], linux);
    assert.deepEqual(summary(a), ['.: Node.js, npm, TypeScript (npm) [npm run dev; npm start]']);
    assert.ok(isInIgnoredFolder('node_modules/vite/package.json') && isInIgnoredFolder('a/.git/HEAD') && !isInIgnoredFolder('packages/web/package.json'));
  });

  it('is bounded in depth, in folders read and in time, and says when it stopped early', async () => {
    const root = dirs.make('stacks-deep-');
    let deep = root;
    for (let i = 1; i <= 8; i++) {
      deep = path.join(deep, `level${i}`);
      mkdirSync(deep);
      writeFileSync(path.join(deep, 'go.mod'), `module l${i}\n`);
    }
    const shallow = await analyzeWorkspace([root], { ...linux, maxDepth: 3 });
    assert.deepEqual(shallow.projects.map((p) => p.path), ['level1', 'level1/level2', 'level1/level2/level3']);
    assert.equal(shallow.truncated, false, 'the depth bound is the documented reach, not a truncation');
    const few = await analyzeWorkspace([root], { ...linux, maxFolders: 2 });
    assert.equal(few.truncated, true);
    assert.deepEqual(few.projects.map((p) => p.path), ['level1']);
    const noTime = await analyzeWorkspace([root], { ...linux, timeBudgetMs: 0 });
    assert.equal(noTime.truncated, true);
  });

  it('multi-root: every folder is scanned; paths outside the first folder are absolute', async () => {
    const first = copyFixture('go-svc');
    const second = copyFixture('rust-app');
    const a = await analyzeWorkspace([first, second], linux);
    assert.deepEqual(a.projects.map((p) => [p.path, p.stacks]), [
      ['.', ['Go']],
      [second, ['Rust']],
    ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    assert.equal(a.projectRoot, first);
  });

  it('reads what it can: a broken package.json still marks Node.js; an empty workspace has no stack', async () => {
    const root = dirs.make('stacks-broken-');
    writeFileSync(path.join(root, 'package.json'), '{ "scripts": { "dev": ');
    const a = await analyzeWorkspace([root], linux);
    assert.deepEqual(summary(a), ['.: Node.js (npm) []']);
    const empty = await analyzeWorkspace([dirs.make('stacks-empty-')], linux);
    assert.deepEqual(empty.detectedStacks, []);
    assert.match(describeAnalysis(empty), /^stacks: no known stack; scanned in [\d.]+ ms$/);
  });

  it('dev scripts: by name (dev, start, serve, watch, preview) or by what they run; builds and tests are not', () => {
    const yes: [string, string][] = [['dev', 'vite'], ['start', 'node server.js'], ['serve', 'http-server'], ['dev:web', 'next dev'], ['watch', 'tsc --watch'], ['anything', 'react-scripts start'], ['x', 'tsx watch src/index.ts'], ['x', 'nodemon app.js'], ['x', 'vite --host']];
    const no: [string, string][] = [['build', 'vite build'], ['start', 'tsc -p .'], ['test', 'vitest run'], ['lint', 'eslint .'], ['x', 'parcel build index.html'], ['start', 'node scripts/build.js']];
    for (const [name, body] of yes) assert.equal(isDevScript(name, body), true, `${name}: ${body}`);
    for (const [name, body] of no) assert.equal(isDevScript(name, body), false, `${name}: ${body}`);
    assert.deepEqual(['npm', 'pnpm', 'yarn', 'bun'].map((m) => runScript(m, 'dev')), ['npm run dev', 'pnpm dev', 'yarn dev', 'bun run dev']);
    assert.equal(runScript('npm', 'start'), 'npm start');
  });

  describe('the cached analysis (WorkspaceStacks)', () => {
    it('is computed once, logged, and served from memory until a relevant file changes', async () => {
      const root = copyFixture('node-npm');
      const logger = collectingLogger();
      const stacks = new WorkspaceStacks({ roots: () => [root], logger, debounceMs: 20, detect: { platform: 'linux' } });
      try {
        const first = await stacks.analysis();
        assert.ok(first);
        assert.equal(await stacks.analysis(), first, 'the same object from memory');
        assert.ok(logger.has('info', /^stacks: Node\.js, npm, TypeScript in 1 project\(s\) \(\.\); dev servers: `npm run dev`, `npm start`; scanned in [\d.]+ ms$/));
        stacks.invalidate(path.join(root, 'src', 'main.ts'));
        stacks.invalidate(path.join(root, 'node_modules', 'x', 'package.json'));
        stacks.invalidate('/elsewhere/package.json');
        assert.equal(stacks.peek(), first, 'changes that cannot matter keep the cache');
        mkdirSync(path.join(root, 'api'));
        writeFileSync(path.join(root, 'api', 'manage.py'), '');
        const changed = new Promise<WorkspaceAnalysis>((resolve) => stacks.onDidChange(resolve));
        stacks.invalidate(path.join(root, 'api', 'manage.py'));
        assert.equal(stacks.peek(), undefined);
        const next = await changed; // refreshed on its own after the debounce
        assert.deepEqual(next.projects.map((p) => p.path), ['.', 'api']);
        assert.equal(await stacks.analysis(), next);
        rmSync(path.join(root, 'api'), { recursive: true });
        stacks.invalidate(path.join(root, 'api'));
        await waitFor('the refresh after the folder went', async () => (await stacks.analysis())?.projects.length === 1);
      } finally {
        stacks.dispose();
      }
    });

    it('no folder: no analysis; the watcher filter knows every detection file', async () => {
      const stacks = new WorkspaceStacks({ roots: () => [], logger: collectingLogger() });
      assert.equal(await stacks.analysis(), undefined);
      stacks.dispose();
      for (const name of ['package.json', 'pnpm-lock.yaml', 'bun.lockb', 'deno.json', 'Cargo.toml', 'pyproject.toml', 'requirements.txt', 'manage.py', 'go.mod', 'tsconfig.json', 'Gemfile', 'rails', 'docker-compose.yml']) {
        assert.ok(DETECTION_FILE_NAMES.has(name), name);
      }
    });
  });
});
