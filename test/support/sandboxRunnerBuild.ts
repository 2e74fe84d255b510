/** The sandbox runtime's launcher bundled as the extension ships it (dist/sandboxRunner.mjs, its seccomp helper beside it), into a test's own folder. */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

export async function buildSandboxRunner(dir: string): Promise<string> {
  const outfile = path.join(dir, 'sandboxRunner.mjs');
  await esbuild.build({
    entryPoints: [path.resolve(__dirname, '../../extension/src/core/sandbox/sandboxRunner.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const vendor = path.join(path.dirname(createRequire(__filename).resolve('@anthropic-ai/sandbox-runtime/package.json')), 'vendor', 'seccomp', process.arch === 'arm64' ? 'arm64' : 'x64');
  mkdirSync(path.join(dir, 'vendor', 'seccomp', path.basename(vendor)), { recursive: true });
  copyFileSync(path.join(vendor, 'apply-seccomp'), path.join(dir, 'vendor', 'seccomp', path.basename(vendor), 'apply-seccomp'));
  return outfile;
}
