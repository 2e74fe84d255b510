/**
 * PowerShell scripts read with a real PowerShell grammar (the one VS Code's terminal tool uses,
 * from @vscode/tree-sitter-wasm, run by web-tree-sitter: no native code, works offline), to check what they may do in
 * ConstrainedLanguage mode before any PowerShell runs them.
 *
 * ConstrainedLanguage (AppLocker/WDAC machines) refuses method calls on anything but core types
 * ("Method invocation is supported only on core types in this language mode",
 * MethodInvocationNotSupportedInConstrainedLanguage, as PowerShell/PowerShell's own constrained
 * language tests expect for `[object]::Equals("A", "B")`) and type literals of other types. The
 * check is stricter than the mode: no method call at all, and type literals only from an allowed
 * list of core types.
 */
import type { Node } from 'web-tree-sitter';
import { grammars } from './packageGrammars';

export interface ConstrainedLanguageViolation {
  readonly kind: 'method call' | 'type literal' | 'parse error';
  readonly text: string;
  /** 1-based. */
  readonly line: number;
}

/** `use` applied to the syntax tree of `source` (the tree is released afterwards). */
export async function parsePowerShell<T>(source: string, use: (root: Node) => T): Promise<T> {
  const tree = (await grammars.load()).parse('powershell', source);
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of node.children) {
    if (child) yield* walk(child);
  }
}

/** Method calls, type literals not in `allowedTypes` (lower case), and syntax errors in `source`. */
export function constrainedLanguageViolations(source: string, allowedTypes: readonly string[]): Promise<ConstrainedLanguageViolation[]> {
  return parsePowerShell(source, (root) => {
    const found: ConstrainedLanguageViolation[] = [];
    for (const node of walk(root)) {
      const at = { text: node.text, line: node.startPosition.row + 1 };
      if (node.type === 'invokation_expression') found.push({ kind: 'method call', ...at });
      else if (node.type === 'type_literal' && !allowedTypes.includes(node.text.replace(/^\[|\]$/g, '').trim().toLowerCase())) found.push({ kind: 'type literal', ...at });
      else if (node.isError || node.isMissing) found.push({ kind: 'parse error', ...at });
    }
    return found;
  });
}

/** Every `if` statement whose body dot-sources a path containing `fileName`, with its condition's text. */
export function dotSourceConditions(source: string, fileName: string): Promise<string[]> {
  return parsePowerShell(source, (root) => {
    const conditions: string[] = [];
    for (const node of walk(root)) {
      if (node.type !== 'if_statement') continue;
      const condition = node.namedChildren.find((c) => c?.type === 'pipeline');
      const body = node.namedChildren.find((c) => c?.type === 'statement_block');
      if (condition && body && body.text.includes(fileName) && /^\s*\{\s*\./.test(body.text)) conditions.push(condition.text);
    }
    return conditions;
  });
}
