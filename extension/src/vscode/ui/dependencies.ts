/** What the process UI needs from the rest of the extension (wired in extension.ts). */
import type { Logger } from '../../../../common/src/logger';
import type { DevServer } from '../../../../common/src/protocol';
import type { ProcessLedger } from '../../core/ledger/api';
import type { OrphanPolicy } from '../../core/settings';
import type { TerminalService } from '../../core/service/terminalService';

export interface ProcessUiDependencies {
  /** The parts of the ledger the UI uses (a full ProcessLedger fits). */
  readonly ledger: Pick<ProcessLedger, 'list' | 'summary' | 'kill' | 'killOrphans' | 'refresh' | 'onDidChange'>;
  /** The parts of the terminal service the UI uses (a TerminalService fits). */
  readonly terminals: Pick<TerminalService, 'list' | 'reveal' | 'onDidChange' | 'onDidAbandonRun' | 'onDidAskForSecret' | 'interrupt'>;
  /** Dev servers running now, from memory (their URLs show in the views and the status bar). */
  readonly servers: { list(): DevServer[] };
  /** The LogOutputChannel: "Show Log" shows it. */
  readonly logger: Logger & { show(): void };
  /** `<workspace>/.devtools`, where process-log.jsonl lives; undefined without a workspace. */
  readonly dataDir: string | undefined;
  /** The setting terminalShepherd.processes.orphanPolicy, read when it applies. */
  readonly orphanPolicy: () => OrphanPolicy;
}
