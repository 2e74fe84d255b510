import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
// @ts-expect-error plain ESM script without types
import { boundaryViolations, floorViolations, importCircles, mcpFloorViolations } from '../../.devtools/scripts/boundaries.mjs';

type Metafile = { inputs: Record<string, { imports: { path: string }[] }> };
const meta = (inputs: Record<string, string[]>): Metafile => ({
  inputs: Object.fromEntries(Object.entries(inputs).map(([file, imports]) => [file, { imports: imports.map((path) => ({ path })) }])),
});

describe('module boundaries', () => {
  it('flags each forbidden import', () => {
    const problems: string[] = boundaryViolations(
      meta({
        'mcp-server/src/tools/x.ts': ['vscode', 'extension/src/core/errors.ts', 'common/src/protocol/index.ts'],
        'common/src/protocol/index.ts': ['mcp-server/src/server.ts'],
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

  it('flags a lower floor of core importing a higher one, type-only imports included', () => {
    const problems: string[] = floorViolations([
      { file: 'extension/src/core/run/commandRun.ts', imports: ['extension/src/core/output/runOutput.ts', 'extension/src/core/events.ts'] },
      { file: 'extension/src/core/output/outputCapture.ts', imports: ['extension/src/core/run/runOutput.ts'] },
      { file: 'extension/src/core/checks/x.ts', imports: ['extension/src/core/service/runPlan.ts'] },
      { file: 'extension/src/core/events.ts', imports: ['extension/src/core/terminals/terminalPort.ts'] },
      { file: 'extension/src/core/servers/x.ts', imports: ['extension/src/bridge/handlers.ts'] },
      { file: 'extension/src/vscode/x.ts', imports: ['extension/src/bridge/bridgeServer.ts', 'extension/src/core/service/terminalService.ts'] },
    ]);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['extension/src/core/output/outputCapture.ts imports extension/src/core/run/runOutput.ts', 'extension/src/core/checks/x.ts imports extension/src/core/service/runPlan.ts', 'extension/src/core/events.ts imports extension/src/core/terminals/terminalPort.ts', 'extension/src/core/servers/x.ts imports extension/src/bridge/handlers.ts', 'extension/src/vscode/x.ts imports extension/src/bridge/bridgeServer.ts'],
    );
  });

  it('keeps clients/ (MCP clients\' set-up) over core/, under vscode/ and beside bridge/, free of VS Code also through a bundle', () => {
    const problems: string[] = floorViolations([
      { file: 'extension/src/clients/connect.ts', imports: ['extension/src/core/fsUtil.ts', 'extension/src/vscode/settings.ts', 'extension/src/bridge/bridgeServer.ts', 'extension/src/extension.ts'] },
      { file: 'extension/src/core/service/x.ts', imports: ['extension/src/clients/connect.ts'] },
      { file: 'extension/src/vscode/connectClient.ts', imports: ['extension/src/clients/connect.ts'] },
    ]);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      [
        'extension/src/clients/connect.ts imports extension/src/vscode/settings.ts',
        'extension/src/clients/connect.ts imports extension/src/bridge/bridgeServer.ts',
        'extension/src/clients/connect.ts imports extension/src/extension.ts',
        'extension/src/core/service/x.ts imports extension/src/clients/connect.ts',
      ],
    );
    const bundled: string[] = boundaryViolations(meta({ 'extension/src/clients/c.ts': ['extension/src/vscode/settings.ts', 'extension/src/core/fsUtil.ts'] }));
    assert.deepEqual(bundled.map((p) => p.split(':')[0]), ['extension/src/clients/c.ts imports extension/src/vscode/settings.ts']);
  });

  it('the floors hold for the sources', () => {
    const sources = readSources('extension/src');
    assert.ok(sources.length > 100, `read ${sources.length} files`);
    assert.deepEqual(floorViolations(sources), []);
  });

  it('flags a lower floor of the MCP server importing a higher one, and any extension import of it but the in-process one', () => {
    const problems: string[] = mcpFloorViolations([
      { file: 'mcp-server/src/tools/support/runTool.ts', imports: ['mcp-server/src/bridge/bridgeClient.ts', 'mcp-server/src/tools/support/toolContext.ts', 'common/src/protocol/index.ts'] },
      { file: 'mcp-server/src/bridge/bridgeClient.ts', imports: ['mcp-server/src/tools/support/toolContext.ts'] },
      { file: 'mcp-server/src/tools/support/toolResult.ts', imports: ['mcp-server/src/tools/terminalRun.ts'] },
      { file: 'mcp-server/src/tools/terminalRun.ts', imports: ['mcp-server/src/server.ts', 'mcp-server/src/tools/support/runTool.ts'] },
      { file: 'mcp-server/src/resources/x.ts', imports: ['mcp-server/src/bridge/bridgeClient.ts'] },
      { file: 'extension/src/extension.ts', imports: ['mcp-server/src/inProcess.ts', 'mcp-server/src/bridge/clientDeadlines.ts'] },
      { file: 'extension/src/vscode/runCommand.ts', imports: ['mcp-server/src/inProcess.ts'] },
      { file: 'extension/src/core/service/x.ts', imports: ['mcp-server/src/inProcess.ts'] },
    ]);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      [
        'mcp-server/src/bridge/bridgeClient.ts imports mcp-server/src/tools/support/toolContext.ts',
        'mcp-server/src/tools/support/toolResult.ts imports mcp-server/src/tools/terminalRun.ts',
        'mcp-server/src/tools/terminalRun.ts imports mcp-server/src/server.ts',
        'mcp-server/src/resources/x.ts',
        'extension/src/extension.ts imports mcp-server/src/bridge/clientDeadlines.ts',
        'extension/src/core/service/x.ts imports mcp-server/src/inProcess.ts',
      ],
    );
  });

  it("the MCP server's floors and the extension's in-process exception hold for the sources", () => {
    const sources = readSources('mcp-server/src', 'extension/src');
    assert.ok(sources.some((s) => s.file === 'mcp-server/src/tools/support/toolContext.ts'), 'read the MCP server');
    assert.deepEqual(mcpFloorViolations(sources), []);
  });

  it('finds an import circle, type-only imports included, and names the files on it', () => {
    const circles: string[][] = importCircles([
      { file: 'a.ts', imports: ['b.ts', 'common/x.ts'] },
      { file: 'b.ts', imports: ['c.ts'] },
      { file: 'c.ts', imports: ['a.ts', 'd.ts'] },
      { file: 'd.ts', imports: [] },
      { file: 'e.ts', imports: ['e.ts'] },
      { file: 'f.ts', imports: ['d.ts', 'a.ts'] },
    ]);
    assert.deepEqual(
      circles.map((c) => c.join(' → ')).sort(),
      ['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts'],
    );
  });

  it('no import circle anywhere in extension/src, mcp-server/src and common/src', () => {
    const sources = readSources('extension/src', 'mcp-server/src', 'common/src');
    assert.ok(sources.length > 150, `read ${sources.length} files`);
    assert.deepEqual(importCircles(sources).map((c: string[]) => c.join(' → ')), []);
  });
});

/** The .ts files under the folders, each with its relative imports (type-only included) resolved to files. */
function readSources(...folders: string[]): { file: string; imports: string[] }[] {
  const root = path.join(__dirname, '..', '..');
  return folders.flatMap((folder) => sourceFiles(path.join(root, folder))).map((abs) => ({
    file: path.relative(root, abs).split(path.sep).join('/'),
    imports: ts
      .preProcessFile(readFileSync(abs, 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(root, path.resolve(path.dirname(abs), name)).split(path.sep).join('/'))
      .map(resolveModule),
  }));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `core/terminals/strategies` is its index.ts; `core/events` its .ts file. */
function resolveModule(relative: string): string {
  const root = path.join(__dirname, '..', '..');
  return [`${relative}.ts`, `${relative}/index.ts`].find((candidate) => statSync(path.join(root, candidate), { throwIfNoEntry: false })?.isFile()) ?? relative;
}
