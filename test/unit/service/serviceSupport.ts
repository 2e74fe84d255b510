/**
 * A TerminalService over a fake host, with what every service test gives it: the repository's shell
 * scripts in a private folder, output captured to the settings' limit, a scripted shell probe, a
 * trusted workspace at /w, no dev-server support. A test passes only what differs.
 */
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import type { ShepherdSettings } from '../../../extension/src/core/settings';
import { noDevServers } from '../../../extension/src/core/servers/noDevServers';
import { TerminalService, type TerminalServiceDependencies } from '../../../extension/src/core/service/terminalService';
import { integrationFilesProvider } from '../../../extension/src/core/terminals/integration/integrationFiles';
import { collectingLogger } from '../../support/collectingLogger';
import type { TempDirs } from '../../support/tempDirs';
import { SHELL_SCRIPTS, ScriptedProbe, type FakeTerminalHost } from '../terminals/fakeTerminalHost';

export function fakeTerminalService(host: FakeTerminalHost, settings: () => ShepherdSettings, dirs: TempDirs, differs: Partial<TerminalServiceDependencies> = {}): TerminalService {
  return new TerminalService({
    host,
    settings,
    createOutput: () => new OutputCapture({ limitChars: settings().outputLimitChars }),
    probeShell: new ScriptedProbe().probeShell,
    workspaceFolder: () => '/w',
    // Only a test that brings none gets a private folder of its own.
    integrationFiles: differs.integrationFiles ?? integrationFilesProvider(SHELL_SCRIPTS, dirs.make('service-private-')),
    logger: collectingLogger(),
    isTrusted: () => true,
    servers: noDevServers,
    ...differs,
  });
}

/** A suite's service for each test: `setup` builds it before each test (a test may call it again), and the last one is disposed with its host and the folders after it. */
export function serviceForEachTest(dirs: TempDirs, setup: () => void, current: () => { readonly service: TerminalService; readonly host: FakeTerminalHost }): void {
  beforeEach(() => setup());
  afterEach(() => {
    const { service, host } = current();
    service.dispose();
    host.dispose();
    dirs.cleanup();
  });
}
