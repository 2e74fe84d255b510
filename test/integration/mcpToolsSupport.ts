/**
 * What the mcpTools*.test.ts files share. They test every MCP tool from source: createServer()
 * with an SDK client over the in-memory transport, the tools reaching a scripted bridge (the
 * extension's own bridge server) through the real BridgeClient and socket. The built bundle has
 * its own smoke test in mcpServer.test.ts.
 */
import type { MethodKey } from '../../common/src/protocol';
import type { RequestContext } from '../../extension/src/bridge/bridgeServer';
import { startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';

export type ToolMethod = Exclude<MethodKey, 'hello' | 'ledgerSummary'>;

/** Scripts one bridge method; returns the params of every call it receives. */
export function script(fixture: BridgeFixture, key: ToolMethod, answer: (context: RequestContext) => unknown): Record<string, unknown>[] {
  const calls: Record<string, unknown>[] = [];
  (fixture.handlers as Record<ToolMethod, unknown>)[key] = (params: Record<string, unknown>, context: RequestContext) => {
    calls.push(params);
    return answer(context);
  };
  return calls;
}

export interface ToolSession {
  readonly fixture: BridgeFixture;
  readonly session: InMemoryMcpSession;
}

/**
 * Each test gets its own scripted bridge and an MCP session from source on its workspace, handed to
 * `opened`; after it, the ones `current` returns (a test may have replaced the bridge) are closed.
 */
export function sessionHooks(opened: (fresh: ToolSession) => void, current: () => ToolSession): void {
  beforeEach(async () => {
    const fixture = await startBridgeFixture();
    opened({ fixture, session: await connectInMemory({ workspaceFolder: fixture.workspace }) });
  });
  afterEach(async () => {
    const { fixture, session } = current();
    await session.close();
    await fixture.dispose();
  });
}
