/**
 * A long run's terminal_run result, built for real (the TerminalService's run and output capture,
 * behind a real bridge, through the MCP server's tool), at each client's output limit
 * (mcp-server/src/bridge/clientResultBudgets.ts). In VS Code's agent host (the Copilot runtime,
 * "copilot-cli", in the environment VS Code starts the agent host with) it fits whole in the
 * tool-result size the agent host gives its Copilot harness: past it the harness saves the result
 * to a file and the model gets a 500-character preview (docs/clients.md, "Results over 8 KB"). The
 * harness counts the text content and the structured content together, as it forwards them
 * (HARNESS_TEXT below); this test counts the same way. An output of wide characters is cut further
 * by the MCP server (resultBudget.ts); a limit the person set is honoured. A client that reads one
 * form of the result (VS Code's own, Claude Code) keeps the default.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { settingsTable } from '../../common/src/settings';
import { defaultSettings } from '../../extension/src/core/settings';
import { knownResultBudget } from '../../mcp-server/src/bridge/clientResultBudgets';
import type { BridgeFixture } from '../support/bridgeFixture';
import { connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { toolText } from '../support/mcpClient';
import { script as scriptHost, useTerminalService } from '../unit/service/terminalServiceSupport';
import { script, sessionHooks } from './mcpToolsSupport';

/** VS Code 1.139's agent host starts its Copilot sessions with `largeOutput: { maxSizeBytes: 8 * 1024 }`. */
const HARNESS_LIMIT_BYTES = 8 * 1024;
/** The Copilot CLI's runtime default for the same. */
const COPILOT_CLI_LIMIT_BYTES = 20 * 1024;
/** What the harness forwards to the model, and measures: the text, a blank line, the structured content as JSON. */
const HARNESS_TEXT = (result: CallToolResult): string => `${toolText(result)}\n\n${JSON.stringify(result.structuredContent)}`;
const bytes = (result: CallToolResult): number => Buffer.byteLength(HARNESS_TEXT(result), 'utf8');

/** The Copilot runtime as VS Code 1.139's agent host runs it: its name, and what the agent host's environment passes on. */
const AGENT_HOST = { clientInfo: { name: 'copilot-cli', version: '1.0.85-unstable.r35379093703.g3514c9a' }, env: { AI_AGENT: 'github_copilot_vscode_agent', VSCODE_AGENT_HOST_LAUNCH_KIND: 'vscode_cli' } };
const COPILOT_CLI = { clientInfo: { name: 'copilot-cli', version: '1.0.102' }, env: {} };
const CLAUDE_CODE = { clientInfo: { name: 'claude-code', version: '2.1.332' }, env: {} };
const VS_CODE = { clientInfo: { name: 'Visual Studio Code', version: '1.139.1' }, env: {} };

describe("terminal_run results at each client's output limit (the real service behind the MCP tool)", () => {
  const t = useTerminalService();
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  /** The MCP session, from now on, of a client that names itself `clientInfo` at initialize and starts the server in `env`. */
  async function connectAs(client: { clientInfo: { name: string; version: string }; env: NodeJS.ProcessEnv }): Promise<void> {
    await session.close();
    session = await connectInMemory({ workspaceFolder: fixture.workspace, ...client });
  }

  /** `command` printing `text` through the tool, its terminal answered by the fake host; the window reads the call's meta as the bridge does. */
  function runThrough(command: string, text: string, name?: string): Promise<CallToolResult> {
    scriptHost(t.host, { [command]: [text, 0] });
    script(fixture, 'run', (context) => t.service.run({ command, ...(name ? { name } : {}) }, { meta: context.meta }));
    return session.call('terminal_run', { command, ...(name ? { name } : {}) });
  }

  /** `seq 1 200000` through the tool, with a dev server in the ledger. */
  function longRun(): Promise<CallToolResult> {
    fixture.handlers.ledgerSummary = () => ({
      running: [{ pid: 70, name: 'node', terminalName: 'web', ports: [5173], startedAt: new Date().toISOString() }],
      orphaned: [],
      servers: [{ terminal: 'web', command: 'npm run dev', pid: 70, ports: [5173], urls: ['http://localhost:5173/'] }],
    });
    return runThrough('seq 1 200000', Array.from({ length: 200_000 }, (_, i) => `${i + 1}\r\n`).join(''), 'build');
  }

  const outputOf = (result: CallToolResult) => result.structuredContent as { output: string; exitCode: number; truncated?: boolean; ledger: unknown };

  describe("VS Code's agent host (its Copilot harness)", () => {
    beforeEach(() => connectAs(AGENT_HOST));

    it('a long output: head and tail, last line and exit code, text and structured content, under the harness\'s limit with room to spare', async () => {
      assert.equal(defaultSettings.outputLimitChars, undefined, 'nobody set output.limitChars');
      const logs = t.dirs.make('logs-');
      t.setup({ logFilePath: () => path.join(logs, 'build-2026-11-27T20-09-50-878Z.log') });
      const result = await longRun();
      const structured = outputOf(result);
      assert.equal(structured.truncated, true);
      assert.equal(structured.exitCode, 0);
      assert.match(structured.output, /^1\n2\n3\n/);
      assert.match(structured.output, /\n200000$/);
      assert.ok(structured.output.length <= 2000, `${structured.output.length} characters: cut at the agent host's 2,000`);
      assert.ok(structured.ledger, 'the ledger reminder is carried');
      assert.match(toolText(result), /\n200000\n\nDev servers running .*\nStill running \(1;/s);
      assert.match(toolText(result), /Output truncated \(head and tail kept\); the full output is in .*build-2026-11-27T20-09-50-878Z\.log\./);
      const size = bytes(result);
      assert.ok(size <= HARNESS_LIMIT_BYTES * 0.8, `${size} bytes: over 80% of the harness's ${HARNESS_LIMIT_BYTES}`);
    });

    it('an output of two-byte characters, cut at its limit, is cut further in bytes: its whole result under the budget, the marker counting what is left out', async () => {
      const logs = t.dirs.make('logs-');
      t.setup({ logFilePath: () => path.join(logs, 'wide.log') });
      fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
      const result = await runThrough('print-wide', `${'é'.repeat(3000)}\r\n`);
      const { output } = outputOf(result);
      const marker = /^(é+)\n\[\.\.\. ([\d,]+) characters \(0 lines\) omitted; full output in \S+ \.\.\.\]\n(é+)$/.exec(output);
      assert.ok(marker, output);
      assert.equal(marker[1]!.length + Number(marker[2]!.replace(/,/g, '')) + marker[3]!.length, 3000, 'shown and omitted make the whole');
      assert.ok(output.length < 1800, `${output.length} characters: cut below what the window kept`);
      assert.ok(bytes(result) <= knownResultBudget(AGENT_HOST.clientInfo, AGENT_HOST.env)!.resultBytes, `${bytes(result)} bytes`);
      assert.ok(toolText(result).includes(output), 'the text carries the same output');
    });

    it("the person's own output.limitChars is honoured, past the harness's limit too", async () => {
      t.setup({ settings: { outputLimitChars: 16_000 } });
      const result = await longRun();
      assert.ok(outputOf(result).output.length > 15_000, 'not cut further');
      assert.ok(bytes(result) > HARNESS_LIMIT_BYTES);
    });

    it('a short output is whole, as it was', async () => {
      fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
      const result = await runThrough('echo hi', 'hi\r\n');
      assert.equal(outputOf(result).output, 'hi');
      assert.equal(outputOf(result).truncated, undefined);
    });
  });

  it("the Copilot CLI: a long output at its 7,000 characters, the whole result within its runtime's 20 KiB with a margin", async () => {
    await connectAs(COPILOT_CLI);
    const result = await longRun();
    const { output, truncated } = outputOf(result);
    assert.equal(truncated, true);
    assert.ok(output.length > 6500 && output.length <= 7000, `${output.length} characters`);
    const size = bytes(result);
    assert.ok(size <= COPILOT_CLI_LIMIT_BYTES * 0.85, `${size} bytes: over 85% of the runtime's ${COPILOT_CLI_LIMIT_BYTES}`);
  });

  for (const client of [CLAUDE_CODE, VS_CODE]) {
    it(`a client that hands its model one form of the result (${client.clientInfo.name}) keeps the default 16,000: a 10,000-character output comes whole, a longer one is cut at 16,000 and no further`, async () => {
      await connectAs(client);
      fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
      const lines = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`);
      const whole = await runThrough('print-10k', lines.map((l) => `${l}\r\n`).join(''));
      assert.equal(outputOf(whole).output, lines.join('\n'));
      assert.equal(outputOf(whole).output.length, 9999);
      assert.equal(outputOf(whole).truncated, undefined, 'not cut');
      const long = outputOf(await longRun()).output;
      const limit = settingsTable['output.limitChars'].default;
      assert.ok(long.length > limit - 500 && long.length <= limit, `${long.length} characters`);
    });
  }
});
