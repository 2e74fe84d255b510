/**
 * Dev-server support for a window (or a test) without it: nothing is ever a running server, and a
 * call that needs one (waitMode "ready") is refused at the plan, before anything happens.
 */
import { serversUnavailableError } from '../errors';
import type { CallServers } from './devServers';
import { planServer } from './serverPlan';

export const noDevServers: CallServers = {
  plan(ask, sessions) {
    if (ask.waitMode === 'ready') throw serversUnavailableError();
    return planServer(ask, sessions, () => undefined);
  },
  awaitsReady: () => false,
  // Never reached: without servers no plan has a duplicate to describe, a server to stop, or a ready wait.
  describe: () => Promise.reject(serversUnavailableError()),
  clientServer: () => Promise.resolve(undefined),
  stop: () => Promise.reject(serversUnavailableError()),
  waitReady: () => Promise.reject(serversUnavailableError()),
  portConflict: () => Promise.resolve(undefined),
};
