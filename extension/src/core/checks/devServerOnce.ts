/**
 * Dev servers are never started twice: in waitMode "ready" or "background", the same command
 * already running in the same directory answers the call with status already_running (its URLs
 * and output tail) unless the call asked for a restart, which the plan has set up.
 */
import { ownerLabel } from '../../../../common/src/format';
import type { DevServers } from '../servers/devServers';
import { alreadyRunningResult } from '../servers/serverReport';
import { PASS, type CommandCheck } from './commandCheck';

export function devServerOnceCheck(servers: Pick<DevServers, 'describe'>): CommandCheck {
  return {
    id: 'devServerOnce',
    async check(call) {
      if (call.kind !== 'run' || call.duplicate === undefined || call.restart) return PASS;
      const { server, tail } = await servers.describe(call.duplicate);
      const agentSession = call.duplicate.run?.launch.agentSession;
      return { kind: 'answer', result: alreadyRunningResult(server, tail, call.duplicate.session.strategy.name, agentSession && ownerLabel({ agentSession })) };
    },
  };
}
