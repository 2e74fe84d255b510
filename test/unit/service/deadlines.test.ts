/** Client deadlines: the known clients by clientInfo (figure and source), the environment's say, the margin kept back. */
import assert from 'node:assert/strict';
import { callDeadline, deadlineBudget, deadlineMargin, describeCallPath } from '../../../extension/src/core/service/callDeadline';
import { KNOWN_CLIENTS, OVERRIDE_ENV, knownDeadline } from '../../../mcp-server/src/bridge/clientDeadlines';

describe('client deadlines', () => {
  it('knows VS Code, Claude Code, Claude Desktop, Codex and Gemini CLI by the name they send, each with its source', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['Visual Studio Code', 300_000, /microsoft\/vscode#261734/],
      ['Visual Studio Code - Insiders', 300_000, /5 minutes/],
      ['code-server', 300_000, /VS Code/],
      ['claude-code', 100_000_000, /MCP_TOOL_TIMEOUT is not set/],
      ['claude-ai', 60_000, /anthropics\/claude-code#22542/],
      ['codex-mcp-client', 60_000, /mcp_connection_manager\.rs/],
      ['gemini-cli-mcp-client', 600_000, /MCP_DEFAULT_TIMEOUT_MSEC/],
    ];
    for (const [name, ms, source] of cases) {
      const d = knownDeadline({ name, version: '1' }, {});
      assert.equal(d?.clientDeadlineMs, ms, name);
      assert.match(d?.deadlineSource ?? '', source, name);
    }
    assert.equal(knownDeadline({ name: 'my-agent', version: '1' }, {}), undefined, 'unknown: the extension setting decides');
    assert.equal(knownDeadline(undefined, {}), undefined);
    assert.equal(KNOWN_CLIENTS.length, 5);
  });

  it("Claude Code's MCP_TOOL_TIMEOUT and the override in the server's environment win; garbage is ignored", () => {
    assert.deepEqual(knownDeadline({ name: 'claude-code', version: '2' }, { MCP_TOOL_TIMEOUT: '8000' }), { clientDeadlineMs: 8000, deadlineSource: "Claude Code's MCP_TOOL_TIMEOUT=8000" });
    assert.equal(knownDeadline({ name: 'claude-code', version: '2' }, { MCP_TOOL_TIMEOUT: 'soon' })?.clientDeadlineMs, 100_000_000);
    assert.equal(knownDeadline({ name: 'codex-mcp-client', version: '2' }, { MCP_TOOL_TIMEOUT: '8000' })?.clientDeadlineMs, 60_000, 'only Claude Code reads it');
    assert.deepEqual(knownDeadline({ name: 'codex-mcp-client', version: '2' }, { [OVERRIDE_ENV]: '30000' }), { clientDeadlineMs: 30_000, deadlineSource: `${OVERRIDE_ENV}=30000` });
  });

  it('keeps a tenth back, at least 1 s and at most 15 s', () => {
    assert.deepEqual([deadlineMargin(8000), deadlineMargin(30_000), deadlineMargin(60_000), deadlineMargin(300_000), deadlineMargin(600_000)], [1000, 3000, 6000, 15_000, 15_000]);
    assert.deepEqual([deadlineBudget(30_000), deadlineBudget(60_000), deadlineBudget(300_000)], [27_000, 54_000, 285_000]);
    assert.equal(deadlineBudget(500), 0);
  });

  it('a call returns by its arrival plus the budget; a task has none; unknown clients take the setting', () => {
    assert.deepEqual(callDeadline({ clientDeadlineMs: 60_000, deadlineSource: 'x', client: { name: 'codex-mcp-client', version: '1' } }, 45_000, 1000), {
      deadlineMs: 60_000,
      returnBy: 55_000,
      source: 'x',
      client: 'codex-mcp-client',
    });
    assert.equal(callDeadline({ task: true, clientDeadlineMs: 60_000 }, 45_000, 0), undefined);
    assert.equal(callDeadline(undefined, 45_000, 0)?.deadlineMs, 45_000);
    assert.match(describeCallPath(undefined, callDeadline(undefined, 45_000, 0)), /^an unnamed client via a deadline-aware wait \(returns within 41 s; the client cuts calls at 45 s: the terminalShepherd\.run\.clientTimeoutMs setting/);
  });
});
