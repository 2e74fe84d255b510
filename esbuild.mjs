// Bundles the extension and the stdio MCP server into dist/ and checks the module boundaries
// on the bundles' metafiles, so a forbidden import fails the build, not a later review.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { boundaryViolations } from './.devtools/scripts/boundaries.mjs';
import { writeThirdPartyNotices } from './.devtools/scripts/thirdPartyNotices.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  // web-tree-sitter's ES module finds its .wasm through import.meta.url, which a CommonJS bundle
  // does not have: bundle its CommonJS build (the .wasm path is given at load time anyway).
  alias: { 'web-tree-sitter': createRequire(import.meta.url).resolve('web-tree-sitter') },
};

const bundles = [
  {
    ...common,
    entryPoints: { extension: 'extension/src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    // jsonc-parser's main build is UMD, whose lazy requires a bundler cannot follow; its ES module build bundles.
    alias: { ...common.alias, 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  },
  {
    ...common,
    // The per-command check parses in this worker thread (extension/src/core/checks/commandSafety/lineParser.ts).
    entryPoints: { parseWorker: 'extension/src/core/checks/commandSafety/parseWorker.ts' },
    outdir: 'dist',
  },
  {
    ...common,
    // The sandbox runtime's launcher (extension/src/core/sandbox/sandboxRunner.ts): the runtime is an ES module that finds its seccomp helper through import.meta.url.
    entryPoints: { sandboxRunner: 'extension/src/core/sandbox/sandboxRunner.ts' },
    outdir: 'dist',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  },
  {
    ...common,
    entryPoints: { 'mcp-server': 'mcp-server/src/main.ts' },
    outdir: 'dist',
    // The MCP server reports the extension's version; the extension reads it from its manifest.
    define: { __SHEPHERD_VERSION__: JSON.stringify(version) },
    banner: { js: '#!/usr/bin/env node' },
  },
];

// The per-command safety check parses with VS Code's grammars: the web-tree-sitter runtime's .wasm
// and the bash and PowerShell grammars of @vscode/tree-sitter-wasm, shipped beside the bundle.
const require = createRequire(import.meta.url);
const grammarFiles = {
  'tree-sitter.wasm': require.resolve('web-tree-sitter/tree-sitter.wasm'),
  'tree-sitter-bash.wasm': path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', 'tree-sitter-bash.wasm'),
  'tree-sitter-powershell.wasm': path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', 'tree-sitter-powershell.wasm'),
};
mkdirSync('dist/grammars', { recursive: true });
for (const [name, file] of Object.entries(grammarFiles)) copyFileSync(file, path.join('dist/grammars', name));

// The runtime's seccomp helper (blocks Unix sockets inside the sandbox), where the bundled runtime looks: beside it, under vendor/.
const seccompDir = path.join(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime/package.json')), 'vendor', 'seccomp');
for (const arch of ['x64', 'arm64']) {
  mkdirSync(path.join('dist/vendor/seccomp', arch), { recursive: true });
  copyFileSync(path.join(seccompDir, arch, 'apply-seccomp'), path.join('dist/vendor/seccomp', arch, 'apply-seccomp'));
}

function reportBoundaries(result) {
  const problems = boundaryViolations(result.metafile);
  if (problems.length > 0) {
    throw new Error(`Module boundary violations:\n  ${problems.join('\n  ')}`);
  }
}

if (watch) {
  for (const options of bundles) {
    const ctx = await esbuild.context({
      ...options,
      plugins: [{ name: 'boundaries', setup(build) { build.onEnd((r) => { if (r.metafile) { try { reportBoundaries(r); } catch (e) { console.error(String(e.message)); } } }); } }],
    });
    await ctx.watch();
  }
  console.error('esbuild: watching for changes');
} else {
  const metafiles = [];
  for (const options of bundles) {
    const result = await esbuild.build(options);
    reportBoundaries(result);
    metafiles.push(result.metafile);
  }
  // The licences of what the bundles carry and the copied files came from (legal comments are dropped from the bundles).
  writeThirdPartyNotices({ root: process.cwd(), metafiles, copiedFrom: [...Object.values(grammarFiles), seccompDir], outFile: 'dist/THIRD_PARTY_NOTICES.md' });
}
