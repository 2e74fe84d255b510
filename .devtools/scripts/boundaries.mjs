// The module boundaries of the project, checked on esbuild metafiles (what is really bundled):
// the MCP server never pulls in VS Code or extension code, common/ depends on neither side, and
// only extension/src/vscode/ imports the vscode module at runtime (core/, bridge/ and clients/ not even through it).
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
      const vscodeFree = ['core', 'bridge', 'clients'].some((folder) => norm.startsWith(`extension/src/${folder}/`));
      if (vscodeFree && target.startsWith('extension/src/vscode/')) {
        problems.push(`${norm} imports ${target}: core/, bridge/ and clients/ stay free of VS Code, also indirectly`);
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
export const CORE_FLOORS = [['.'], ['processes', 'stacks', 'secrets'], ['ledger'], ['output'], ['run'], ['terminals'], ['servers'], ['checks', 'sandbox'], ['service']];

/**
 * Violations of the core floors and of core's place under clients/, bridge/ and vscode/, for source files
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
      if (file.startsWith('extension/src/clients/') && (target.startsWith('extension/src/vscode/') || target.startsWith('extension/src/bridge/'))) {
        problems.push(`${file} imports ${target}: clients/ (MCP clients' set-up) stands over core/ and under vscode/, beside bridge/`);
      }
      if (['vscode', 'bridge', 'core', 'clients'].some((folder) => file.startsWith(`extension/src/${folder}/`)) && target === 'extension/src/extension.ts') {
        problems.push(`${file} imports ${target}: only the composition root may`);
      }
    }
  }
  return problems;
}

/**
 * The floors of mcp-server/src, lowest first, as CORE_FLOORS for core/: the bridge client, the
 * tools' support, the tools, then the files at the top (server, main, inProcess).
 */
export const MCP_FLOORS = [['bridge'], ['tools/support'], ['tools'], ['.']];

/**
 * The extension's one way into the MCP server: Run a Command calls terminal_run in-process, so a
 * person sees exactly what a model gets. extension.ts wires it, vscode/runCommand.ts holds the
 * session; no other extension file imports mcp-server/, and no other file of it is imported.
 */
export const IN_PROCESS_EXCEPTION = { module: 'mcp-server/src/inProcess.ts', importers: ['extension/src/extension.ts', 'extension/src/vscode/runCommand.ts'] };

/** Violations of the MCP server's floors and of the in-process exception, for sources as floorViolations takes them. */
export function mcpFloorViolations(sources) {
  const floorOf = (file) => {
    const folder = path.posix.dirname(file.slice('mcp-server/src/'.length));
    return MCP_FLOORS.findIndex((names) => names.includes(folder));
  };
  const problems = [];
  for (const { file, imports } of sources) {
    for (const target of imports) {
      if (!target.startsWith('mcp-server/src/')) continue;
      if (file.startsWith('extension/')) {
        if (target !== IN_PROCESS_EXCEPTION.module || !IN_PROCESS_EXCEPTION.importers.includes(file)) {
          problems.push(`${file} imports ${target}: the extension may import only ${IN_PROCESS_EXCEPTION.module}, from ${IN_PROCESS_EXCEPTION.importers.join(' or ')}`);
        }
        continue;
      }
      if (!file.startsWith('mcp-server/src/')) continue;
      const from = floorOf(file);
      const to = floorOf(target);
      if (from < 0) problems.push(`${file}: its folder is on no floor (add it to MCP_FLOORS)`);
      else if (to > from) problems.push(`${file} imports ${target}: a lower floor of mcp-server/src never imports a higher one (${MCP_FLOORS[from].join(', ')} < ${MCP_FLOORS[to].join(', ')})`);
    }
  }
  return problems;
}

/**
 * The import circles among the given sources (type-only imports included), one per strongly
 * connected group of files, each as the files of one circle through it: ['a', 'b', 'a'].
 */
export function importCircles(sources) {
  const edges = new Map(sources.map(({ file, imports }) => [file, imports]));
  const targetsOf = (file) => (edges.get(file) ?? []).filter((target) => edges.has(target));
  // Tarjan's strongly connected components.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    onStack.add(file);
    for (const target of targetsOf(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || targetsOf(file).includes(file)) groups.push(new Set(group));
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return groups.map((group) => circleThrough([...group].sort()[0], group, targetsOf));
}

/** The shortest circle from `start` back to it inside its group (breadth first). */
function circleThrough(start, group, targetsOf) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of targetsOf(file).filter((t) => group.has(t))) {
      if (target === start) {
        const back = [];
        for (let at = file; at !== undefined; at = cameFrom.get(at)) back.push(at);
        return [...back.reverse(), start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is on no circle of its group`);
}
