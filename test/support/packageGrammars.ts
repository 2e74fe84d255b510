/** The shell grammars from the npm packages, as esbuild.mjs copies them into dist/grammars: what tests parse with. */
import path from 'node:path';
import { WorkerParser } from '../../extension/src/core/checks/commandSafety/lineParser';
import { ShellGrammars, type GrammarPaths } from '../../extension/src/core/checks/commandSafety/shellGrammars';

const vscodeWasm = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');

export const PACKAGE_GRAMMARS: GrammarPaths = {
  runtime: require.resolve('web-tree-sitter/tree-sitter.wasm'),
  bash: path.join(vscodeWasm, 'tree-sitter-bash.wasm'),
  powershell: path.join(vscodeWasm, 'tree-sitter-powershell.wasm'),
};

/** Loaded once per test process, whoever asks first. */
export const grammars = new ShellGrammars(PACKAGE_GRAMMARS);

/** The extension's parser (a worker thread, as in the extension), its worker run from source through tsx. */
export const workerParser = new WorkerParser({
  script: path.join(__dirname, '..', '..', 'extension', 'src', 'core', 'checks', 'commandSafety', 'parseWorker.ts'),
  grammars: PACKAGE_GRAMMARS,
  execArgv: ['--require', 'tsx/cjs'],
});
