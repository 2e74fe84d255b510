/** A run's output limit: the person's own setting, else the calling client's (the MCP server's table), else the default. */
import assert from 'node:assert/strict';
import { settingsTable } from '../../../common/src/settings';
import { runOutputLimit } from '../../../extension/src/core/output/outputLimit';
import { knownResultBudget } from '../../../mcp-server/src/bridge/clientResultBudgets';

/** What the window gets for a client: the limit the MCP server sends with its calls, if any. */
const sentFor = (name: string, env: NodeJS.ProcessEnv = {}): number | undefined => knownResultBudget({ name, version: '1' }, env)?.outputLimitChars;
const AGENT_HOST_ENV = { AI_AGENT: 'github_copilot_vscode_agent' };

describe('runOutputLimit', () => {
  it("without a setting of the person's: VS Code's agent host 2,000, the Copilot CLI 7,000, VS Code's own client, Claude Code and any other the default, 16,000", () => {
    assert.equal(settingsTable['output.limitChars'].default, 16_000);
    assert.equal(runOutputLimit(undefined, sentFor('copilot-cli', AGENT_HOST_ENV)), 2000);
    assert.equal(runOutputLimit(undefined, sentFor('copilot-cli')), 7000);
    assert.equal(runOutputLimit(undefined, sentFor('Visual Studio Code')), 16_000);
    assert.equal(runOutputLimit(undefined, sentFor('claude-code')), 16_000);
    assert.equal(runOutputLimit(undefined, sentFor('my-agent')), 16_000);
    assert.equal(runOutputLimit(undefined, undefined), 16_000, 'a call with no client named');
  });

  it("the person's own setting wins for every client, held to the setting's range", () => {
    assert.equal(runOutputLimit(16_000, sentFor('copilot-cli', AGENT_HOST_ENV)), 16_000);
    assert.equal(runOutputLimit(3000, sentFor('claude-code')), 3000);
    assert.equal(runOutputLimit(5, sentFor('copilot-cli')), settingsTable['output.limitChars'].minimum);
  });
});
