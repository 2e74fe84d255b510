/**
 * Feeds TerminalService events to the ledger: a session is a terminal to watch, a run makes its
 * tree polled fast, the run's end takes the final snapshot, a closed session kills what is left.
 * Sessions that exist before attaching are picked up at once.
 */
import type { Logger } from '../../../../common/src/logger';
import type { Disposable, Event } from '../events';
import type { ProcessLedger } from '../ledger/api';
import type { TerminalSessionEvent, TerminalSessionView } from '../terminals/terminalSession';

/** The part of TerminalService the adapter follows. */
export interface TerminalEventSource {
  readonly onDidChange: Event<TerminalSessionEvent>;
  sessionViews(): TerminalSessionView[];
}

export type TerminalEventSink = Pick<ProcessLedger, 'terminalOpened' | 'runStarted' | 'runEnded' | 'terminalClosed'>;

export function attachToTerminalService(ledger: TerminalEventSink, service: TerminalEventSource, logger: Logger): Disposable {
  const follow = (session: TerminalSessionView): void => {
    ledger.terminalOpened(session.name, session.shellPid);
    if (session.currentRun?.active) {
      ledger.runStarted(session.name, session.currentRun.launch.agentSession, session.currentRun.launch.sandbox);
    }
  };
  for (const session of service.sessionViews()) {
    follow(session);
  }
  return service.onDidChange((event) => {
    const { session } = event;
    switch (event.kind) {
      case 'sessionCreated':
      case 'runStarted':
        follow(session);
        break;
      case 'runStateChanged':
        if (event.run !== session.currentRun) {
          break; // a replaced run's late news
        }
        if (event.run.active) {
          ledger.runStarted(session.name, event.run.launch.agentSession, event.run.launch.sandbox);
        } else {
          ledger.runEnded(session.name);
        }
        break;
      case 'sessionClosed':
        ledger.terminalClosed(session.name).then(
          (result) => {
            if (result.killed.length + result.failed.length > 0) {
              logger.info(`ledger: terminal "${session.name}" closed; killed [${result.killed.join(', ')}], failed [${result.failed.join(', ')}]`);
            }
          },
          (error: unknown) => logger.warn(`ledger: cleaning up after terminal "${session.name}" failed`, error),
        );
        break;
    }
  });
}
