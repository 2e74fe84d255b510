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
  /** Parses a command line; the caller deletes the tree. Past `deadline` (performance.now()) the parse stops and throws. */
  parse(grammar: GrammarName, text: string, deadline?: number): Tree;
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
    const loaded: LoadedGrammars = {
      loadMs: 0,
      parse(grammar, text, deadline = Infinity) {
        // web-tree-sitter stops when the callback returns true (its typings say void).
        const progressCallback = ((): boolean => performance.now() > deadline) as () => void;
        const tree = parsers[grammar].parse(text, null, { progressCallback });
        if (!tree) throw new Error(performance.now() > deadline ? `reading it took longer than the bound` : `the ${grammar} grammar returned no tree`);
        return tree;
      },
    };
    warmUp(loaded);
    return { ...loaded, loadMs: performance.now() - started };
  }
}

/** Lines that take each grammar through most of its code, so V8 compiles it now (in the parser's worker thread), not in a person's first decision. */
const WARM_UP: readonly [GrammarName, string][] = [
  ['bash', 'echo "a $b" \'c\' | grep -v x > out.txt 2>&1 && (cd d; ls) || { f=1; }'],
  ['bash', 'for f in *.ts; do sed -n "1p" "$f" <<< "$(cat <(ls))"; done; x=$((1 + 2)) # c'],
  ['bash', 'if [[ -f a ]]; then git log --oneline -5; fi; case $x in a) echo ${x:-y};; esac'],
  ['powershell', 'Get-ChildItem -Recurse | Where-Object { $_.Length -gt 1 } | Select-Object Name > out.txt'],
  ['powershell', '$x = (Get-Content a.txt); if ($x) { Write-Output "a $x" } else { & cmd /c dir }'],
];

function warmUp(grammars: LoadedGrammars): void {
  for (const [grammar, line] of WARM_UP) grammars.parse(grammar, line).delete();
}
