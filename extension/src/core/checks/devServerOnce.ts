/**
 * Dev servers are never started twice: in waitMode "ready" or "background", the same command
 * already running in the same directory answers the call with status already_running (its URLs
 * and output tail) unless the call asked for a restart, which the plan has set up. So does the
 * same server started by an MCP client's own tools (servers/clientServers.ts), in any wait mode
 * once it listens on a port; a restart cannot stop that one (it is not a managed terminal's), so
 * a call with restart: true goes ahead and, when the port is taken, its result names the holder.
 */
import { ownerLabel } from '../../../../common/src/format';
import type { DevServers } from '../servers/devServers';
import { alreadyRunningResult, clientServerResult } from '../servers/serverReport';
import { PASS, type CommandCheck } from './commandCheck';

export function devServerOnceCheck(servers: Pick<DevServers, 'describe' | 'clientServer'>): CommandCheck {
  return {
    id: 'devServerOnce',
    async check(call) {
      if (call.kind !== 'run' || call.restart) return PASS;
      if (call.duplicate === undefined) {
        // A one-shot command (completion) is checked against what the ledger knows, without a poll of its own.
        const found = await servers.clientServer(call.command, call.cwd, call.waitMode !== 'completion');
        const serving = found && (call.waitMode !== 'completion' || found.server.ports.length > 0);
        return serving ? { kind: 'answer', result: clientServerResult(found.server, found.owner, call.strategy) } : PASS;
      }
      const { server, tail } = await servers.describe(call.duplicate);
      const agentSession = call.duplicate.run?.launch.agentSession;
      return { kind: 'answer', result: alreadyRunningResult(server, tail, call.duplicate.session.strategy.name, agentSession && ownerLabel({ agentSession })) };
    },
  };
}
