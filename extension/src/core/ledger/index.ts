/**
 * The process ledger: every process the managed terminals spawn, tracked, persisted under the
 * data dir and found again after a reload. Plain Node (no vscode). See api.ts for the contract.
 *
 *   const ledger = createProcessLedger({ dataDir, monitor, settings, logger });
 *   const { orphans } = await ledger.start();          // apply the orphan policy to these
 *   const attachment = attachToTerminalService(ledger, terminals, logger);  // service/terminalServiceAdapter.ts
 *   ...
 *   attachment.dispose(); await ledger.dispose();
 */
import type { Logger } from '../../../../common/src/logger';
import type { ProcessMonitor } from '../processes/types';
import type { LedgerSettings, ProcessLedger } from './api';
import { LedgerStore } from './ledgerStore';
import { ProcessTracker } from './processTracker';

export * from './api';
export { LEDGER_FILES, type ActiveEntry, type ActiveFile, type LedgerEvent, type SessionSummary } from './formats';
export { LedgerStore } from './ledgerStore';

export interface ProcessLedgerOptions {
  /** `<workspace>/.devtools` (or the extension's storage dir without a workspace). */
  readonly dataDir: string;
  readonly monitor: ProcessMonitor;
  /** Read on every poll and append. */
  readonly settings: () => LedgerSettings;
  readonly logger: Logger;
  /** Every failure to write under dataDir (each is logged too). */
  readonly onWriteFailure?: (path: string, error: unknown) => void;
  /** Takes secrets out of the command lines written to disk; read at every write. */
  readonly redact?: () => (text: string) => string;
}

export function createProcessLedger(options: ProcessLedgerOptions): ProcessLedger {
  const store = new LedgerStore({ dir: options.dataDir, logger: options.logger, maxLogBytes: () => options.settings().logMaxBytes, ...(options.redact ? { redact: options.redact } : {}) });
  return new ProcessTracker({
    monitor: options.monitor,
    store,
    settings: options.settings,
    logger: options.logger,
    ...(options.onWriteFailure ? { onWriteFailure: options.onWriteFailure } : {}),
  });
}
