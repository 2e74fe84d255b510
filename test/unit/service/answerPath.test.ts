/**
 * The structure that keeps a short command's answer at the floor (issue 30): between the command's
 * end event and the answer, the call waits only for the shell's confirmation (one OS probe of the
 * shell) and the output the stream still holds. Nothing written to disk (no log file is opened for
 * a short run), no process-tree walk, no line parsed: the per-command check (the grammars) is done
 * before the command is typed. The ledger attached as in the extension starts its final snapshot of
 * the terminal at the end (the same response's reminder lists what it finds), but the answer never
 * waits for it: its walks and writes are held until the answer came. Asserted on the order of what
 * the fake host, the ledger's monitor and store and the service's parts were asked, not on times;
 * and on the disk: the runs' log folder is still empty.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { SessionApprovalStore } from '../../../extension/src/core/checks/commandSafety/approvalChoices';
import { inProcessParser, type LineParser } from '../../../extension/src/core/checks/commandSafety/lineParser';
import { commandSafetyCheck } from '../../../extension/src/core/checks/commandSafetyCheck';
import type { Disposable } from '../../../extension/src/core/events';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import { TerminalSecrets } from '../../../extension/src/core/secrets/terminalSecrets';
import type { TerminalService } from '../../../extension/src/core/service/terminalService';
import { attachToTerminalService } from '../../../extension/src/core/service/terminalServiceAdapter';
import { defaultSettings, type ShepherdSettings } from '../../../extension/src/core/settings';
import { waitFor } from '../../support/boundedWaits';
import { collectingLogger } from '../../support/collectingLogger';
import { grammars } from '../../support/packageGrammars';
import { TempDirs } from '../../support/tempDirs';
import { HOME, defaultSafetySettings } from '../checks/commandSafety/fixtures';
import { FakeProcessMonitor } from '../ledger/fakeProcessMonitor';
import { makeTracker, type TrackerFixture } from '../ledger/trackerSupport';
import { FakeTerminalHost, idleShell } from '../terminals/fakeTerminalHost';
import { fakeTerminalService, serviceForEachTest } from './serviceSupport';

const settings: ShepherdSettings = { ...defaultSettings, gracePeriodMs: 3000, defaultTimeoutMs: 5000, shellIntegrationTimeoutMs: 1000 };

/** Each call of the named methods is pushed to `events` as `<label> <method>`, and runs once `held()` resolves. */
function holdCalls<T extends object>(target: T, methods: readonly (keyof T & string)[], label: string, events: string[], held: () => Promise<void>): void {
  for (const method of methods) {
    const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
    Object.assign(target, { [method]: (...args: unknown[]) => (events.push(`${label} ${method}`), held().then(() => original(...args))) });
  }
}

describe('the answer path of a short command: nothing slow between its end and the answer', () => {
  const dirs = new TempDirs();
  let host: FakeTerminalHost;
  let service: TerminalService;
  let events: string[];
  let logsDir: string;
  let loaded: LineParser;
  let ledger: TrackerFixture;
  let attachment: Disposable;
  /** What the ledger's walks and writes wait for: released after the answer. */
  let held: Promise<void>;
  let releaseLedger: () => void;
  const holdLedger = (): void => {
    held = new Promise<void>((resolve) => (releaseLedger = resolve));
  };

  async function setup(): Promise<void> {
    host = new FakeTerminalHost();
    events = [];
    // The ledger as the extension attaches it: its polls walk the (fake) process table, its store writes files.
    const monitor = new FakeProcessMonitor();
    monitor.spawn(1, 'bash', '/bin/bash', host.nextPid);
    ledger = makeTracker(monitor, dirs.make('answer-ledger-'));
    await ledger.tracker.start();
    holdLedger();
    holdCalls(monitor, ['listAll', 'descendants', 'listeningPorts', 'portHolders', 'isAlive', 'workingDirectory'], 'ledger walks:', events, () => held);
    holdCalls(ledger.store, ['append', 'updateActive', 'writeSession'], 'ledger writes:', events, () => held);
    const workspace = dirs.make('answer-ws-');
    logsDir = dirs.make('answer-logs-');
    const parser: LineParser = {
      parse: (grammar, line) => {
        events.push('line parsed');
        return loaded.parse(grammar, line);
      },
    };
    service = fakeTerminalService(host, () => settings, dirs, {
      workspaceFolder: () => workspace,
      createOutput: () =>
        new OutputCapture({
          limitChars: settings.outputLimitChars,
          logFilePath: () => {
            events.push('log file opened');
            return path.join(logsDir, 'run.log');
          },
        }),
      probeShell: () => {
        events.push('shell probed');
        return Promise.resolve(idleShell);
      },
      descendants: () => {
        events.push('process tree walked');
        return Promise.resolve([]);
      },
      // No real /proc behind the fake shell's pid.
      terminalSecrets: new TerminalSecrets({ platform: 'linux', procRoot: dirs.make('answer-proc-') }),
      checks: [
        commandSafetyCheck({
          parser,
          settings: () => defaultSafetySettings(workspace),
          sessions: new SessionApprovalStore(),
          keepRules: () => Promise.resolve(),
          home: HOME,
          logger: collectingLogger(),
        }),
      ],
      audit: () => events.push('decision recorded'),
    });
    attachment = attachToTerminalService(ledger.tracker, service, collectingLogger());
    host.onDidEndExecution(() => events.push('command ended'));
    // The command runs a moment after it is typed, as a shell would.
    host.onExecute = (execution) => {
      events.push('command typed');
      setTimeout(() => execution.complete('a.txt\r\n', 0), 20);
    };
  }

  // The grammars load at activation, before any call (extension.ts starts the parser's worker; here
  // the same parser runs in process).
  before(async function () {
    this.timeout(60_000);
    loaded = inProcessParser(await grammars.load());
  });
  // Before the service's own hook removes the folders the ledger writes in.
  afterEach(async () => {
    releaseLedger();
    attachment.dispose();
    await ledger.tracker.dispose();
  });
  serviceForEachTest(dirs, setup, () => ({ service, host }));

  /**
   * The ledger followed the run (its final snapshot of the terminal, or a poll of its cadence that
   * the held ledger queued it behind), and the answer came while all of it was held.
   */
  const ledgerFollowedUnawaited = async (typed: number): Promise<void> => {
    await waitFor(`the ledger to look at the terminal (${events.join(' > ')})`, 5000, () => events.slice(typed).find((e) => e.startsWith('ledger walks:')), 10);
  };

  /** After the end event: at most the shell's probe (and the ledger's held snapshot starting), then the answer. */
  function assertOnlyProbesAfter(ended: number): void {
    assert.ok(ended >= 0, events.join(' > '));
    const answered = events.indexOf('answered');
    assert.ok(answered > ended, events.join(' > '));
    const between = events.slice(ended + 1, answered).filter((e) => e !== 'shell probed' && !e.startsWith('ledger walks:') && !e.startsWith('ledger writes:'));
    assert.deepEqual(between, [], events.join(' > '));
  }

  it('an approved `ls`: checked before it is typed; after its end only the shell probe, then the answer', async () => {
    const result = await service.run({ command: 'ls', name: 'short' }).then((r) => {
      events.push('answered');
      return r;
    });
    assert.equal(result.status, 'completed', JSON.stringify(result.safety));
    assert.equal(result.safety?.decision, 'approved');
    assert.match(result.output, /a\.txt/);
    const ended = events.indexOf('command ended');
    const typed = events.indexOf('command typed');
    assert.ok(ended > typed && typed > events.indexOf('line parsed') && typed > events.indexOf('decision recorded'), events.join(' > '));
    assertOnlyProbesAfter(ended);
    assert.deepEqual(readdirSync(logsDir), [], 'no log file written for a short run');
    await ledgerFollowedUnawaited(typed);
  });

  it('a second call on the same terminal: parsed before typing, nothing after its end but the probe', async () => {
    await service.run({ command: 'ls', name: 'short' });
    // The first run's snapshot done (a refresh queues behind it), the ledger is held again.
    releaseLedger();
    await ledger.tracker.refresh();
    holdLedger();
    events.length = 0;
    await service.run({ command: 'ls -la', name: 'short' });
    events.push('answered');
    const ended = events.indexOf('command ended');
    const typed = events.indexOf('command typed');
    assert.ok(ended > events.indexOf('line parsed'), events.join(' > '));
    assertOnlyProbesAfter(ended);
    assert.deepEqual(readdirSync(logsDir), []);
    await ledgerFollowedUnawaited(typed);
  });
});
