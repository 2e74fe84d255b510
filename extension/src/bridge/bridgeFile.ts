/**
 * Publishes the window's bridge in <workspace>/.devtools/bridge.json (mode 0600) so MCP clients
 * started outside VS Code can find it. One window owns the file at a time: a file left by a dead
 * window is replaced, a live window's file is left alone and taken over once that window is gone.
 */
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../common/src/logger';
import { bridgeFilePath, readBridgeFile, type BridgeFile } from '../../../common/src/bridgeDiscovery';
import { processExists } from '../../../common/src/processExists';
import { writeFileAtomic } from '../core/fsUtil';

export interface BridgeFilePublisher {
  readonly filePath: string;
  /** True while this window's bridge is the one advertised. */
  readonly owned: boolean;
  dispose(): Promise<void>;
}

const RECHECK_MS = 10_000;
/** Lets a writer finish (write + rename) before the file is read. */
const WATCH_SETTLE_MS = 50;

export async function publishBridgeFile(
  workspaceFolder: string,
  content: Omit<BridgeFile, 'createdAt' | 'workspaceFolder'>,
  logger: Logger,
  onWriteFailure: (path: string, error: unknown) => void = () => undefined,
): Promise<BridgeFilePublisher> {
  const filePath = bridgeFilePath(workspaceFolder);
  const mine: BridgeFile = { ...content, workspaceFolder, createdAt: new Date().toISOString() };
  let owned = false;
  let busy = false;

  const claim = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const existing = await readBridgeFile(filePath);
      if (existing && existing.token === mine.token) {
        owned = true;
        return;
      }
      if (existing && (await isLiveBridge(existing))) {
        if (owned) logger.info(`bridge.json now belongs to window pid ${existing.pid}`);
        owned = false;
        return;
      }
      await fs.mkdir(path.dirname(filePath), { recursive: true });
      await writeFileAtomic(filePath, `${JSON.stringify(mine, null, 2)}\n`, 0o600);
      owned = true;
      logger.info(`bridge advertised in ${filePath}${existing ? ` (replaced a stale file of pid ${existing.pid})` : ''}`);
    } catch (error) {
      logger.warn(`could not write ${filePath}; MCP clients outside VS Code will not find this window`, error);
      onWriteFailure(filePath, error);
    } finally {
      busy = false;
    }
  };

  await claim();
  const timer = setInterval(() => void claim(), RECHECK_MS);
  timer.unref();
  // A file removed (its window closed), corrupted or replaced is looked at again at once; the
  // interval stays as the fallback where watching is not possible.
  let watcher: FSWatcher | undefined;
  let soon: NodeJS.Timeout | undefined;
  try {
    watcher = watch(path.dirname(filePath), (_event, name) => {
      if (name !== null && name !== path.basename(filePath)) return;
      clearTimeout(soon);
      soon = setTimeout(() => void claim(), WATCH_SETTLE_MS);
    });
    watcher.on('error', (error) => logger.debug(`watching ${filePath} failed; rechecking every ${RECHECK_MS / 1000} s`, error));
    watcher.unref();
  } catch (error) {
    logger.debug(`cannot watch ${filePath}; rechecking every ${RECHECK_MS / 1000} s`, error);
  }

  return {
    filePath,
    get owned() {
      return owned;
    },
    async dispose() {
      clearInterval(timer);
      clearTimeout(soon);
      watcher?.close();
      const existing = await readBridgeFile(filePath);
      if (existing?.token === mine.token) {
        await fs.rm(filePath, { force: true });
      }
    },
  };
}

/** A window is live when its process exists and its endpoint is still there. */
async function isLiveBridge(file: BridgeFile): Promise<boolean> {
  if (!processExists(file.pid)) return false;
  if (process.platform === 'win32') return true;
  return fs.stat(file.endpoint).then(
    (s) => s.isSocket(),
    () => false,
  );
}
