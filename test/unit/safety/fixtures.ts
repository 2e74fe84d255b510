/** What the safety tests share: the grammars from the npm packages (as esbuild.mjs copies them into dist/grammars) and VS Code's default settings. */
import type { SafetySettings } from '../../../extension/src/core/checks/commandSafety/decide';
export { PACKAGE_GRAMMARS, grammars } from '../../support/packageGrammars';

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
