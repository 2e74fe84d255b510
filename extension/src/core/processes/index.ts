/**
 * The OS process layer: pick the implementation for the platform. Everything here is plain Node
 * (no vscode), so the extension and tests share it.
 */
import type { Logger } from '../../../../common/src/logger';
import { silentLogger } from '../../../../common/src/logger';
import { DarwinProcessMonitor } from './darwinProcessMonitor';
import { LinuxProcessMonitor } from './linuxProcessMonitor';
import { NOTHING_KILLED, UNKNOWN_ACTIVITY, type ProcessMonitor } from './types';
import { WindowsProcessMonitor } from './windowsProcessMonitor';

export * from './types';
export { buildTree, descendantsFromTable, type ProcessTreeNode } from './processTree';

export function createProcessMonitor(platform: NodeJS.Platform = process.platform, logger: Logger = silentLogger): ProcessMonitor {
  switch (platform) {
    case 'linux':
    case 'android':
      return new LinuxProcessMonitor({ logger });
    case 'darwin':
      return new DarwinProcessMonitor({ logger });
    case 'win32':
      return new WindowsProcessMonitor({ logger });
    default:
      logger.warn(`processes: no process monitor for platform ${platform}; process tracking is off`);
      return unsupportedMonitor;
  }
}

/** Knows nothing and touches nothing: every answer says so. */
const unsupportedMonitor: ProcessMonitor = {
  listAll: async () => [],
  descendants: async () => [],
  isAlive: async () => false,
  killTree: async () => NOTHING_KILLED,
  listeningPorts: async () => new Map(),
  portHolders: async () => [],
  probeShell: async () => UNKNOWN_ACTIVITY,
  dispose: () => undefined,
};
