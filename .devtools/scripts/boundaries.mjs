// The module boundaries of the project, checked on esbuild metafiles (what is really bundled):
// the MCP server never pulls in VS Code or extension code, common/ depends on neither side, and
// only extension/src/vscode/ imports the vscode module at runtime (core/ and bridge/ not even through it).
import path from 'node:path';

/** Returns the boundary violations found in one bundle's metafile. */
export function boundaryViolations(metafile) {
  const problems = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    const norm = file.split(path.sep).join('/');
    for (const imp of input.imports) {
      const target = imp.path.split(path.sep).join('/');
      const importsVscode = target === 'vscode';
      if (norm.startsWith('mcp-server/') && (importsVscode || target.startsWith('extension/'))) {
        problems.push(`${norm} imports ${target}: the MCP server must not depend on VS Code or extension code`);
      }
      if (norm.startsWith('common/') && (importsVscode || target.startsWith('extension/') || target.startsWith('mcp-server/'))) {
        problems.push(`${norm} imports ${target}: common/ is shared by both sides and depends on neither`);
      }
      const vscodeFree = norm.startsWith('extension/src/core/') || norm.startsWith('extension/src/bridge/');
      if (vscodeFree && target.startsWith('extension/src/vscode/')) {
        problems.push(`${norm} imports ${target}: core/ and bridge/ stay free of VS Code, also indirectly`);
      }
      if (norm.startsWith('extension/src/') && !norm.startsWith('extension/src/vscode/') && importsVscode) {
        problems.push(`${norm} imports vscode at runtime: only extension/src/vscode/ may (use "import type" elsewhere)`);
      }
    }
  }
  return problems;
}

