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


/**
 * The floors of extension/src/core, lowest first: a folder may import its own floor or a lower
 * one, never a higher one, type-only imports included (so this reads the source, not a bundle).
 * `.` is the files at core/'s top (events, errors, next steps, settings).
 */
export const CORE_FLOORS = [['.'], ['processes', 'stacks', 'clients'], ['output'], ['run'], ['terminals'], ['ledger'], ['servers'], ['checks'], ['service']];

/**
 * Violations of the core floors and of core's place under bridge/ and vscode/, for source files
 * given as { file, imports } with repo-relative posix paths (imports already resolved to files).
 */
export function floorViolations(sources) {
  const floorOf = (file) => {
    const rest = file.slice('extension/src/core/'.length);
    const folder = rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '.';
    return CORE_FLOORS.findIndex((names) => names.includes(folder));
  };
  const problems = [];
  for (const { file, imports } of sources) {
    for (const target of imports) {
      if (file.startsWith('extension/src/core/')) {
        if (!target.startsWith('extension/src/core/') && target.startsWith('extension/src/')) {
          problems.push(`${file} imports ${target}: core/ is the lowest floor of the extension`);
          continue;
        }
        if (!target.startsWith('extension/src/core/')) continue;
        const from = floorOf(file);
        const to = floorOf(target);
        if (from < 0) problems.push(`${file}: its folder is on no floor (add it to CORE_FLOORS)`);
        else if (to > from) problems.push(`${file} imports ${target}: a lower floor of core/ never imports a higher one (${CORE_FLOORS[from].join(', ')} < ${CORE_FLOORS[to].join(', ')})`);
      }
      if (file.startsWith('extension/src/vscode/') && target.startsWith('extension/src/bridge/')) {
        problems.push(`${file} imports ${target}: vscode/ and bridge/ stand side by side; extension.ts wires them`);
      }
      if ((file.startsWith('extension/src/vscode/') || file.startsWith('extension/src/bridge/') || file.startsWith('extension/src/core/')) && target === 'extension/src/extension.ts') {
        problems.push(`${file} imports ${target}: only the composition root may`);
      }
    }
  }
  return problems;
}
