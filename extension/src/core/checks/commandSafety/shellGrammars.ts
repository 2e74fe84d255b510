/**
 * The parsers VS Code's terminal tool uses, loaded once: the web-tree-sitter runtime and the bash
 * and PowerShell grammars of @vscode/tree-sitter-wasm (the very .wasm files VS Code 1.139 ships).
 * The files are read from a folder (dist/grammars in the package; the npm packages in tests), so
 * the bundle carries no copy of them.
 */
import path from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';

export type GrammarName = 'bash' | 'powershell';

/** The files in a grammar folder (esbuild.mjs copies them into dist/grammars). */
export const GRAMMAR_FILES = {
  runtime: 'tree-sitter.wasm',
  bash: 'tree-sitter-bash.wasm',
  powershell: 'tree-sitter-powershell.wasm',
} as const;

export interface GrammarPaths {
  readonly runtime: string;
  readonly bash: string;
  readonly powershell: string;
}

export function grammarPathsIn(dir: string): GrammarPaths {
  return {
    runtime: path.join(dir, GRAMMAR_FILES.runtime),
    bash: path.join(dir, GRAMMAR_FILES.bash),
    powershell: path.join(dir, GRAMMAR_FILES.powershell),
  };
}

export interface LoadedGrammars {
  /** Parses a command line; the caller deletes the tree. */
  parse(grammar: GrammarName, text: string): Tree;
  /** How long loading the runtime and both grammars took (ms). */
  readonly loadMs: number;
}

/** The runtime is one WebAssembly module per process: initialised once, whoever asks first. */
let runtime: Promise<void> | undefined;

/** Loads lazily and once; a failed load is retried on the next call (a missing file may come back). */
export class ShellGrammars {
  private loading: Promise<LoadedGrammars> | undefined;

  constructor(private readonly paths: GrammarPaths) {}

  load(): Promise<LoadedGrammars> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async doLoad(): Promise<LoadedGrammars> {
    const started = performance.now();
    runtime ??= Parser.init({ locateFile: () => this.paths.runtime }).catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
    await runtime;
    const [bash, powershell] = await Promise.all([Language.load(this.paths.bash), Language.load(this.paths.powershell)]);
    const parsers = { bash: new Parser(), powershell: new Parser() };
    parsers.bash.setLanguage(bash);
    parsers.powershell.setLanguage(powershell);
    const loadMs = performance.now() - started;
    return {
      loadMs,
      parse(grammar, text) {
        const tree = parsers[grammar].parse(text);
        if (!tree) throw new Error(`the ${grammar} grammar returned no tree`);
        return tree;
      },
    };
  }
}
