/** The result budgets of the clients that run the Copilot runtime (figure and source); other clients have none. */
import assert from 'node:assert/strict';
import { KNOWN_RESULT_BUDGETS, knownResultBudget } from '../../../../mcp-server/src/bridge/clientResultBudgets';

/** The environment VS Code 1.139 starts its agent host with (code-server's out/server-main.js), as the runtime passes it on. */
const AGENT_HOST_ENV = { AI_AGENT: 'github_copilot_vscode_agent', VSCODE_AGENT_HOST_LAUNCH_KIND: 'vscode_cli' };
const COPILOT = { name: 'copilot-cli', version: '1.0.102' };

describe('client result budgets', () => {
  it('"copilot-cli" in VS Code\'s agent host (told by its environment, either variable): 2,000 characters, 7 KiB', () => {
    for (const env of [AGENT_HOST_ENV, { AI_AGENT: AGENT_HOST_ENV.AI_AGENT }, { VSCODE_AGENT_HOST_LAUNCH_KIND: 'vscode_cli' }]) {
      const budget = knownResultBudget({ name: 'copilot-cli', version: '1.0.85-unstable.r35379093703.g3514c9a' }, env);
      assert.deepEqual([budget?.outputLimitChars, budget?.resultBytes], [2000, 7 * 1024], JSON.stringify(env));
      assert.match(budget?.budgetSource ?? '', /largeOutput\.maxSizeBytes 8 KiB/);
    }
  });

  it('"copilot-cli" anywhere else (the Copilot CLI): 7,000 characters, 19 KiB', () => {
    for (const env of [{}, { AI_AGENT: 'some-other-agent' }]) {
      const budget = knownResultBudget(COPILOT, env);
      assert.deepEqual([budget?.outputLimitChars, budget?.resultBytes], [7000, 19 * 1024], JSON.stringify(env));
      assert.match(budget?.budgetSource ?? '', /20 KiB/);
    }
    assert.equal(KNOWN_RESULT_BUDGETS.length, 2);
  });

  it("none for clients that hand the model one form of the result (VS Code's own client, Claude Code, …: the window's default), nor for an unnamed one", () => {
    for (const name of ['Visual Studio Code', 'code-server', 'claude-code', 'codex-mcp-client', 'gemini-cli-mcp-client', 'opencode', 'my-agent', 'copilot-cli-next']) {
      assert.equal(knownResultBudget({ name, version: '1' }, AGENT_HOST_ENV), undefined, name);
    }
    assert.equal(knownResultBudget(undefined, AGENT_HOST_ENV), undefined);
  });
});
