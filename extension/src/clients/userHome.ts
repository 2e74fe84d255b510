/**
 * What a window puts in ~/.terminal-shepherd at activation: the launcher (unless a newer version
 * owns it) and its window record, removed again at dispose. Failures are logged, never thrown:
 * only clients outside VS Code depend on them, and the log says why they cannot start the server.
 */
import type { Logger } from '../../../common/src/logger';
import { installLauncher, type LauncherTarget } from './launcher';
import { publishWindowRecord, type PublishedWindowRecord } from './windowRecord';

export interface UserHomeSetup {
  readonly root: string;
  readonly launcher: LauncherTarget;
  /** This window, when a folder is open (its pid is the extension host's). */
  readonly window?: { readonly pid: number; readonly workspaceFolder: string };
  readonly logger: Logger;
}

export async function publishToUserHome(setup: UserHomeSetup): Promise<{ dispose(): Promise<void> }> {
  const { logger } = setup;
  try {
    const installed = await installLauncher(setup.root, setup.launcher);
    const says = {
      written: `MCP launcher ${installed.path} now starts this version (${setup.launcher.version})`,
      unchanged: `MCP launcher ${installed.path} starts this version (${setup.launcher.version})`,
      kept: `MCP launcher ${installed.path} keeps starting the newer version ${installed.target.version} (${installed.target.serverScript})`,
    };
    logger.info(says[installed.outcome]);
  } catch (error) {
    logger.warn(`could not write the MCP launcher under ${setup.root}: MCP clients outside VS Code configured with it will not start the server`, error);
  }
  let record: PublishedWindowRecord | undefined;
  if (setup.window) {
    try {
      record = await publishWindowRecord(setup.root, { ...setup.window, extensionVersion: setup.launcher.version });
    } catch (error) {
      logger.warn(`could not record this window under ${setup.root}: servers that Cline or Continue start will not find it`, error);
    }
  }
  return { dispose: async () => void (await record?.dispose().catch((error: unknown) => logger.debug('could not remove the window record', error))) };
}
