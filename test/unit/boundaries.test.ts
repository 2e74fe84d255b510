import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
// @ts-expect-error plain ESM script without types
import { boundaryViolations } from '../../.devtools/scripts/boundaries.mjs';

type Metafile = { inputs: Record<string, { imports: { path: string }[] }> };
const meta = (inputs: Record<string, string[]>): Metafile => ({
  inputs: Object.fromEntries(Object.entries(inputs).map(([file, imports]) => [file, { imports: imports.map((path) => ({ path })) }])),
});

describe('module boundaries', () => {
  it('flags each forbidden import', () => {
    const problems: string[] = boundaryViolations(
      meta({
        'mcp-server/src/tools/x.ts': ['vscode', 'extension/src/core/errors.ts', 'common/src/protocol.ts'],
        'common/src/protocol.ts': ['mcp-server/src/server.ts'],
        'extension/src/core/a.ts': ['vscode', 'extension/src/vscode/settings.ts'],
        'extension/src/bridge/b.ts': ['extension/src/vscode/terminalHost.ts'],
        'extension/src/extension.ts': ['vscode'],
        'extension/src/vscode/settings.ts': ['vscode'],
      }),
    );
    assert.equal(problems.length, 7, problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('mcp-server/src/tools/x.ts imports vscode')));
    assert.ok(problems.some((p) => p.startsWith('extension/src/extension.ts imports vscode at runtime')));
    assert.ok(!problems.some((p) => p.startsWith('extension/src/vscode/settings.ts')));
  });

  it('holds for the real bundles', async () => {
    for (const entry of ['extension/src/extension.ts', 'mcp-server/src/main.ts']) {
      const result = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, external: ['vscode'], logLevel: 'silent' });
      assert.deepEqual(boundaryViolations(result.metafile), [], entry);
    }
  });
});
