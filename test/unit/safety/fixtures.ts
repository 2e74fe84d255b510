/** What the safety tests share: the grammars from the npm packages (as esbuild.mjs copies them into dist/grammars) and VS Code's default settings. */
import path from 'node:path';
import type { SafetySettings } from '../../../extension/src/core/checks/commandSafety/decide';
import { ShellGrammars, type GrammarPaths } from '../../../extension/src/core/checks/commandSafety/shellGrammars';

const vscodeWasm = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');

export const PACKAGE_GRAMMARS: GrammarPaths = {
  runtime: require.resolve('web-tree-sitter/tree-sitter.wasm'),
  bash: path.join(vscodeWasm, 'tree-sitter-bash.wasm'),
  powershell: path.join(vscodeWasm, 'tree-sitter-powershell.wasm'),
};

export const grammars = new ShellGrammars(PACKAGE_GRAMMARS);

/** The home folder the floor's ~ stands for in the tests. */
export const HOME = '/home/dev';

/** VS Code 1.139's defaults (its default rules: none given, so the built-in copy applies) for one workspace folder. */
export function defaultSafetySettings(workspace: string): SafetySettings {
  return {
    perCommandCheck: true,
    enableAutoApprove: true,
    globalAutoApprove: false,
    autoApprove: {},
    ignoreDefaultAutoApproveRules: false,
    autoApproveWorkspaceNpmScripts: true,
    blockDetectedFileWrites: 'outsideWorkspace',
    workspaceFolders: [workspace],
  };
}
