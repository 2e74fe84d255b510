/** What the safety tests share: VS Code's default settings and the home folder (the grammars are test/support/packageGrammars.ts). */
import type { SafetySettings } from '../../../../extension/src/core/checks/commandSafety/decide';

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
