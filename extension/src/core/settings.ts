/** The settings the core reads, always fresh (the vscode/ adapter reads them on every use). */
export interface ShepherdSettings {
  readonly gracePeriodMs: number;
  readonly defaultTimeoutMs: number;
  readonly outputLimitChars: number;
  /** Shell for new managed terminals; undefined uses the editor's default profile. */
  readonly shellPath: string | undefined;
  readonly shellIntegrationTimeoutMs: number;
  /** Show a new managed terminal in the panel (without focus) so the user sees what runs. */
  readonly revealOnCreate: boolean;
  /** Process tree poll interval while a command runs (ms). */
  readonly pollIntervalMs: number;
  /** What to do at startup with processes an earlier window left running. */
  readonly orphanPolicy: OrphanPolicy;
}

export type OrphanPolicy = 'report' | 'ask' | 'kill';

export const defaultSettings: ShepherdSettings = {
  gracePeriodMs: 3000,
  defaultTimeoutMs: 120_000,
  outputLimitChars: 16_000,
  shellPath: undefined,
  shellIntegrationTimeoutMs: 10_000,
  revealOnCreate: true,
  pollIntervalMs: 1000,
  orphanPolicy: 'report',
};
