/**
 * chat.tools.terminal.autoApproveWorkspaceNpmScripts, as VS Code reads it (microsoft/vscode,
 * chatAgentTools/browser/tools/commandLineAnalyzer/autoApprove/npmScriptAutoApprover.ts): `npm run X`
 * (and `npm test|start|stop|restart`, `yarn [run] X`, `pnpm [run] X`, yarn's and pnpm's own
 * commands excepted) is approved when X is a script of the package.json in the directory it runs
 * in, that directory being inside a workspace folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fsUtil';

const SCRIPT_FORMS = [
  /^(?<command>npm)\s+(?:run(?:-script)?)\s+(?<scriptName>[^\s&|;]+)/i,
  /^(?<command>npm)\s+(?<scriptName>test|start|stop|restart)\b/i,
  /^(?<command>yarn)\s+(?:run\s+)?(?<scriptName>[^\s&|;]+)/i,
  /^(?<command>pnpm)\s+(?:run\s+)?(?<scriptName>[^\s&|;]+)/i,
];

const YARN_COMMANDS = new Set('add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry global help import info init install licenses link list login logout node outdated owner pack patch patch-commit plugin policies publish rebuild remove run search set stage tag team unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces'.split(' '));
const PNPM_COMMANDS = new Set('add audit bin config dedupe deploy dlx doctor env exec fetch import init install install-test licenses link list ln ls outdated pack patch patch-commit patch-remove prune publish rb rebuild remove rm root run server setup store un uninstall unlink up update why'.split(' '));

/** The script a sub-command runs, if it runs one. */
export function npmScriptName(command: string): string | undefined {
  const text = command.trim();
  for (const form of SCRIPT_FORMS) {
    const groups = form.exec(text)?.groups;
    if (!groups?.command || !groups.scriptName) continue;
    const tool = groups.command.toLowerCase();
    const name = groups.scriptName.toLowerCase();
    if ((tool === 'yarn' && YARN_COMMANDS.has(name)) || (tool === 'pnpm' && PNPM_COMMANDS.has(name))) continue;
    return groups.scriptName;
  }
  return undefined;
}

/** The scripts of `<cwd>/package.json` when cwd is inside a workspace folder; empty otherwise or when unreadable. */
export async function workspaceScripts(cwd: string | undefined, workspaceFolders: readonly string[]): Promise<ReadonlySet<string>> {
  if (cwd === undefined || !workspaceFolders.some((folder) => isInside(cwd, folder))) return new Set();
  try {
    const manifest = JSON.parse(await fs.readFile(path.join(cwd, 'package.json'), 'utf8')) as { scripts?: unknown };
    return typeof manifest.scripts === 'object' && manifest.scripts !== null ? new Set(Object.keys(manifest.scripts)) : new Set();
  } catch {
    return new Set();
  }
}
