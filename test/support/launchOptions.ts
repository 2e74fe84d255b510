// What a launch of the real VS Code can be asked for (LaunchOptions, StopOptions) and what it gets
// when it does not say: settings that keep the window quiet and offline, and bounded timeouts.
// Apart from the handle so `npm start` takes the same default settings without launching through it.
import type { VsCodeInstall } from '../../.devtools/scripts/vscodeInstall';

/** Settings every launch gets (the caller's `settings` override them): quiet, offline, no tours. */
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
};

export interface LaunchTimeouts {
  /** code-server answering /healthz (default 30 s). */
  serverMs: number;
  /** The workbench rendered in the page (default 60 s). */
  workbenchMs: number;
  /** The driver extension activated and answering (default 60 s). */
  driverMs: number;
  /** Each `--install-extension` call (default 120 s). */
  installExtensionMs: number;
}

export const DEFAULT_TIMEOUTS: LaunchTimeouts = { serverMs: 30_000, workbenchMs: 60_000, driverMs: 60_000, installExtensionMs: 120_000 };

export interface LaunchOptions {
  /** Folder VS Code opens. */
  workspace: string;
  /** Extension folders (each with a package.json) symlinked into a fresh extensions dir as `<publisher>.<name>-<version>`. */
  extensions?: string[];
  /** `.vsix` files installed into the fresh extensions dir with code-server's `--install-extension`. */
  vsix?: string[];
  /** User settings (User/settings.json), written before start, over DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Machine settings (Machine/settings.json): where code-server's remote window reads settings of
   * scope `machine` and `machine-overridable` (it ignores them in User/settings.json). */
  machineSettings?: Record<string, unknown>;
  /** Files written under the user-data dir before start (path relative to it → text), for state a
   * process of VS Code's reads at start and no setting reaches (the agent host's
   * User/globalStorage/agent-host-config.json). */
  userDataFiles?: Record<string, string>;
  /** Extension ids (`publisher.name`) allowed to use proposed APIs (`--enable-proposed-api`), for
   * test-only extensions that list them in enabledApiProposals. */
  enableProposedApi?: string[];
  /** Extra environment for code-server, hence for the extension host, pty host and terminals. `undefined` removes a variable.
   * By default TMPDIR and TERMINAL_SHEPHERD_HOME point into the launch's temp dir (removed by stop()) and TS_HARNESS_RUN_ID /
   * TS_TEST_DRIVER_SOCKET are set; npm_*, VSCODE_*, NODE_OPTIONS and the like of the caller are dropped. */
  env?: Record<string, string | undefined>;
  /** Extra code-server arguments, e.g. `['--log', 'debug']` (the extension host's log channels then keep debug lines). */
  serverArgs?: string[];
  /** Load the driver extension and connect to it (default true). */
  driver?: boolean;
  /** Open the workbench in headless Chromium (default true). Without it the extension host does not start. */
  browser?: boolean;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Name for artifacts under test-results/vscode/ (default "vscode"). */
  label?: string;
  timeouts?: Partial<LaunchTimeouts>;
  /** Progress messages (default: stderr). */
  log?: (message: string) => void;
  /** An install from ensureVsCode(); looked up (and completed if needed) when absent. */
  install?: VsCodeInstall;
}

export interface StopOptions {
  /** Copy the logs to test-results/vscode/<label>-<time>/ (also when TS_KEEP_VSCODE_ARTIFACTS=1). */
  keepArtifacts?: boolean;
  /** Same as keepArtifacts; pass `this.currentTest?.state === 'failed'` from a mocha hook. */
  failed?: boolean;
}
