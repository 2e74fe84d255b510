/**
 * Failures to write the data folder (.devtools in the workspace): the logs of long outputs, the
 * process ledger, bridge.json. Each is logged where it happens; the user is told once per window,
 * at the first one, with what no longer works and what to do (a read-only or full disk otherwise
 * fails silently on every run).
 */
export type DataDirWrite = 'outputLog' | 'ledger' | 'bridgeFile';

export interface DataDirWriteFailure {
  readonly what: DataDirWrite;
  readonly path: string;
  /** "ENOSPC: no space left on device" (the error without the path it names). */
  readonly reason: string;
}

const consequences: Record<DataDirWrite, string> = {
  outputLog: 'the full output of long runs cannot be saved (results keep their head and tail)',
  ledger: 'the process ledger lives in memory only, so processes left running are not found again after a reload',
  bridgeFile: 'MCP clients started outside VS Code cannot find this window',
};

export function describeDataDirFailure(failure: DataDirWriteFailure): string {
  return (
    `Terminal Shepherd cannot write ${failure.path} (${failure.reason}). Commands still run, but ${consequences[failure.what]}. ` +
    'Free some space or make the folder writable; later failures are only logged.'
  );
}

export class DataDirAlarm {
  private raised = false;

  /** `tell` shows the user the first failure (a notification); it is called at most once. */
  constructor(private readonly tell: (failure: DataDirWriteFailure) => void) {}

  report(what: DataDirWrite, path: string, error: unknown): void {
    if (this.raised) {
      return;
    }
    this.raised = true;
    const message = error instanceof Error ? error.message : String(error);
    this.tell({ what, path, reason: message.split(', ')[0] ?? message });
  }
}
