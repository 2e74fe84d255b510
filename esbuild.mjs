// Bundles the extension and the stdio MCP server into dist/ and checks the module boundaries
// on the bundles' metafiles, so a forbidden import fails the build, not a later review.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { boundaryViolations } from './.devtools/scripts/boundaries.mjs';

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
};

const bundles = [
  {
    ...common,
    entryPoints: { extension: 'extension/src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    // jsonc-parser's main build is UMD, whose lazy requires a bundler cannot follow; its ES module build bundles.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
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
  for (const options of bundles) {
    reportBoundaries(await esbuild.build(options));
  }
}
